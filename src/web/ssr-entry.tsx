// The server's bundle (built by `vite build --ssr` into dist/ssr, loaded by src/server/pages/page-renderer.ts):
// the public pages rendered by the same routes and components as in the browser, from data the server passes in.
import { hydrate } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { PageData, PageRenderer } from '../shared/page-data.js';
import { AppRoot, createQueryClient } from './app-root.js';
import { routes } from './app-router.js';
import { setRenderInstant } from './ssr/render-instant.js';
import { setTranslator, Translator } from '../shared/i18n/translator.js';

const handler = createStaticHandler(routes);

export const render: PageRenderer['render'] = async (url, data: PageData, language) => {
  const context = await handler.query(new Request(new URL(url, 'http://localhost')));
  if (context instanceof Response) throw new Error(`Route ${url} answered a redirect`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const queryClient = createQueryClient();
  hydrate(queryClient, data.cache);
  // renderToString is synchronous: the instant and the language cannot leak into another page's render.
  setRenderInstant(data.now);
  const used = new Set<string>();
  const previous = setTranslator(new Translator({ ...language, used }));
  try {
    const html = renderToString(
      <AppRoot queryClient={queryClient}>
        {/* No hydration script from the router: our CSP allows no inline script, and no route has a loader. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppRoot>,
    );
    return { html, used: [...used] };
  } finally {
    setTranslator(previous);
    setRenderInstant(undefined);
    queryClient.clear();
  }
};
