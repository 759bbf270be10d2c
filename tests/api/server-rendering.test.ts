import { hydrate, QueryClient } from '@tanstack/react-query';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { PAGE_DATA_ID, type PageData } from '../../src/shared/page-data.js';
import { eq } from 'drizzle-orm';
import { kitchens, orders } from '../../src/server/db/schema.js';
import { buildKitchen, buildMenuItem, buildOrder } from '../../src/server/test/builders.js';
import { describeEachEngine, signedIn } from '../../src/server/test/test-app.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import type { LiveTopicDelta } from '../../src/shared/live.js';
import { projectRoot } from '../../src/server/lib/project-root.js';
import * as pageRenderer from '../../src/web/ssr-entry.js';

// The web app's shell (the source index.html: the built one only adds asset tags) and the renderer from the
// sources, so this runs without a build; tests/e2e/ssr.spec.ts runs the built bundle in Chromium.
const webDir = mkdtempSync(join(tmpdir(), 'mkt-ssr-web-'));
copyFileSync(join(projectRoot(), 'index.html'), join(webDir, 'index.html'));

const HOSTILE = '</script><script>alert(1)</script>';

/** Every `<script …>` tag of a page, and what it holds. */
function scripts(html: string) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map(([, attrs = '', body = '']) => ({
    attrs,
    body,
  }));
}

function pageData(html: string): PageData & { queries: [readonly unknown[], unknown][] } {
  const data = scripts(html).find((s) => s.attrs.includes(`id="${PAGE_DATA_ID}"`));
  if (!data) throw new Error('no page data');
  const parsed = JSON.parse(data.body) as PageData;
  // What TanStack Query's own `hydrate` makes of it: the queries the browser starts from.
  const client = new QueryClient();
  hydrate(client, parsed.cache);
  const queries = client
    .getQueryCache()
    .getAll()
    .map((query): [readonly unknown[], unknown] => [query.queryKey, query.state.data]);
  expect(
    client
      .getQueryCache()
      .getAll()
      .every((q) => q.state.status === 'success'),
  ).toBe(true);
  return { ...parsed, queries };
}

