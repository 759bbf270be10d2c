import { describe, expect, it } from 'vitest';
import { pageTemplate } from './page-template.js';

/** The built index.html's shape (vite.config.ts's paintFirst plugin): the app's modules preloaded, boot to run. */
const built = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="The shell's" />
    <title>The shell's title</title>
    <link rel="modulepreload" crossorigin href="/assets/index-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/react-dom-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
    <script type="module" crossorigin src="/assets/boot-jkl.js" id="app-boot" data-modules="/assets/react-dom-def.js /assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('a server-rendered page from the built shell', () => {
  const page = pageTemplate(built)?.page('<title>A kitchen</title>', '<main>Menu</main>', '{"now":1}') ?? '';

  it("has the page's head instead of the shell's title and description, its HTML and its data", () => {
    expect(page).toContain('<title>A kitchen</title>');
    expect(page).not.toContain("The shell's");
    expect(page).toContain('<div id="root"><main>Menu</main></div>');
    expect(page).toContain('<script type="application/json" id="page-data">{"now":1}</script>');
  });

  it('keeps the stylesheets and the boot script, but preloads no module: the app is fetched once it has painted', () => {
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-ghi.css">');
    expect(page).toContain('id="app-boot" data-modules="/assets/react-dom-def.js /assets/index-abc.js"');
    expect(page).not.toContain('modulepreload');
  });
});
