import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { negotiateEncoding } from '../lib/accept-encoding.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { KitchenParams, type Kitchen, type KitchenFirstPage } from '../../shared/kitchens.js';
import type { MenuItem } from '../../shared/menu.js';
import { DEFAULT_HOURS, nextChange } from '../../shared/opening-hours.js';
import {
  dehydratedCacheJson,
  pageVersionsJson,
  type PageData,
  type PageQuery,
  type PageRenderer,
} from '../../shared/page-data.js';
import { paths } from '../../shared/paths.js';
import { kitchenHidden } from '../data/kitchen-content-access.js';
import { kitchensFirstPageTopic, kitchensTopic, kitchenTopic } from '../data/kitchens-topic.js';
import { readTopic } from '../live/live-route.js';
import { etagOf } from '../live/hub.js';
import { menuTopic } from '../data/menu-topic.js';
import { PageCache, type RenderedPage } from './page-cache.js';
import {
  headHtml,
  kitchenHead,
  landingHead,
  notFoundHead,
  unavailableHead,
  type PageHead,
} from './page-head.js';
import { pageTemplate } from './page-template.js';
import { pageLanguage } from '../i18n/i18n-plugin.js';
import type { Locale } from '../../shared/i18n/locales.js';

/** A rendered page shows 'Open now' as of its render: rendered again after at most this long. */
const MAX_PAGE_AGE_MS = 60_000;

/** The server's bundle of the web app (dist/ssr/ssr-entry.js, built by Vite); undefined when not built. */
export async function loadPageRenderer(file: string): Promise<PageRenderer | undefined> {
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}

/** The landing page's search lives in its URL: such a page is rendered in the browser (it asks the search API). */
const SEARCH_PARAMS = ['q', 'cuisine', 'diet', 'near', 'open'];

/** When what these kitchens show as open or closed next changes, or a minute from now. */
function validUntil(now: number, kitchens: readonly Kitchen[]): number {
  let until = now + MAX_PAGE_AGE_MS;
  for (const kitchen of kitchens) {
    const change = nextChange(kitchen.hours ?? DEFAULT_HOURS, kitchen.timeZone, new Date(now));
    if (change) until = Math.min(until, change.getTime());
    if (kitchen.pausedUntil) {
      const end = Date.parse(kitchen.pausedUntil);
      if (end > now) until = Math.min(until, end);
    }
  }
  return until;
}

/**
 * More of what a kitchen's page shows, from the feature that answers it (its reviews, how it takes orders, how it is
 * paid): the key of the browser's query and the JSON of its answer; undefined when there is none to give.
 */
export type KitchenPageQuery = (kitchenUid: string) => Promise<PageQuery | undefined>;

/**
 * The handlers of the pages rendered on the server (`/` and `/KitchenMenu/{id}`), by route pattern: the app's own
 * components render the live topics' snapshots the API answers from, and the page carries that data for the
 * browser to hydrate from. Undefined when the shell cannot hold a rendered page.
 */
