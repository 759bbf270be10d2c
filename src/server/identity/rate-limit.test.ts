import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { sessionCookie, describeEachEngine, signedIn } from '../test/test-app.js';
import { GEOCODE_LIMITS, limits } from './rate-limit.js';

describeEachEngine('rate limits', (get) => {
  it('answers 429 with Retry-After and a clear message once sign-in is started too often', async () => {
    const { app } = get();
    const start = () =>
      app.inject({ url: '/auth/customer/start?returnTo=%2F', remoteAddress: '203.0.113.9' });
    for (let i = 0; i < limits.signIn.max; i++) expect((await start()).statusCode).not.toBe(429);
    const refused = await start();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/Please wait \d+ seconds?/),
    });
    // The popup is a page the browser opened: it shows the same message as a page.
    const page = await app.inject({
      url: '/auth/customer/start?returnTo=%2F',
      remoteAddress: '203.0.113.9',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/Too many requests\. Please wait \d+ seconds?/);
    // Another address is not affected.
    const other = await app.inject({
      url: '/auth/customer/start?returnTo=%2F',
      remoteAddress: '203.0.113.10',
    });
    expect(other.statusCode).not.toBe(429);
  });

  it('answers 429 with Retry-After once address suggestions are asked too often', async () => {
    const { app } = get();
    const { cookie } = await signedIn(get(), 'customer');
    const ask = () =>
      app.inject({ url: '/api/geocode?q=Main%20Street', remoteAddress: '203.0.113.20', headers: { cookie } });
    for (let i = 0; i < GEOCODE_LIMITS.signedIn; i++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('gives anonymous visitors fewer address suggestions a minute than signed-in people', async () => {
    const { app } = get();
    const ask = () => app.inject({ url: '/api/geocode?q=Main%20Street', remoteAddress: '203.0.113.21' });
    for (let i = 0; i < GEOCODE_LIMITS.anonymous; i++) expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(429);
    // A forged session cookie is no session: still the anonymous count.
    const forged = await app.inject({
      url: '/api/geocode?q=Main%20Street',
      remoteAddress: '203.0.113.21',
      headers: { cookie: `customer_session=${'A'.repeat(43)}` },
    });
    expect(forged.statusCode).toBe(429);
  });

  it("counts a customer's orders by who they are, whichever of their sessions sends them", async () => {
    const ctx = get();
    const { user, cookie } = await signedIn(ctx, 'customer');
    const second = await sessionCookie(ctx, user, 'customer');
    const order = (c: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/orders',
        remoteAddress: '203.0.113.30',
        headers: { cookie: c, 'content-type': 'application/json' },
        payload: {}, // refused as bad input, but counted first
      });
    for (let i = 0; i < limits.orders.max; i++)
      expect((await order(i % 2 ? cookie : second)).statusCode).toBe(400);
    expect((await order(cookie)).statusCode).toBe(429);
    expect((await order(second)).statusCode).toBe(429);
    // Another customer behind the same address (a campus network) is not affected.
    expect((await order((await signedIn(ctx, 'customer')).cookie)).statusCode).toBe(400);
  });

  it('keeps no session token and no client-chosen text in its counters, and keys of a bounded size', async () => {
    const ctx = get();
    if (ctx.engine !== 'postgres') return; // PGlite counts in memory: nothing is written
    const { cookie } = await signedIn(ctx, 'customer');
    const kitchen = await signedIn(ctx, 'kitchen');
    const token = cookie.split('=')[1] ?? '';
    const madeUp = `customer_session=${'x'.repeat(3000)}; kitchen_session=${'y'.repeat(3000)}`;
    for (const [url, method, c] of [
      ['/api/orders', 'POST', cookie],
      ['/api/orders', 'POST', madeUp],
      ['/api/account/customer/export', 'GET', cookie],
      ['/api/account/kitchen/export', 'GET', madeUp],
      ['/api/kitchen/images', 'POST', kitchen.cookie],
      ['/api/kitchen/images', 'POST', madeUp],
    ] as const) {
      const res = await ctx.app.inject({
        method,
        url,
        remoteAddress: '203.0.113.31',
        headers: { cookie: c, 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
    const { rows } = (await ctx.database.db.execute(sql`select key from rate_limit_hits`)) as unknown as {
      rows: { key: string }[];
    };
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) {
      expect(key).not.toContain(token);
      expect(key).not.toMatch(/xxx|yyy/);
      expect(key.length).toBeLessThanOrEqual(120);
    }
  });
});
