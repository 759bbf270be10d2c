import fc from 'fast-check';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import {
  buildUser,
  describeEachEngine,
  sessionCookie,
  type TestContext,
} from '../../src/server/test/test-app.js';

/** Values that break careless code: wrong types, huge and odd strings, SQL and script fragments. */
const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ minLength: 3000, maxLength: 12000 }),
  fc.constantFrom(
    "'; drop table orders; --",
    "' or '1'='1",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    '//evil.example/x.png',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\u202Eevil',
    '../../etc/passwd',
    '$1.00',
    '-1',
    '1e309',
    '12.345',
    'NaN',
    '   ',
    '00000000-0000-0000-0000-000000000000',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 5 }),
  fc.array(fc.uuid(), { maxLength: 60 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

/**
 * A body: anything at all; an object with the route's fields (and extra ones) set to hostile values; or a valid
 * body with one or more fields swapped for hostile values (what reaches the database if validation is lax).
 */
const bodyFor = (fields: string[], valid: Record<string, unknown>) =>
  fc.oneof(
    fc
      .tuple(
        fc.subarray(fields, { minLength: 1 }),
        fc.array(hostileValue, { minLength: fields.length, maxLength: fields.length }),
      )
      .map(([chosen, values]) => ({ ...valid, ...Object.fromEntries(chosen.map((f, i) => [f, values[i]])) })),
    fc.anything(),
    fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] }),
    fc
      .tuple(
        fc.record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] }),
        fc.dictionary(fc.string(), hostileValue, { maxKeys: 4 }),
      )
      .map(([a, b]) => ({ ...b, ...a })),
  );

const TABLES = ['users', 'kitchens', 'menu_items', 'orders', 'order_items', 'order_events', 'chat_messages'];

/** A fingerprint of every table a write could touch: a refused call must leave it as it was. */
async function fingerprint(ctx: TestContext): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const result = await ctx.database.db.execute(
      sql.raw(
        `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${table} t`,
      ),
    );
    const row = (result as unknown as { rows: { n: number; h: string }[] }).rows[0];
    parts.push(`${table}:${row?.n}:${row?.h}`);
  }
  return parts.join(',');
}