function jsonLd(html: string): Record<string, unknown> {
  const ld = scripts(html).find((s) => s.attrs.includes('application/ld+json'));
  if (!ld) throw new Error('no JSON-LD');
  return JSON.parse(ld.body) as Record<string, unknown>;
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

describeEachEngine(
  'server-rendered pages',
  (get) => {
    const page = (url: string) => get().app.inject({ url, headers: { accept: 'text/html' } });

    it('renders / with every kitchen, its link-preview tags and the data to hydrate from', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Landing Lentils', category: 'Bengali' });
      const res = await page('/');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const html = res.body;
      expect(html).toContain('<div id="root"><');
      expect(html).toContain('Landing Lentils');
      expect(html).toContain('Bengali');
      expect(html).toContain(`href="/KitchenMenu/${kitchen.uid}"`);
      expect(html).toContain('Open now');
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(meta(html, 'og:title')).toContain('HomeCooked');
      expect(meta(html, 'og:image')).toBe('http://localhost:3000/icons/icon-512.png');
      expect(meta(html, 'description')).toContain('Landing Lentils');
      expect(html).toContain('<link rel="canonical" href="http://localhost:3000/" />');
      expect(JSON.stringify(jsonLd(html))).toContain(`http://localhost:3000/KitchenMenu/${kitchen.uid}`);
      // The browser starts from exactly what the API answers: the first page of kitchens only.
      const api = await get().app.inject('/api/kitchens/first-page');
      expect(pageData(html).queries).toEqual([
        [['kitchens', 'first-page'], api.json()],
        [['geocode', 'settings'], (await get().app.inject('/api/geocode/settings')).json()],
      ]);
      // What 'Open now' was computed from and until when it holds: the browser reads it rather than computing it
      // again as it hydrates.
      const { now, clocks = [] } = pageData(html);
      expect(clocks).toContainEqual(
        expect.objectContaining({
          from: now,
          state: expect.objectContaining({ open: true, label: 'Open now' }),
        }),
      );
      for (const window of clocks) expect(window.until).toBeGreaterThan(now);
    });

    it("renders a kitchen's page: name, cuisine, picture, hours, dishes and prices, as a Restaurant with its Menu", async () => {
      const { kitchen } = await buildKitchen(get(), {
        name: 'Rendered Rasoi',
        category: 'Gujarati',
        imageLink: 'https://img.example/rasoi.jpg',
      });
      await buildMenuItem(get(), kitchen, { item: 'Dhokla', price: '6.25' });
      await buildMenuItem(get(), kitchen, { item: 'Undhiyu', price: '11.00', soldOut: true });
      const res = await page(`/KitchenMenu/${kitchen.uid}`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      for (const text of ['Rendered Rasoi', 'Gujarati', 'Dhokla', '$6.25', 'Undhiyu', '$11.00', 'Sold out'])
        expect(html, text).toContain(text);
      expect(html).toContain('Open now');
      expect(html).toContain('src="https://img.example/rasoi.jpg"');
      expect(html).toMatch(/<title>Rendered Rasoi — Gujarati \| HomeCooked<\/title>/);
      expect(meta(html, 'og:title')).toBe('Rendered Rasoi — Gujarati | HomeCooked');
      expect(meta(html, 'og:image')).toBe('https://img.example/rasoi.jpg');
      expect(meta(html, 'twitter:card')).toBe('summary_large_image');
      expect(meta(html, 'description')).toContain('Dhokla');
      expect(html).toContain(
        `<link rel="canonical" href="http://localhost:3000/KitchenMenu/${kitchen.uid}" />`,
      );
      const ld = jsonLd(html) as {
        '@type': string;
        name: string;
        servesCuisine: string;
        hasMenu: {
          '@type': string;
          hasMenuSection: { '@type': string; hasMenuItem: { name: string; offers: unknown }[] }[];
        };
      };
      expect(ld['@type']).toBe('Restaurant');
      expect(ld.name).toBe('Rendered Rasoi');
      expect(ld.servesCuisine).toBe('Gujarati');
      expect(ld.hasMenu['@type']).toBe('Menu');
      const items = ld.hasMenu.hasMenuSection[0]?.hasMenuItem ?? [];
      expect(items.map((i) => i.name).sort()).toEqual(['Dhokla', 'Undhiyu']);
      expect(items.find((i) => i.name === 'Dhokla')?.offers).toEqual({
        '@type': 'Offer',
        price: '6.25',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
      });
      expect(items.find((i) => i.name === 'Undhiyu')?.offers).toMatchObject({
        availability: 'https://schema.org/SoldOut',
      });
      const data = pageData(html);
      expect(data.queries.map(([key]) => key)).toEqual([
        ['kitchen', kitchen.uid],
        ['menu', kitchen.uid],
        ['reviews', kitchen.uid],
        ['kitchens', kitchen.uid, 'slots'],
        ['kitchens', kitchen.uid, 'payments'],
      ]);
      expect(Math.abs(data.now - Date.now())).toBeLessThan(60_000);
      // Its reviews, how it takes orders and how it is paid are what their routes answer, and on the page: none
      // appears later, pushing the menu down.
      for (const [key, url] of [
        [['reviews', kitchen.uid], `/api/kitchens/${kitchen.uid}/reviews`],
        [['kitchens', kitchen.uid, 'slots'], `/api/kitchens/${kitchen.uid}/slots`],
        [['kitchens', kitchen.uid, 'payments'], `/api/kitchens/${kitchen.uid}/payments`],
      ] as const) {
        const answer = await get().app.inject({ url });
        expect(data.queries.find(([k]) => JSON.stringify(k) === JSON.stringify(key))?.[1], url).toEqual(
          answer.json(),
        );
      }
      expect(html).toMatch(/data-testid="kitchen-ordering"[^>]*>Delivery/);
      expect(html).toContain('No reviews yet');
    });

    it("carries the version of each live list it was rendered from: the tab's stream is sent none of them again", async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      await buildMenuItem(ctx, kitchen, { item: 'Versioned dal' });
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const topics: [string, string, readonly string[]][] = [
        ['/', '/api/kitchens/first-page', ['kitchens', 'first-page']],
        [`/KitchenMenu/${kitchen.uid}`, `/api/kitchens/${kitchen.uid}`, ['kitchen', kitchen.uid]],
        [`/KitchenMenu/${kitchen.uid}`, `/api/kitchens/${kitchen.uid}/menu`, ['menu', kitchen.uid]],
        [`/KitchenMenu/${kitchen.uid}`, `/api/kitchens/${kitchen.uid}/reviews`, ['reviews', kitchen.uid]],
      ];
      const held: string[] = [];
      for (const [path, topic, key] of topics) {
        const { versions = {} } = pageData((await page(path)).body);
        const version = versions[JSON.stringify(key)];
        expect(version, topic).toMatch(/^[\w-]{16}$/);
        held.push(`t=${encodeURIComponent(`${topic}#${version}`)}`);
      }
      // Only live lists have a version: how the kitchen takes orders and is paid are asked for again.
      const { versions = {} } = pageData((await page(`/KitchenMenu/${kitchen.uid}`)).body);
      expect(Object.keys(versions)).toHaveLength(3);
      const stream = await openEventStream(`${base}/api/live?${held.join('&')}`);
      try {
        await stream.waitFor((data) => typeof data === 'object' && data !== null && 'topics' in data);
        expect(stream.events.filter((e) => e.event === 'snapshot')).toEqual([]);
        // The next change is sent from the page's version.
        await buildMenuItem(ctx, kitchen, { item: 'Dal after the page' });
        const delta = (await stream.waitFor(
          (data) => typeof data === 'object' && data !== null && 'ops' in data,
        )) as LiveTopicDelta;
        expect(delta.from).toBe(versions[JSON.stringify(['menu', kitchen.uid])]);
      } finally {
        stream.close();
      }
    });

    it("shows a reviewed kitchen's rating on its card and page, and gives it as the Restaurant's aggregateRating", async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx, { name: 'Rated Rasoi' });
      for (const stars of [4, 5]) {
        const customer = await signedIn(ctx, 'customer');
        const order = await buildOrder(ctx, kitchen, customer.user);
        await ctx.database.db.update(orders).set({ state: 'delivered' }).where(eq(orders.id, order.id));
        const review = await ctx.app.inject({
          method: 'POST',
          url: `/api/orders/${order.id}/review`,
          headers: {
            cookie: customer.cookie,
            'content-type': 'application/json',
            origin: 'http://localhost:3000',
          },
          payload: { stars },
        });
        expect(review.statusCode, review.body).toBe(201);
      }
      const url = `/KitchenMenu/${kitchen.uid}`;
      // Each review reaches the hub through the change bus (asynchronously on PostgreSQL).
      await vi.waitFor(async () => expect((await page(url)).body).toContain('★ 4.5 (2)'), { timeout: 5000 });
      await vi.waitFor(async () => expect((await page('/')).body).toContain('★ 4.5 (2)'), { timeout: 5000 });
      expect(jsonLd((await page(url)).body)).toMatchObject({
        aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2, bestRating: 5 },
      });
    });

    it('answers 404 with the not-found page for an unknown kitchen', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-kitchen']) {
        const res = await page(`/KitchenMenu/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.body, id).toContain('Kitchen not found');
        expect(res.body, id).toContain('We could not find this kitchen.');
        expect(meta(res.body, 'robots'), id).toBe('noindex');
        expect(pageData(res.body).queries, id).toEqual([[['kitchen', id], null]]);
      }
    });

    it("renders a suspended kitchen's page as unavailable: none of its menu, not to be indexed", async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Suspended Samosas', category: 'Punjabi' });
      await buildMenuItem(get(), kitchen, { item: 'Forbidden Pakora', price: '4.00' });
      await get()
        .database.db.update(kitchens)
        .set({ suspendedAt: new Date() })
        .where(eq(kitchens.ownerId, kitchen.uid));
      const res = await page(`/KitchenMenu/${kitchen.uid}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Kitchen unavailable');
      expect(res.body).toContain('This kitchen is unavailable right now.');
      expect(res.body).not.toContain('Forbidden Pakora');
      expect(res.body).not.toContain('application/ld+json');
      expect(meta(res.body, 'robots')).toBe('noindex');
      expect(pageData(res.body).queries.map(([key]) => key)).toEqual([['kitchen', kitchen.uid]]);
    });

    it("renders an unlisted kitchen's page as unavailable: none of its menu, picture or story, not to be indexed", async () => {
      // Awaiting an operator's approval, refused, or where home kitchens may not sell (set before its first read).
      for (const listing of ['awaiting-approval', 'refused', 'not-allowed'] as const) {
        const { kitchen } = await buildKitchen(get(), {
          name: 'Awaiting Arepas',
          about: 'Secret family recipes',
        });
        await buildMenuItem(get(), kitchen, { item: 'Unapproved Arepa', price: '4.00' });
        await get().database.db.update(kitchens).set({ listing }).where(eq(kitchens.ownerId, kitchen.uid));
        const res = await page(`/KitchenMenu/${kitchen.uid}`);
        expect(res.statusCode, listing).toBe(200);
        expect(res.body).toContain('Kitchen unavailable');
        expect(res.body).toContain('This kitchen is unavailable right now.');
        expect(res.body).not.toContain('Unapproved Arepa');
        expect(res.body).not.toContain('Secret family recipes');
        expect(meta(res.body, 'robots')).toBe('noindex');
        expect(pageData(res.body).queries.map(([key]) => key)).toEqual([['kitchen', kitchen.uid]]);
      }
    });

    it('lists / and every kitchen in /sitemap.xml, and points at it from /robots.txt', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Sitemap Sambar' });
      const sitemap = await get().app.inject('/sitemap.xml');
      expect(sitemap.statusCode).toBe(200);
      expect(sitemap.headers['content-type']).toContain('application/xml');
      expect(sitemap.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      expect(sitemap.body).toContain('<loc>http://localhost:3000/</loc>');
      expect(sitemap.body).toContain(`<loc>http://localhost:3000/KitchenMenu/${kitchen.uid}</loc>`);
      const robots = await get().app.inject('/robots.txt');
      expect(robots.statusCode).toBe(200);
      expect(robots.body).toContain('User-agent: *\nAllow: /');
      expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
    });

    it('runs no inline script: the CSP allows none, and every script element is a file or data', async () => {
      const { kitchen } = await buildKitchen(get());
      for (const url of ['/', `/KitchenMenu/${kitchen.uid}`]) {
        const res = await page(url);
        const scriptSrc = String(res.headers['content-security-policy'])
          .split(';')
          .map((d) => d.trim())
          .find((d) => d.startsWith('script-src'));
        expect(scriptSrc, url).toBe("script-src 'self'");
        for (const script of scripts(res.body)) {
          const isFile = /\bsrc="/.test(script.attrs) && script.body === '';
          const isData = /type="application\/(ld\+)?json"/.test(script.attrs);
          expect(isFile || isData, `${url}: <script${script.attrs}>`).toBe(true);
        }
      }
    });

    it('keeps a hostile kitchen name as text: it cannot end the data scripts', async () => {
      const { kitchen } = await buildKitchen(get(), { name: HOSTILE, category: HOSTILE.slice(0, 40) });
      await buildMenuItem(get(), kitchen, { item: HOSTILE });
      for (const url of ['/', `/KitchenMenu/${kitchen.uid}`]) {
        const html = (await page(url)).body;
        expect(html, url).not.toContain('<script>alert(1)');
        // Only the app's own script tags open (one module script, the page data, its language's and the JSON-LD).
        expect(html.match(/<script\b/g), url).toHaveLength(4);
        expect(JSON.stringify(pageData(html)), url).toContain(HOSTILE);
        expect(JSON.stringify(jsonLd(html)), url).toContain(HOSTILE);
        expect(html, url).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      }
    });

    it('renders a page once per change of what it shows, not once per request', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Cached Curry' });
      const url = `/KitchenMenu/${kitchen.uid}`;
      const cache = get().app.pageCache;
      if (!cache) throw new Error('pages are not rendered');
      // The registration's own change notice may still be on its way (PostgreSQL delivers it asynchronously):
      // ask until a request renders nothing new, then count.
      let before = -1;
      while (before !== cache.renders) {
        before = cache.renders;
        await page(url);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      const renders = cache.renders;
      const answers = await Promise.all(Array.from({ length: 20 }, () => page(url)));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(cache.renders).toBe(renders);
      await buildMenuItem(get(), kitchen, { item: 'Fresh Phulka', price: '1.50' });
      // The change reaches the hub through the change bus (asynchronously on PostgreSQL).
      await vi.waitFor(async () => expect((await page(url)).body).toContain('Fresh Phulka'), {
        timeout: 5000,
      });
      expect(cache.renders).toBe(renders + 1);
      await Promise.all(Array.from({ length: 5 }, () => page(url)));
      expect(cache.renders).toBe(renders + 1);
    });

    it('sends the page in the coding the client prefers (br, gzip or none), each the same HTML', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Encoded Eats' });
      const decode: Record<string, (body: Buffer) => Buffer> = {
        br: brotliDecompressSync,
        gzip: gunzipSync,
        identity: (body) => body,
      };
      for (const url of ['/', `/KitchenMenu/${kitchen.uid}`]) {
        const ask = (acceptEncoding: string | undefined) =>
          get().app.inject({
            url,
            headers: {
              accept: 'text/html',
              ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
            },
          });
        // A change notice still on its way may render the page again between two requests: asked until all the
        // answers are of one render (one ETag's hash).
        await vi.waitFor(
          async () => {
            const plain = await ask('identity');
            expect(plain.headers['content-encoding'], url).toBeUndefined();
            const html = plain.rawPayload;
            expect(html.toString(), url).toContain('Encoded Eats');
            const hash = String(plain.headers.etag).slice(1, -1);
            for (const [acceptEncoding, coding] of [
              ['gzip, deflate, br, zstd', 'br'],
              ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
              ['gzip', 'gzip'],
              ['br;q=0, gzip', 'gzip'],
              ['br;q=0.5, gzip;q=0.9', 'gzip'],
              ['*', 'br'],
              ['identity', 'identity'],
              ['gzip;q=0', 'identity'],
              ['*;q=0', 'identity'],
              ['', 'identity'],
              [undefined, 'identity'],
            ] as const) {
              const res = await ask(acceptEncoding);
              const label = `${url} with ${acceptEncoding}`;
              expect(res.statusCode, label).toBe(200);
              expect(res.headers['content-encoding'], label).toBe(coding === 'identity' ? undefined : coding);
              expect(res.headers.vary, label).toContain('accept-encoding');
              expect(res.headers['content-type'], label).toBe('text/html; charset=utf-8');
              expect(res.headers.etag, label).toBe(
                coding === 'identity' ? `"${hash}"` : `"${hash}-${coding}"`,
              );
              expect(Number(res.headers['content-length']), label).toBe(res.rawPayload.length);
              expect(decode[coding]!(res.rawPayload).equals(html), label).toBe(true);
              // The security headers are those of every answer.
              expect(res.headers['content-security-policy'], label).toBe(
                plain.headers['content-security-policy'],
              );
              expect(res.headers['x-frame-options'], label).toBe('DENY');
            }
          },
          { timeout: 5000 },
        );
      }
    });

    it('answers 304 to a client that has the page in the coding it asks for, and the page once it changed', async () => {
      const { kitchen } = await buildKitchen(get(), { name: 'Validated Vindaloo' });
      const url = `/KitchenMenu/${kitchen.uid}`;
      const ask = (headers: Record<string, string>) =>
        get().app.inject({
          url,
          headers: { accept: 'text/html', 'accept-encoding': 'gzip, br', ...headers },
        });
      await vi.waitFor(
        async () => {
          const first = await ask({});
          const etag = String(first.headers.etag);
          expect(etag).toMatch(/^"[\w-]+-br"$/);
          const again = await ask({ 'if-none-match': etag });
          expect(again.statusCode).toBe(304);
          expect(again.rawPayload).toHaveLength(0);
          expect(again.headers.etag).toBe(etag);
          expect(again.headers.vary).toContain('accept-encoding');
          expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
          expect((await ask({ 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
          // Another coding is another representation: the gzip client with the br ETag gets the page.
          const gzip = await ask({ 'accept-encoding': 'gzip', 'if-none-match': etag });
          expect(gzip.statusCode).toBe(200);
          expect(gzip.headers['content-encoding']).toBe('gzip');
        },
        { timeout: 5000 },
      );
      const etag = String((await ask({})).headers.etag);
      await buildMenuItem(get(), kitchen, { item: 'Fresh Phulka', price: '1.50' });
      await vi.waitFor(
        async () => {
          const changed = await ask({ 'if-none-match': etag });
          expect(changed.statusCode).toBe(200);
          expect(brotliDecompressSync(changed.rawPayload).toString()).toContain('Fresh Phulka');
        },
        { timeout: 5000 },
      );
    });

    it('leaves a landing page with a search in its URL to the browser', async () => {
      const res = await page('/?q=biryani');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain(PAGE_DATA_ID);
      // Any other parameter (a share's tracking tag) still gets the rendered page.
      expect((await page('/?utm_source=chat')).body).toContain(PAGE_DATA_ID);
    });
  },
  {},
  { webDir, pageRenderer },
);

describeEachEngine(
  'a page the server fails to render',
  (get) => {
    it('is served as the shell, which the browser renders', async () => {
      const { kitchen } = await buildKitchen(get());
      for (const url of ['/', `/KitchenMenu/${kitchen.uid}`]) {
        const res = await get().app.inject({ url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('<div id="root"></div>');
        expect(res.body, url).not.toContain(PAGE_DATA_ID);
      }
    });
  },
  {},
  {
    webDir,
    pageRenderer: {
      render: () => Promise.reject(new Error('a rendering bug')),
    },
  },
);