export function serverRenderedPages(
  app: FastifyInstance,
  renderer: PageRenderer,
  indexHtml: string,
  sendShell: (reply: FastifyReply, status: number) => FastifyReply,
  kitchenQueries: readonly KitchenPageQuery[] = [],
): Record<string, RouteHandlerMethod> | undefined {
  const template = pageTemplate(indexHtml);
  if (!template) return undefined;
  const cache = new PageCache();
  app.decorate('pageCache', cache);
  const { publicUrl } = app.config;

  const { currency } = app.config.payments;
  const build = (
    locale: Locale,
    url: string,
    head: PageHead,
    queries: PageQuery[],
    now: number,
    more?: () => Promise<PageQuery[]>,
  ) => {
    return async () => {
      const all = more ? [...queries, ...(await more())] : queries;
      const dataJson = `{"now":${now},"cache":${dehydratedCacheJson(all, now)},"versions":${pageVersionsJson(all)}`;
      const data = JSON.parse(`${dataJson}}`) as PageData;
      const messages = app.i18n.messages(locale);
      const { html, used, clocks } = await renderer.render(url, data, { locale, messages, currency });
      const language = pageLanguage(app.i18n, locale, currency, used);
      return template.page(headHtml(head), html, `${dataJson},"clocks":${JSON.stringify(clocks)}}`, language);
    };
  };

  const send = async (request: FastifyRequest, reply: FastifyReply, page: Promise<RenderedPage>) => {
    let rendered: RenderedPage;
    try {
      rendered = await page;
    } catch (error) {
      // A page the server cannot render is still a page: the browser renders it.
      request.log.error({ err: error }, 'server rendering failed');
      return sendShell(reply, 200);
    }
    const coding = negotiateEncoding(request.headers['accept-encoding']);
    reply.headers(rendered.headers[coding]);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && rendered.status === 200 && matches(ifNoneMatch, rendered.etags[coding]))
      return reply.status(304).removeHeader('content-type').removeHeader('content-encoding').send();
    return reply.status(rendered.status).send(rendered.bodies[coding]);
  };

  /**
   * A page the server cannot render (the database unreachable, a rendering bug) is still a page: the shell, which the
   * browser renders, with its own loading and error states.
   */
  const orShell = (handler: RouteHandlerMethod): RouteHandlerMethod =>
    async function (this: FastifyInstance, request, reply) {
      try {
        return await handler.call(this, request, reply);
      } catch (error) {
        request.log.warn({ err: error }, 'page not rendered on the server');
        return sendShell(reply, 200);
      }
    };

  const landing: RouteHandlerMethod = async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    if (SEARCH_PARAMS.some((name) => query[name] !== undefined)) return sendShell(reply, 200);
    // The first page only: the browser asks for the pages after it (/api/kitchens/page) as the visitor wants them.
    const snapshot = await readTopic(app, kitchensFirstPageTopic, undefined);
    const now = app.clock.now();
    const { locale } = request;
    const page = cache.get(`${locale}:/`, [snapshot], now, () => {
      const { kitchens } = JSON.parse(snapshot.json) as KitchenFirstPage;
      return {
        status: 200,
        validUntil: validUntil(now, kitchens),
        html: build(
          locale,
          paths.home.href(),
          landingHead(app.i18n.translator(locale), publicUrl, kitchens),
          [
            [['kitchens', 'first-page'], snapshot.json, etagOf(snapshot)],
            // Whether 'Or pick an address' shows: known here, so it is in the page rather than appearing later
            // and pushing the kitchens down (the answer of /api/geocode/settings).
            [['geocode', 'settings'], JSON.stringify({ kind: app.config.geocoder.kind })],
          ],
          now,
        ),
      };
    });
    return send(request, reply, page);
  };

  const kitchenMenu: RouteHandlerMethod = async (request, reply) => {
    const id = (request.params as { id?: string }).id ?? '';
    const url = paths.kitchenMenu.href(id);
    const now = app.clock.now();
    const { locale } = request;
    const tr = app.i18n.translator(locale);
    const valid = KitchenParams.safeParse({ uid: id });
    const [kitchen, menu] = valid.success
      ? await Promise.all([readTopic(app, kitchenTopic, id), readTopic(app, menuTopic, id)])
      : [undefined, undefined];
    if (!kitchen || kitchen.missing || !menu || menu.missing) {
      // Rendered per request, but small, and for ids nobody links to; the page says what happened.
      const page = cache.get(`${locale}:missing:${url}`, kitchen && menu ? [kitchen, menu] : [], now, () => ({
        status: 404,
        validUntil: now + MAX_PAGE_AGE_MS,
        html: build(locale, url, notFoundHead(tr, publicUrl, url), [[['kitchen', id], 'null']], now),
      }));
      return send(request, reply, page);
    }
    const hidden = kitchenHidden(kitchen);
    if (hidden) {
      // The page says the kitchen is unavailable (suspended, or not listed under its place's rules; its stream says
      // when that ends): none of its menu is in it. Its cook and operators see the rest once their session is
      // read in the browser.
      const page = cache.get(`${locale}:${hidden}:${url}`, [kitchen], now, () => ({
        status: 200,
        validUntil: now + MAX_PAGE_AGE_MS,
        html: build(
          locale,
          url,
          unavailableHead(tr, publicUrl, url),
          [[['kitchen', id], kitchen.json, etagOf(kitchen)]],
          now,
        ),
      }));
      return send(request, reply, page);
    }
    const page = cache.get(`${locale}:${url}`, [kitchen, menu], now, () => {
      const data = JSON.parse(kitchen.json) as Kitchen;
      const items = JSON.parse(menu.json) as MenuItem[];
      return {
        status: 200,
        validUntil: validUntil(now, [data]),
        html: build(
          locale,
          url,
          kitchenHead(tr, publicUrl, data, items),
          [
            [['kitchen', id], kitchen.json, etagOf(kitchen)],
            [['menu', id], menu.json, etagOf(menu)],
          ],
          now,
          // The rest of what the page shows (its reviews, how it takes orders and is paid), as of this render: the
          // page is rendered again within a minute, and the browser's components ask again as they would have.
          async () =>
            (await Promise.all(kitchenQueries.map((query) => query(id)))).filter(
              (entry) => entry !== undefined,
            ),
        ),
      };
    });
    return send(request, reply, page);
  };

  return { [paths.home.pattern]: orShell(landing), [paths.kitchenMenu.pattern]: orShell(kitchenMenu) };
}

/** Whether an `If-None-Match` names `etag` (a weak comparison, as for GET: `W/` is ignored) or is `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === etag;
  });
}

/** `/sitemap.xml` (the landing page and every kitchen's page, from the live kitchens list) and `/robots.txt`. */
export async function searchEngineRoutes(app: FastifyInstance): Promise<void> {
  const { publicUrl } = app.config;
  let sitemap: { from: unknown; xml: string } | undefined;
  app.get(
    '/sitemap.xml',
    {
      config: {
        doc: {
          summary: "For search engines: the landing page and every kitchen's page",
          tags: ['web app'],
          responses: { 200: { description: 'A sitemap (sitemaps.org)', type: 'application/xml' } },
        },
      },
    },
    async (_request, reply) => {
      const snapshot = await readTopic(app, kitchensTopic, undefined);
      if (sitemap?.from !== snapshot) {
        const kitchens = JSON.parse(snapshot.json) as Kitchen[];
        const urls = [
          `${publicUrl}${paths.home.href()}`,
          ...kitchens.map((k) => `${publicUrl}${paths.kitchenMenu.href(k.uid)}`),
        ];
        const xml =
          '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
          urls.map((loc) => `  <url><loc>${escapeXml(loc)}</loc></url>\n`).join('') +
          '</urlset>\n';
        sitemap = { from: snapshot, xml };
      }
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(sitemap.xml);
    },
  );
  const robots = `User-agent: *\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
  app.get(
    '/robots.txt',
    {
      config: {
        doc: {
          summary: 'For search engines: everything may be crawled; where the sitemap is',
          tags: ['web app'],
          responses: { 200: { description: 'robots.txt', type: 'text/plain' } },
        },
      },
    },
    (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

declare module 'fastify' {
  interface FastifyInstance {
    /** The server-rendered pages (when the web app and its server bundle are built). */
    pageCache?: PageCache;
  }
}
