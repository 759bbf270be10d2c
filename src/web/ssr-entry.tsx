// The server's bundle (built by `vite build --ssr` into dist/ssr, loaded by src/server/pages/page-renderer.ts):
// the public pages rendered by the same routes and components as in the browser, from data the server passes in.
import { renderToString } from 'react-dom/server';
import type { PageData, PageRenderer } from '../shared/page-data.js';
import { AppRoot, createQueryClient } from './app-root.js';
import { seedQueryCache } from './ssr/seed-query-cache.js';
import { AppRoutes, routes } from './app-router.js';
import { StaticRouter } from './router/router.js';
import { setRenderInstant } from './ssr/render-instant.js';
import { collectAvailability } from './availability/collect-availability.js';
import { setTranslator, Translator } from '../shared/i18n/translator.js';

export const render: PageRenderer['render'] = async (url, data: PageData, language) => {
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, data.cache);
  // renderToString is synchronous: the instant and the language cannot leak into another page's render.
  setRenderInstant(data.now);
  const used = new Set<string>();
  const previous = setTranslator(new Translator({ ...language, used }));
  try {
    const [html, clocks] = collectAvailability(() =>
      renderToString(
        <AppRoot queryClient={queryClient}>
          <StaticRouter routes={routes} url={url}>
            <AppRoutes />
          </StaticRouter>
        </AppRoot>,
      ),
    );
    return { html, used: [...used], clocks };
  } finally {
    setTranslator(previous);
    setRenderInstant(undefined);
    queryClient.clear();
  }
};