describeEachEngine('hostile input on every route that writes', (get) => {
  let cookies: { owner: string; newOwner: string; customer: string };
  let ids: { kitchenUid: string; itemId: string; orderId: string };
  const runs = () => (get().engine === 'pglite' ? 500 : 150);

  beforeAll(async () => {
    const ctx = get();
    const owner = await buildUser(ctx);
    const newOwner = await buildUser(ctx);
    const customer = await buildUser(ctx);
    cookies = {
      owner: await sessionCookie(ctx, owner, 'kitchen'),
      newOwner: await sessionCookie(ctx, newOwner, 'kitchen'),
      customer: await sessionCookie(ctx, customer, 'customer'),
    };
    const json = { 'content-type': 'application/json' };
    const kitchen = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen',
      headers: { ...json, cookie: cookies.owner },
      payload: {
        name: 'Hostile',
        category: 'Indian',
        address: '1 Road',
        imageLink: 'https://img.example/k.png',
        hours: ALL_DAY_HOURS,
      },
    });
    expect(kitchen.statusCode).toBe(201);
    const item = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/menu',
      headers: { ...json, cookie: cookies.owner },
      payload: { item: 'Dal', imageLink: 'https://img.example/d.png', price: '9.50', wait: '20 min' },
    });
    expect(item.statusCode).toBe(201);
    const kitchenUid = kitchen.json<{ uid: string }>().uid;
    const itemId = item.json<{ id: string }>().id;
    const order = await ctx.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { ...json, cookie: cookies.customer },
      payload: { kitchenUid, itemIds: [itemId], address: '2 Street', idempotencyKey: 'hostile-setup-1' },
    });
    expect(order.statusCode).toBe(201);
    ids = { kitchenUid, itemId, orderId: order.json<{ id: string }>().id };
  });

  const kitchenBody = {
    name: 'Hostile',
    category: 'Indian',
    address: '1 Road',
    imageLink: 'https://img.example/k.png',
    hours: ALL_DAY_HOURS,
  };
  const itemBody = { item: 'Dal', imageLink: 'https://img.example/d.png', price: '9.50', wait: '20 min' };
  let orderKey = 0;
  const kitchenFields = ['name', 'category', 'address', 'imageLink', 'timeZone', 'hours'];
  const itemFields = ['item', 'imageLink', 'price', 'wait', 'soldOut', 'portionsPerDay'];
  const routes: {
    name: string;
    method: 'POST' | 'PATCH' | 'DELETE';
    url: () => string;
    cookie: () => string;
    fields: string[];
    valid: () => Record<string, unknown>;
  }[] = [
    {
      name: 'POST /api/kitchen',
      method: 'POST',
      url: () => '/api/kitchen',
      cookie: () => cookies.newOwner,
      fields: kitchenFields,
      valid: () => kitchenBody,
    },
    {
      name: 'PATCH /api/kitchen',
      method: 'PATCH',
      url: () => '/api/kitchen',
      cookie: () => cookies.owner,
      fields: kitchenFields,
      valid: () => kitchenBody,
    },
    {
      name: 'POST /api/kitchen/pause',
      method: 'POST',
      url: () => '/api/kitchen/pause',
      cookie: () => cookies.owner,
      fields: ['paused', 'until'],
      valid: () => ({ paused: false }),
    },
    {
      name: 'POST /api/kitchen/menu',
      method: 'POST',
      url: () => '/api/kitchen/menu',
      cookie: () => cookies.owner,
      fields: itemFields,
      valid: () => itemBody,
    },
    {
      name: 'PATCH /api/kitchen/menu/:id',
      method: 'PATCH',
      url: () => `/api/kitchen/menu/${ids.itemId}`,
      cookie: () => cookies.owner,
      fields: itemFields,
      valid: () => itemBody,
    },
    {
      name: 'PATCH /api/kitchen/orders/:id',
      method: 'PATCH',
      url: () => `/api/kitchen/orders/${ids.orderId}`,
      cookie: () => cookies.owner,
      fields: ['status'],
      valid: () => ({ status: 'Preparing' }),
    },
    {
      name: 'POST /api/orders',
      method: 'POST',
      url: () => '/api/orders',
      cookie: () => cookies.customer,
      fields: ['kitchenUid', 'itemIds', 'address', 'idempotencyKey'],
      valid: () => ({
        kitchenUid: ids.kitchenUid,
        itemIds: [ids.itemId],
        address: '3 Lane',
        idempotencyKey: `hostile-${++orderKey}-key`,
      }),
    },
    {
      name: 'POST /api/kitchen/orders/:id/moves',
      method: 'POST',
      url: () => `/api/kitchen/orders/${ids.orderId}/moves`,
      cookie: () => cookies.owner,
      fields: ['move', 'readyInMinutes', 'reason'],
      valid: () => ({ move: 'accept', readyInMinutes: 30 }),
    },
    {
      name: 'POST /api/orders/:id/cancel',
      method: 'POST',
      url: () => `/api/orders/${ids.orderId}/cancel`,
      cookie: () => cookies.customer,
      fields: ['reason'],
      valid: () => ({ reason: 'Changed my mind' }),
    },
    {
      name: 'POST /api/chat',
      method: 'POST',
      url: () => '/api/chat',
      cookie: () => cookies.customer,
      fields: ['text', 'uid'],
      valid: () => ({ text: 'hello' }),
    },
  ];

  for (const route of routes) {
    it(`${route.name}: never a 5xx, never a partial write`, async () => {
      const ctx = get();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            bodyFor(route.fields, route.valid()),
            fc.string().map((raw) => ({ __raw: raw })),
          ),
          async (body) => {
            const before = await fingerprint(ctx);
            const raw = typeof body === 'object' && body !== null && '__raw' in body;
            const res = await ctx.app.inject({
              method: route.method,
              url: route.url(),
              headers: { 'content-type': 'application/json', cookie: route.cookie() },
              payload: raw ? String((body as { __raw: string }).__raw) : (JSON.stringify(body) ?? 'null'),
            });
            expect(res.statusCode, res.body).toBeLessThan(500);
            if (res.statusCode >= 400) expect(await fingerprint(ctx)).toBe(before);
          },
        ),
        { numRuns: runs() },
      );
      // Bounded by the number of cases, not by time: a busy machine only makes it slower.
    }, 180_000);
  }

  it('path parameters and query strings: never a 5xx', async () => {
    const ctx = get();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        const segment = encodeURIComponent(text);
        for (const [method, url, cookie] of [
          ['DELETE', `/api/kitchen/menu/${segment}`, cookies.owner],
          ['DELETE', `/api/kitchen/orders/${segment}`, cookies.owner],
          ['GET', `/api/kitchens/${segment}`, ''],
          ['GET', `/api/kitchens/${segment}/menu`, ''],
          ['GET', `/api/chat/history?before=${segment}`, cookies.customer],
          ['GET', `/api/geocode?q=${segment}`, cookies.customer],
          ['GET', `/auth/customer/start?returnTo=${segment}`, ''],
        ] as const) {
          const res = await ctx.app.inject({ method, url, headers: cookie ? { cookie } : {} });
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
        }
      }),
      { numRuns: get().engine === 'pglite' ? 500 : 100 },
    );
  }, 180_000);
});
