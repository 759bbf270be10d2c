import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachEngine, signedIn, type TestContext } from '../../src/server/test/test-app.js';

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
}
type Paths = Record<string, Record<string, { parameters?: Parameter[] }>>;

/** Every GET route of the document with its query and path parameters (`{uid}` style paths). */
async function operations(inject: (url: string) => Promise<{ json: () => unknown }>) {
  const { paths } = (await inject('/api/openapi.json')).json() as { paths: Paths };
  return Object.entries(paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => method === 'get')
      .map(([, op]) => ({
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      })),
  );
}

/** Odd texts for a query value: binary and control characters, lone surrogates, huge, percent-encoded garbage. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.string({ minLength: 3000, maxLength: 9000 }),
  fc.constantFrom('\u0000', 'a\u0000', '\uD800', '\uDC00x', '\u202Eevil', '%', '%ff', '%E0%A4%A', '[]', '{}'),
);
/** A value encoded as a browser would, or left raw (invalid percent-encoding reaches the parser as it is). */
const encoded = (text: string, raw: boolean) =>
  raw ? text.toWellFormed().replace(/[#&\s]/g, '') : encodeURIComponent(text.toWellFormed());

function hostileQuerySuite(get: () => TestContext) {
  const inject = (url: string, cookie = '') =>
    get().app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  /** Cookies of every role at once: each route reads the one it needs. */
  const everyone = async () => {
    const ctx = get();
    const parts = await Promise.all(
      (['customer', 'kitchen', 'operator'] as const).map(async (role) => (await signedIn(ctx, role)).cookie),
    );
    return parts.join('; ');
  };

  it('a NUL or control character in any query parameter is a 400 naming it', async () => {
    const cookie = await everyone();
    const ops = await operations(inject);
    const withQuery = ops.filter((op) => op.query.length > 0);
    // The search, the chat's history, the geocoder, the older reviews, the sign-in's start and callback.
    expect(withQuery.length).toBeGreaterThanOrEqual(5);
    for (const op of withQuery) {
      const path = op.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const name of op.query) {
        for (const bad of ['a%00', '%00', 'x%0Ay', '%1F', '%7F', '%ED%A0%80']) {
          const res = await inject(`${path}?${name}=${bad}`, cookie);
          expect(res.statusCode, `${path}?${name}=${bad}: ${res.body}`).toBe(400);
          expect(res.json(), `${path}?${name}=${bad}`).toMatchObject({ code: 'VALIDATION', field: name });
        }
      }
    }
    // A parameter no route declares is checked too, and so is the landing page's search in its URL.
    for (const url of ['/api/kitchens?extra=%00', '/?q=%00', '/api/kitchens/search?cuisine=a%00']) {
      const res = await inject(url);
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('a path that is not valid percent-encoding is a 400 in our error format', async () => {
    const res = await inject('/api/kitchens/%ff');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'url' });
  });

  it('any text in any query or path parameter: never a 5xx', async () => {
    const cookie = await everyone();
    const ops = await operations(inject);
    expect(ops.length).toBeGreaterThan(20);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ops),
        hostileText,
        hostileText,
        fc.boolean(),
        async (op, value, segment, raw) => {
          const path = op.path.replace(/\{\w+\}/g, () => encodeURIComponent(segment.toWellFormed()) || 'x');
          // The route's own parameters, and one it does not know.
          const query = [...op.query, 'unknown'].map((name) => `${name}=${encoded(value, raw)}`).join('&');
          const res = await inject(`${path}?${query}`, cookie);
          expect(res.statusCode, `${path}?${query.slice(0, 200)}: ${res.body.slice(0, 300)}`).toBeLessThan(
            500,
          );
        },
      ),
      { numRuns: get().engine === 'pglite' ? 600 : 200 },
    );
  }, 180_000);
}

// With card payments on (the local provider), so that its routes are in the document too: payouts, /dev-pay.
describeEachEngine('hostile query and path parameters on every route', hostileQuerySuite, {
  PAYMENTS: 'local',
});
