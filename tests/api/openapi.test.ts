import { compileErrors, validate } from '@readme/openapi-parser';
import { expect, it } from 'vitest';
import { registeredRoutes } from '../../src/server/docs/openapi.js';
import { describeEachEngine, type TestContext } from '../../src/server/test/test-app.js';

interface Operation {
  summary?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Paths = Record<string, Record<string, Operation>>;

/** `/api/kitchens/:uid` as OpenAPI writes it: `/api/kitchens/{uid}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function openApiSuite(get: () => TestContext) {
  const fetchDocument = async () => {
    const res = await get().app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json<{ openapi: string; paths: Paths; components: Record<string, unknown> }>();
  };

  it('validates as OpenAPI 3.1', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    // The parser dereferences in place: give it a copy.
    const result = await validate(structuredClone(document) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every registered route, with a summary, its answers and its errors', async () => {
    const { paths } = await fetchDocument();
    const routes = registeredRoutes(get().app).filter((r) => !r.hidden);
    expect(routes.length).toBeGreaterThan(25);
    for (const { method, url } of routes) {
      const operation = paths[openApiPath(url)]?.[method.toLowerCase()];
      expect(operation, `${method} ${url} is missing from the document`).toBeDefined();
      expect(operation?.summary, `${method} ${url} has no summary (its route's config.doc)`).toBeTruthy();
      const statuses = Object.keys(operation?.responses ?? {});
      expect(
        statuses.some((s) => /^[23]/.test(s)),
        `${method} ${url} has no success answer (its route's config.doc)`,
      ).toBe(true);
      expect(statuses, `${method} ${url} does not describe a server error`).toContain('500');
    }
    // Nothing is described that does not exist.
    const documented = Object.entries(paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    const registered = routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
  });

  it('names the session cookie of each route that needs one, and each such route refuses without it', async () => {
    const { app, config } = get();
    const { paths, components } = await fetchDocument();
    expect(components.securitySchemes).toMatchObject({
      customerSession: { type: 'apiKey', in: 'cookie', name: config.sessionCookies.customer },
      kitchenSession: { type: 'apiKey', in: 'cookie', name: config.sessionCookies.kitchen },
    });
    const secured = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security?.some((s) => 'customerSession' in s || 'kitchenSession' in s))
        .map(([method, op]) => ({ method, path, op })),
    );
    expect(secured.length).toBeGreaterThan(10);
    const uuid = '00000000-0000-4000-8000-000000000000';
    for (const { method, path, op } of secured) {
      expect(Object.keys(op.responses)).toContain('401');
      const res = await app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{\w+\}/g, uuid) + (path === '/api/geocode' ? '?q=Main' : ''),
        headers: { origin: config.publicUrl },
        payload: method === 'get' || method === 'delete' ? undefined : {},
      });
      // A refusal for a missing session; bad input (400) is checked only after the session.
      expect([401, 400], `${method} ${path}`).toContain(res.statusCode);
    }
  });

  it('shows the error body and live streams as they are', async () => {
    const { paths } = await fetchDocument();
    const menu = paths['/api/kitchens/{uid}/menu']?.get;
    expect(Object.keys(menu?.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/event-stream',
    ]);
    expect(menu?.responses['404']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
    });
    expect(paths['/api/orders']?.post?.responses).toHaveProperty('422');
  });

  it('serves the reference page from our own files, under a CSP without inline scripts', async () => {
    const { app } = get();
    const page = await app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;.*script|script-src[^;]*unsafe/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect(source.startsWith('/api/docs/')).toBe(true);
      expect((await app.inject({ url: source })).statusCode).toBe(200);
    }
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
  });
}

// With card payments on (the local provider), so that every route is registered: payouts, the webhook, /dev-pay.
describeEachEngine('the OpenAPI document', openApiSuite, { PAYMENTS: 'local' });
