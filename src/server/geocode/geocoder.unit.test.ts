import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../lib/config.js';
import { closedPortUrl, startFakeProvider } from '../test/fake-geocoder.js';
import { FakeClock } from '../test/fake-clock.js';
import { createGeocoder, type GeocoderOptions } from './geocoder.js';

function geocoder(kind: 'photon' | 'nominatim' | 'off', url: string | undefined, options?: GeocoderOptions) {
  const warn = vi.fn();
  const log = { warn } as unknown as FastifyBaseLogger;
  const config = loadConfig({
    NODE_ENV: 'test',
    GEOCODER: kind,
    PUBLIC_URL: 'https://homecooked.example',
    GOOGLE_CLIENT_ID: 'id',
    GOOGLE_CLIENT_SECRET: 'secret',
    ...(url ? { GEOCODER_URL: url } : {}),
  });
  return { geo: createGeocoder(config, log, options), warn };
}

describe('geocoder adapters and policy', () => {
  let fake: Awaited<ReturnType<typeof startFakeProvider>>;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => fake.close());

  it("maps a Photon FeatureCollection to {display_name, place_id} with a point's coordinates, identifying itself", async () => {
    const { geo } = geocoder('photon', `${fake.base}/photon/api`);
    expect(await geo.search('221b baker')).toEqual([
      {
        display_name: 'Sherlock Holmes Museum, 221B Baker Street, London, NW1 6XE, United Kingdom',
        place_id: 'N123456',
        lat: 51.5237,
        lon: -0.1585,
      },
      { display_name: 'Baker Street, London, United Kingdom', place_id: 'W4244999' },
    ]);
    // The parts that pick its rules stay on the server: the suggestions above carry none.
    expect(await geo.locate('221b baker')).toEqual({
      lat: 51.5237,
      lon: -0.1585,
      parts: { countryCode: 'GB', region: 'England', county: 'Greater London' },
    });
    const request = fake.seen.at(-1);
    expect(request?.url.searchParams.get('q')).toBe('221b baker');
    expect(request?.headers['user-agent']).toBe('HomeCooked/0.1 (+https://homecooked.example)');
  });

  it('maps a Nominatim /search answer (format=json) to {display_name, place_id, lat, lon}', async () => {
    const { geo } = geocoder('nominatim', `${fake.base}/nominatim/search`);
    expect(await geo.search('London')).toEqual([
      {
        display_name: 'London, Greater London, England, SW1A 2DU, United Kingdom',
        place_id: '100149',
        lat: 51.5073219,
        lon: -0.1276474,
      },
    ]);
    // With the country and region that pick the place's rules (jurisdictions/), asked with addressdetails=1.
    expect(await geo.locate('London')).toEqual({
      lat: 51.5073219,
      lon: -0.1276474,
      parts: { countryCode: 'GB', region: 'England', county: null },
    });
    const request = fake.seen.at(-1);
    expect(request?.url.searchParams.get('format')).toBe('json');
    expect(request?.url.searchParams.get('addressdetails')).toBe('1');
    expect(request?.headers['user-agent']).toMatch(/^HomeCooked\/0\.1 \(\+https:\/\/homecooked\.example\)$/);
  });

  it('answers the same question from its cache (trimmed, case and spaces ignored)', async () => {
    const { geo } = geocoder('photon', `${fake.base}/photon/api`);
    const before = fake.seen.length;
    const first = await geo.search('Baker   Street');
    expect(await geo.search('  baker street ')).toEqual(first);
    await Promise.all([geo.search('Abbey Road'), geo.search('abbey road')]);
    expect(fake.seen.length - before).toBe(2);
  });

  it('answers [] and logs when the provider is down or answers an error page', async () => {
    const cases = [
      geocoder('photon', await closedPortUrl()),
      geocoder('photon', `${fake.base}/broken/api`),
      geocoder('nominatim', `${fake.base}/photon/api`), // a Photon answer is not a Nominatim one
    ];
    for (const { geo, warn } of cases) {
      expect(await geo.search('1 Main Street')).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
    }
  });

  it('gives up on a provider that does not answer, after 2.5 seconds by default', async () => {
    const clock = new FakeClock();
    const { geo, warn } = geocoder('photon', `${fake.base}/slow/api`, { clock });
    let answer: unknown;
    const asked = geo.search('Slow Lane').then((a) => (answer = a));
    await vi.waitFor(() => expect(fake.seen.at(-1)?.url.pathname).toBe('/slow/api'));
    clock.advance(2499);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer).toBeUndefined();
    clock.advance(1);
    await asked;
    expect(answer).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('asks Nominatim at most once in 1.1 seconds, and refuses rather than queue for long', async () => {
    const clock = new FakeClock();
    const { geo, warn } = geocoder('nominatim', `${fake.base}/nominatim/search`, { maxQueueMs: 1500, clock });
    const before = fake.seen.length;
    const answers = Promise.all(['one street', 'two street', 'three street'].map((q) => geo.search(q)));
    // The first goes at once, the second waits its turn, the third would wait 2.2 s and is refused.
    await vi.waitFor(() => expect(fake.seen.length - before).toBe(1));
    expect(clock.sleeps).toEqual([1100]);
    clock.advance(1100);
    expect((await answers).map((a) => a.length)).toEqual([1, 1, 0]);
    expect(fake.seen.length - before).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('asks nobody when GEOCODER=off', async () => {
    const { geo } = geocoder('off', undefined);
    const before = fake.seen.length;
    expect(await geo.search('1 Main Street')).toEqual([]);
    expect(fake.seen.length).toBe(before);
  });
});
