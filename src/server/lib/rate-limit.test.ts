import { expect, it } from 'vitest';
import { describeEachEngine, signedIn } from '../test/test-app.js';
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
});
