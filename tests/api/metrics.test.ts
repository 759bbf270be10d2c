import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { buildKitchen, buildMenuItem } from '../../src/server/test/builders.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import {
  closeTestContext,
  createTestContext,
  describeEachEngine,
  signedIn,
} from '../../src/server/test/test-app.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

/** The value of one sample line of the Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{${labels}` : `${name} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describeEachEngine(
  'metrics behind a token',
  (get) => {
    const metrics = async () => {
      const res = await get().app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.body;
    };

    it('refuses without the token, or with another one, naming what is missing', async () => {
      const { app } = get();
      for (const authorization of [undefined, 'Bearer wrong-token', TOKEN, `Basic ${TOKEN}`]) {
        const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.json()).toMatchObject({
          code: 'UNAUTHENTICATED',
          message: expect.stringContaining('METRICS_TOKEN'),
        });
        expect(res.body).not.toContain('http_requests_total');
      }
      // No session stands in for the token.
      for (const role of ['customer', 'kitchen'] as const) {
        const { cookie } = await signedIn(get(), role);
        expect((await app.inject({ url: '/metrics', headers: { cookie } })).statusCode).toBe(401);
      }
    });

    it('counts requests by route pattern and status, never by raw URL', async () => {
      const { app } = get();
      const id = randomUUID();
      const before = await metrics();
      const labels = 'method="GET",route="/api/kitchens/:uid",status="404"';
      for (let i = 0; i < 3; i++)
        expect((await app.inject({ url: `/api/kitchens/${id}` })).statusCode).toBe(404);
      const after = await metrics();
      expect(
        sample(after, 'http_requests_total', labels) - sample(before, 'http_requests_total', labels),
      ).toBe(3);
      expect(after).toMatch(new RegExp(`http_request_duration_seconds_bucket\\{le="[\\d.]+",${labels}`));
      expect(after).not.toContain(id);
    });

    it('counts orders placed and refused, open live streams by kind, statements and change-bus lag', async () => {
      const ctx = get();
      const { kitchen } = await buildKitchen(ctx);
      const item = await buildMenuItem(ctx, kitchen);
      const { cookie } = await signedIn(ctx, 'customer');
      const before = await metrics();
      const order = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: { origin: ctx.config.publicUrl, ...headers },
          payload: {
            kitchenUid: kitchen.uid,
            itemIds: [item.id],
            address: '1 Road',
            idempotencyKey: randomUUID(),
          },
        });
      expect((await order({ cookie })).statusCode).toBe(201);
      expect((await order({ cookie })).statusCode).toBe(409); // one open order per customer
      expect((await order({})).statusCode).toBe(401);

      const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const stream = await openEventStream(`${address}/api/kitchens/${kitchen.uid}/menu`);
      try {
        await stream.waitFor(() => true);
        const after = await metrics();
        const delta = (name: string, labels = '') =>
          sample(after, name, labels) - sample(before, name, labels);
        expect(delta('homecooked_orders_placed_total')).toBe(1);
        expect(delta('homecooked_orders_refused_total', 'status="409"')).toBe(1);
        expect(delta('homecooked_orders_refused_total', 'status="401"')).toBe(1);
        expect(sample(after, 'homecooked_live_streams', 'kind="menu"')).toBe(1);
        expect(delta('homecooked_db_query_duration_seconds_count')).toBeGreaterThan(3);
        expect(delta('homecooked_change_bus_lag_seconds_count')).toBeGreaterThan(0);
        if (ctx.engine === 'postgres')
          expect(sample(after, 'homecooked_db_pool_connections', 'state="max"')).toBe(20);
      } finally {
        stream.close();
      }
    });
  },
  { METRICS_TOKEN: TOKEN },
);

describeEachEngine('without METRICS_TOKEN or METRICS_PORT', (get) => {
  it('serves no metrics at all', async () => {
    const res = await get().app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
  });
});

it('serves metrics only on METRICS_PORT when it is set, and stops that listener with the app', async () => {
  const ctx = await createTestContext('pglite', { METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
  try {
    expect((await ctx.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    const { port } = ctx.app.metricsServer?.address() as { port: number };
    const url = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/api/session`)).status).toBe(404);
  } finally {
    await closeTestContext(ctx);
  }
  expect(ctx.app.metricsServer?.listening).toBe(false);
});
