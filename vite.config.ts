import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * The built index.html runs src/web/boot.ts instead of the app: on a server-rendered page, boot fetches the app (its
 * entry and every module it imports, named on boot's tag) once the page has painted, and runs it one module file at
 * a time, so that neither the download nor the evaluation holds back the first view or the main thread for long on
 * a slow phone. The HTML keeps its modulepreload links for the pages rendered in the browser, which wait for the app
 * anyway; the server takes them out of the pages it renders (src/server/pages/page-template.ts). The app's styles
 * stay the page's stylesheets.
 */
function paintFirst(): Plugin {
  return {
    name: 'paint-first',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunks = new Map(
          Object.values(context.bundle ?? {}).flatMap((c) =>
            c.type === 'chunk' ? [[c.fileName, c] as const] : [],
          ),
        );
        const boot = [...chunks.values()].find((chunk) => chunk.isEntry && chunk.name === 'boot');
        if (!boot) throw new Error('paint-first: no boot chunk in the bundle');
        const entry = /<script type="module" crossorigin src="\/(assets\/index-[^"]+\.js)"><\/script>\s*/;
        const app = entry.exec(html)?.[1];
        if (!app || !chunks.has(app))
          throw new Error("paint-first: no module script for the app's entry in index.html");
        // Every module file the app imports, each after the files it imports itself (the app's entry last; in a
        // cycle, whichever comes first).
        const order: string[] = [];
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
          order.push(file);
        };
        visit(app);
        return html
          .replace(entry, `<link rel="modulepreload" crossorigin href="/${app}">\n    `)
          .replace(
            '</head>',
            `  <script type="module" crossorigin src="/${boot.fileName}" id="app-boot" data-modules="${order.map((file) => `/${file}`).join(' ')}"></script>\n  </head>`,
          );
      },
    },
  };
}

const config = {
  plugins: [react(), paintFirst()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Maps stay beside the build for reading a production stack trace, but no script names them and the
    // server does not serve them: they carry the whole source.
    sourcemap: 'hidden',
    rolldownOptions: {
      input: { index: 'index.html', boot: 'src/web/boot.ts' },
      // Building a zod schema has no effect beyond its value: one that no screen uses is left out of the bundle
      // rather than built (zod and all) on every first view.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // Dialogs, popovers and their positioning engine: only the screens that open one load them. The toasts'
            // container, which every page loads after its first render, needs the transitions and the scroll lock's
            // class names but not the positioning engine (most of the weight), hence three groups.
            {
              name: 'transitions',
              test: /node_modules[\\/](@babel[\\/]runtime|react-transition-group|dom-helpers)/,
            },
            {
              name: 'scroll-lock',
              test: /node_modules[\\/](react-remove-scroll|react-style-singleton|use-callback-ref|use-sidecar|tslib)/,
            },
            { name: 'overlays', test: /node_modules[\\/](@floating-ui|aria-hidden)/ },
            // React's DOM renderer, which every page needs: a file of its own, so that its evaluation is a task of
            // its own too (see paintFirst).
            { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}` },
      '/auth': { target: `http://127.0.0.1:${apiPort}` },
      '/dev-idp': { target: `http://127.0.0.1:${apiPort}` },
    },
  },
} satisfies UserConfig;

export default defineConfig(({ command, isSsrBuild }) => {
  // A build is always a production build, whatever NODE_ENV its caller has (`NODE_ENV=development npm start`):
  // the app must not depend on where it runs, and a development bundle is broken (react-transition-group's
  // development-only prop-types import ties the overlays chunk into an import cycle with the notifications
  // chunk, which then calls prop-types before it is defined).
  if (command === 'build') process.env.NODE_ENV = 'production';
  // `vite build --ssr src/web/ssr-entry.tsx`: the server's renderer of the public pages, in dist/ssr (its packages
  // stay imports of node_modules; the browser's public files are not copied).
  if (isSsrBuild) return { ...config, build: { ...config.build, outDir: 'dist/ssr', copyPublicDir: false } };
  return config;
});
