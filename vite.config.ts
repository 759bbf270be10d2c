import react from '@vitejs/plugin-react';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { OutputChunk } from 'rolldown';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * The theme's CSS variables and Mantine's breakpoint classes as a stylesheet (`virtual:mantine-variables.css`,
 * imported by src/web/mantine-styles.ts), built from the theme here: Mantine's provider would otherwise compute
 * them in the browser as it hydrates and write them into every page as `<style>` elements (issue 32: 6.8 KB of each
 * page's HTML, and main-thread work before anything is shown). The provider is told not to (src/web/app-root.tsx).
 */
function mantineVariables(): Plugin {
  const id = 'virtual:mantine-variables.css';
  return {
    name: 'mantine-variables',
    resolveId: (source) => (source === id ? id : undefined),
    async load(loaded) {
      if (loaded !== id) return undefined;
      // What Mantine's MantineCssVariables and MantineClasses write, from its own exported helpers (rendering the
      // provider here would mix React's development and production builds when NODE_ENV says development).
      const mantine = await import('@mantine/core');
      const { theme: overrides, cssVariablesResolver } = await import('./src/web/theme.js');
      const theme = mantine.mergeMantineTheme(mantine.DEFAULT_THEME, overrides);
      const merged = mantine.deepMerge(
        mantine.defaultCssVariablesResolver(theme),
        cssVariablesResolver(theme),
      ) as ReturnType<typeof mantine.defaultCssVariablesResolver>;
      // Only what differs from Mantine's defaults (@mantine/core/styles/default-css-variables.css has those).
      const defaults = mantine.defaultCssVariablesResolver(mantine.DEFAULT_THEME);
      const changed = (section: 'variables' | 'light' | 'dark') =>
        Object.fromEntries(
          Object.entries(merged[section]).filter(
            ([key, value]) => (defaults[section] as Record<string, string>)[key] !== value,
          ),
        );
      const variables = mantine.convertCssVariables({
        variables: changed('variables'),
        light: changed('light'),
        dark: changed('dark'),
      });
      const breakpoints = mantine
        .keys(theme.breakpoints)
        .map((name) => {
          const breakpoint = String(theme.breakpoints[name]);
          const inPx = breakpoint.includes('px');
          const value = mantine.px(breakpoint) as number;
          const below = inPx ? `${value - 0.1}px` : mantine.em(value - 0.1);
          const from = inPx ? `${value}px` : mantine.em(value);
          return `@media (max-width: ${below}) {.mantine-visible-from-${name} {display: none !important;}}@media (min-width: ${from}) {.mantine-hidden-from-${name} {display: none !important;}}`;
        })
        .join('');
      return `${variables}\n${breakpoints}`;
    },
  };
}

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

/**
 * The modules of a first view (issue 32), as a throw-away build found them (`vite build --mode first-view`, the
 * first step of `npm run build:web`): every module in the files the app's entry imports, directly or not, except
 * React's and the boot script's. The build proper puts them in one file (the `app` group below). Left to the
 * bundler, they were spread over a dozen files shared with the pages loaded on demand, each compressed on its own:
 * 8 KiB more as sent. A module list cannot be known earlier in one build: before tree-shaking, the app's import graph
 * runs through Mantine's index to every component it has, dialogs and all.
 */
const FIRST_VIEW_FILE = 'dist/first-view-modules.json';

/** React, its DOM renderer and its scheduler (and the bundler's runtime, which they need first). */
const REACT = /node_modules[\\/](react|react-dom|scheduler)[\\/]|rolldown[\\/]runtime/;

function recordFirstView(): Plugin {
  return {
    name: 'record-first-view',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])),
      );
      const closure = (from: OutputChunk | undefined) => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const imported of chunks.get(file)?.imports ?? []) visit(imported);
        };
        if (from) visit(from.fileName);
        return seen;
      };
      const entry = (name: string) => [...chunks.values()].find((c) => c.isEntry && c.name === name);
      const boot = closure(entry('boot'));
      const app = closure(entry('index'));
      if (app.size === 0) throw new Error('record-first-view: no index entry in the bundle');
      const modules = [...app]
        .filter((file) => !boot.has(file))
        .flatMap((file) => chunks.get(file)?.moduleIds ?? [])
        .filter((id) => !REACT.test(id));
      mkdirSync('dist', { recursive: true });
      writeFileSync(FIRST_VIEW_FILE, JSON.stringify(modules.sort(), null, 1));
    },
  };
}

/** The modules `recordFirstView` found (none when the throw-away build has not run: then the bundler spreads them). */
function firstViewModules(): Set<string> {
  if (!existsSync(FIRST_VIEW_FILE)) {
    console.warn(
      `${FIRST_VIEW_FILE} is missing: the first view's modules are left to the bundler (npm run build:web)`,
    );
    return new Set();
  }
  return new Set(JSON.parse(readFileSync(FIRST_VIEW_FILE, 'utf8')) as string[]);
}

const config = {
  plugins: [react(), paintFirst(), mantineVariables()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Maps stay beside the build for reading a production stack trace, but no script names them and the
    // server does not serve them: they carry the whole source.
    sourcemap: 'hidden',
    // Every browser the app supports knows `<link rel="modulepreload">` (Safari since 17); an older one only
    // preloads less. The boot script fetches the first view's modules itself.
    modulePreload: { polyfill: false },
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
            // React and its DOM renderer, which every page needs: a file of their own, so that their evaluation is a
            // task of its own too (see paintFirst).
            { name: 'react-dom', test: REACT, priority: 2 },
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

export default defineConfig(({ command, isSsrBuild, mode }) => {
  // A build is always a production build, whatever NODE_ENV its caller has (`NODE_ENV=development npm start`):
  // the app must not depend on where it runs, and a development bundle is broken (react-transition-group's
  // development-only prop-types import ties the overlays chunk into an import cycle with the notifications
  // chunk, which then calls prop-types before it is defined).
  if (command === 'build') process.env.NODE_ENV = 'production';
  // `vite build --ssr src/web/ssr-entry.tsx`: the server's renderer of the public pages, in dist/ssr (its packages
  // stay imports of node_modules; the browser's public files are not copied).
  if (isSsrBuild) return { ...config, build: { ...config.build, outDir: 'dist/ssr', copyPublicDir: false } };
  // The throw-away build that finds the first view's modules: the same chunks, nothing minified or kept.
  if (mode === 'first-view')
    return {
      ...config,
      plugins: [react(), mantineVariables(), recordFirstView()],
      build: {
        ...config.build,
        outDir: 'dist/first-view-pass',
        minify: false,
        sourcemap: false,
        write: false,
      },
    };
  if (command !== 'build') return config;
  const firstView = firstViewModules();
  const { rolldownOptions } = config.build;
  const { codeSplitting } = rolldownOptions.output;
  return {
    ...config,
    build: {
      ...config.build,
      rolldownOptions: {
        ...rolldownOptions,
        output: {
          ...rolldownOptions.output,
          codeSplitting: {
            ...codeSplitting,
            groups: [
              ...codeSplitting.groups,
              // The rest of what a first view runs, in one file (see FIRST_VIEW_FILE).
              { name: 'app', test: (id: string) => firstView.has(id), priority: 1 },
            ],
          },
        },
      },
    },
  };
});
