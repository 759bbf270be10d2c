import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { describeEachEngine, signedIn, testConfig } from '../test/test-app.js';
import { GEOCODE_LIMITS, limits } from '../identity/rate-limit.js';
import { parseTrustProxy } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, ::1', ['10.0.0.0/8', '::1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads %j as %j', (value, expected) => expect(parseTrustProxy(value)).toEqual(expected));

  it.each(['true', 'yes', '11', '10.0.0.0/33', '300.1.1.1', 'proxy.example', '10.0.0.1,,'])(
    'refuses %j at start-up, naming the variable',
    (value) => {
      expect(() => testConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => testConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});

/** Starts a sign-in from `from` (the TCP peer), claiming `forwardedFor` in X-Forwarded-For. */
const startSignIn = async (app: FastifyInstance, from: string, forwardedFor?: string) =>
  (
    await app.inject({
      url: '/auth/customer/start?returnTo=%2F',
      remoteAddress: from,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    })
  ).statusCode;

describeEachEngine('without TRUST_PROXY, forged X-Forwarded-For', (get) => {
  it('does not get around the sign-in limit (35 starts claiming 35 addresses: the 31st is refused)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 35; i++)
      codes.push(await startSignIn(get().app, '203.0.113.40', `198.51.100.${i + 1}`));
    expect(codes.slice(0, limits.signIn.max)).not.toContain(429);
    expect(codes.slice(limits.signIn.max)).toEqual([429, 429, 429, 429, 429]);
  });

  it('does not get around the address-suggestion limit', async () => {
    const { cookie } = await signedIn(get(), 'customer');
    const ask = (i: number) =>
      get().app.inject({
        url: '/api/geocode?q=Main%20Street',
        remoteAddress: '203.0.113.41',
        headers: { cookie, 'x-forwarded-for': `198.51.100.${(i % 250) + 1}` },
      });
    for (let i = 0; i < GEOCODE_LIMITS.signedIn; i++) expect((await ask(i)).statusCode).toBe(200);
    expect((await ask(GEOCODE_LIMITS.signedIn)).statusCode).toBe(429);
  });
});

describeEachEngine(
  'TRUST_PROXY naming our proxy',
  (get) => {
    it('limits each client behind the proxy by its forwarded address, and ignores the header from others', async () => {
      const proxy = '10.1.2.3';
      for (let i = 0; i < limits.signIn.max; i++)
        expect(await startSignIn(get().app, proxy, '198.51.100.7')).not.toBe(429);
      expect(await startSignIn(get().app, proxy, '198.51.100.7')).toBe(429);
      // Another client behind the same proxy has its own allowance.
      expect(await startSignIn(get().app, proxy, '198.51.100.8')).not.toBe(429);
      // A client that is not our proxy cannot claim to be someone else.
      for (let i = 0; i < limits.signIn.max; i++)
        expect(await startSignIn(get().app, '203.0.113.50', `192.0.2.${i + 1}`)).not.toBe(429);
      expect(await startSignIn(get().app, '203.0.113.50', '192.0.2.200')).toBe(429);
    });
  },
  { TRUST_PROXY: '10.0.0.0/8' },
);

describeEachEngine(
  'TRUST_PROXY as a hop count',
  (get) => {
    it('takes the client address from the nearest hop', async () => {
      for (let i = 0; i < limits.signIn.max; i++)
        expect(await startSignIn(get().app, '127.0.0.1', '198.51.100.9')).not.toBe(429);
      expect(await startSignIn(get().app, '127.0.0.1', '198.51.100.9')).toBe(429);
      expect(await startSignIn(get().app, '127.0.0.1', '198.51.100.10')).not.toBe(429);
    });
  },
  { TRUST_PROXY: '1' },
);
