import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startFakeProvider } from '../test/fake-geocoder.js';
import { closeTestContext, createTestContext, signedIn, type TestContext } from '../test/test-app.js';

// The route touches the database only to read the session (for its rate), so one engine is enough here.
describe('GET /api/geocode', () => {
  let fake: Awaited<ReturnType<typeof startFakeProvider>>;
  let photon: TestContext;
  let down: TestContext;
  let off: TestContext;
  beforeAll(async () => {
    fake = await startFakeProvider();
    photon = await createTestContext('pglite', {
      GEOCODER: 'photon',
      GEOCODER_URL: `${fake.base}/photon/api`,
    });
    down = await createTestContext('pglite', { GEOCODER: 'photon', GEOCODER_URL: await closedPortUrl() });
    off = await createTestContext('pglite', { GEOCODER: 'off' });
  });
  afterAll(async () => {
    await Promise.all([photon, down, off].map((ctx) => closeTestContext(ctx)));
    await fake.close();
  });

  const ask = async (
    ctx: TestContext,
    q: string | undefined,
    role: 'customer' | 'kitchen' | null = 'customer',
  ) => {
    const cookie = role ? (await signedIn(ctx, role)).cookie : undefined;
    const url = q === undefined ? '/api/geocode' : `/api/geocode?q=${encodeURIComponent(q)}`;
    return ctx.app.inject({ url, headers: cookie ? { cookie } : {} });
  };

  it('answers suggestions as [{display_name, place_id}] to a signed-in customer or cook', async () => {
    for (const role of ['customer', 'kitchen'] as const) {
      const res = await ask(photon, ' 221B Baker Street ', role);
      expect(res.statusCode).toBe(200);
      // The spec's two fields, plus where the place is when the provider gives a point.
      expect(res.json()).toEqual([
        {
          display_name: 'Sherlock Holmes Museum, 221B Baker Street, London, NW1 6XE, United Kingdom',
          place_id: 'N123456',
          lat: 51.5237,
          lon: -0.1585,
        },
        { display_name: 'Baker Street, London, United Kingdom', place_id: 'W4244999' },
      ]);
    }
    expect(fake.seen.at(-1)?.url.searchParams.get('q')).toBe('221b baker street');
  });

  it('answers anonymous visitors too (the landing page picks an address before anyone signs in)', async () => {
    const res = await ask(photon, '221B Baker Street', null);
    expect(res.statusCode).toBe(200);
    expect(res.json<unknown[]>()[0]).toMatchObject({ place_id: 'N123456', lat: 51.5237, lon: -0.1585 });
  });

  it('refuses a q that is missing, shorter than 3 or longer than 200 characters, naming q', async () => {
    const before = fake.seen.length;
    for (const q of [undefined, '', 'ab', '   ab   ', 'x'.repeat(201)]) {
      const res = await ask(photon, q);
      expect(res.statusCode, String(q)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'q' });
    }
    expect(fake.seen.length).toBe(before);
  });

  it('answers 200 [] when the provider is down, or when GEOCODER=off', async () => {
    for (const ctx of [down, off]) {
      const res = await ask(ctx, '1 Main Street');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
  });

  it('tells the browser which geocoder paces its questions', async () => {
    expect((await photon.app.inject('/api/geocode/settings')).json()).toEqual({ kind: 'photon' });
    expect((await off.app.inject('/api/geocode/settings')).json()).toEqual({ kind: 'off' });
  });
});
