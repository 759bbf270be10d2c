import { expect, it } from 'vitest';
import { describeEachEngine } from '../test/test-app.js';

describeEachEngine('health and errors', (get) => {
  it('answers /healthz and /readyz', async () => {
    const { app, engine } = get();
    expect((await app.inject('/healthz')).json()).toEqual({ ok: true });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true, database: engine });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await get().app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with a 400 naming the body, not a 5xx', async () => {
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/kitchens',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('sends security headers', async () => {
    const res = await get().app.inject('/healthz');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
