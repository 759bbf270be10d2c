import { PAGE_DATA_ID, scriptSafeJson } from '../../shared/page-data.js';

/** What a page's HTML carries of its language (src/server/i18n/i18n-plugin.ts's `pageLanguage`). */
export interface PageLanguageHtml {
  /** `lang="…" dir="…"` for `<html>`. */
  htmlAttributes: string;
  /** Tags for the end of `<head>`. */
  headHtml: string;
  /** Data for the end of `<body>`. */
  bodyHtml: string;
}

/** The built index.html, cut where a server-rendered page puts its head tags, its HTML and its data. */
export interface PageTemplate {
  /** The whole page: `head` (tags) replaces the shell's title and description. `dataJson` is raw JSON. */
  page(head: string, body: string, dataJson: string, language?: PageLanguageHtml): string;
}

const ROOT = '<div id="root"></div>';

/** `html` with `<html lang dir>` and the language's head tags and data (the shell, or a rendered page). */
export function withLanguage(html: string, language: PageLanguageHtml | undefined): string {
  if (!language) return html;
  return html
    .replace(/<html lang="[^"]*"/, `<html ${language.htmlAttributes}`)
    .replace('</head>', `${language.headHtml ? `  ${language.headHtml}\n  ` : ''}</head>`)
    .replace(/<\/body>(?![\s\S]*<\/body>)/, `${language.bodyHtml}</body>`);
}

/** Undefined when the file has no empty `#root` or `</head>` (then pages are rendered in the browser only). */
export function pageTemplate(indexHtml: string): PageTemplate | undefined {
  const withoutHead = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/, '')
    // A rendered page paints before the app is fetched (src/web/boot.ts fetches it then): no modulepreloads.
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
  const headEnd = withoutHead.indexOf('</head>');
  const root = withoutHead.indexOf(ROOT);
  if (headEnd < 0 || root < headEnd) return undefined;
  const beforeHead = withoutHead.slice(0, headEnd);
  const middle = withoutHead.slice(headEnd, root);
  const after = withoutHead.slice(root + ROOT.length);
  return {
    page: (head, body, dataJson, language) =>
      withLanguage(
        `${beforeHead}  ${head}\n  ${middle}<div id="root">${body}</div>\n    ` +
          // Data, not a script: type application/json is never run, and so needs no CSP exception.
          `<script type="application/json" id="${PAGE_DATA_ID}">${scriptSafeJson(dataJson)}</script>${after}`,
        language,
      ),
  };
}
