import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults: PGlite in ./data, port 3000, development sign-in', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      google: undefined,
      devSignIn: true,
      geocoder: { kind: 'photon', url: 'https://photon.komoot.io/api' },
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://u@db/app', DATABASE_READ_URL: 'not a url' }, 'DATABASE_READ_URL'],
    [{ DATABASE_URL: 'postgres://u@db/app', DATABASE_READ_URL: 'mysql://replica/app' }, 'DATABASE_READ_URL'],
    // A replica of the embedded database (PGlite) cannot exist.
    [{ DATABASE_READ_URL: 'postgres://u@replica/app' }, 'DATABASE_READ_URL'],
    [
      {
        DATABASE_URL: 'postgres://u@db/app',
        DATABASE_READ_URL: 'postgres://u@r/app',
        DATABASE_READ_MAX_LAG_MS: '-1',
      },
      'DATABASE_READ_MAX_LAG_MS',
    ],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
    [{ GEOCODER: 'bing' }, 'GEOCODER'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ GOOGLE_CLIENT_ID: 'only-the-id' }, 'GOOGLE_CLIENT_SECRET'],
    [{ LIVE_HEARTBEAT_MS: '60000' }, 'LIVE_HEARTBEAT_MS'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ OPERATOR_EMAILS: 'ops@example.com,not-an-email' }, 'OPERATOR_EMAILS'],
    [{ OPERATOR_EMAILS: 'ops@example.com;boss@example.com' }, 'OPERATOR_EMAILS'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).variables).toContain(variable);
      expect((error as Error).message).toContain(variable);
    }
  });

  describe('BUS_URL (the change bus over NATS)', () => {
    const pg = { DATABASE_URL: 'postgres://u@db:5432/app' };

    it('is LISTEN/NOTIFY when unset, and NATS at a nats:// address on PostgreSQL', () => {
      expect(loadConfig(pg).busUrl).toBeUndefined();
      expect(loadConfig({ ...pg, BUS_URL: '' }).busUrl).toBeUndefined();
      expect(loadConfig({ ...pg, BUS_URL: 'nats://nats.internal:4222' }).busUrl).toBe(
        'nats://nats.internal:4222',
      );
    });

    it.each([
      [{ ...pg, BUS_URL: 'redis://cache:6379' }],
      [{ ...pg, BUS_URL: 'http://nats:4222' }],
      [{ ...pg, BUS_URL: 'nats.internal:4222' }],
      [{ ...pg, BUS_URL: 'not a url' }],
      [{ ...pg, BUS_URL: 'nats://' }],
      // The embedded database: one instance, no bus to carry.
      [{ BUS_URL: 'nats://127.0.0.1:4222' }],
    ])('refuses %j naming BUS_URL', (env) => {
      const error = catchError(() => loadConfig(env));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variables).toEqual(['BUS_URL']);
      expect(error?.message).toContain('BUS_URL');
    });
  });

  it('reads OPERATOR_EMAILS as a set of lower-case emails, empty by default', () => {
    expect([...loadConfig({}).operatorEmails]).toEqual([]);
    const config = loadConfig({ OPERATOR_EMAILS: ' Ops@Example.com, boss@example.com ,' });
    expect([...config.operatorEmails].sort()).toEqual(['boss@example.com', 'ops@example.com']);
  });

  it('refuses production without a Google client, so the development provider is never served there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      /GOOGLE_CLIENT_ID/,
    );
  });

  describe('the development sign-in (anyone can sign in as anyone)', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };

    it.each([
      'http://localhost:3000',
      'http://shop.localhost:8080',
      'http://127.0.0.1:3000',
      'http://127.8.9.10',
      'http://[::1]:3000',
    ])('is served without a Google client when PUBLIC_URL is a loopback address (%s)', (url) => {
      expect(loadConfig({ PUBLIC_URL: url })).toMatchObject({ google: undefined, devSignIn: true });
    });

    it.each([
      'https://food.example.com',
      'http://10.0.0.5:3000',
      'http://localhost.example.com',
      'http://[::2]',
    ])(
      'refuses to start without a Google client on a public PUBLIC_URL (%s), saying how to configure one',
      (url) => {
        const error = catchError(() => loadConfig({ PUBLIC_URL: url }));
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).variables).toEqual(['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']);
        expect(error?.message).toMatch(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
        expect(error?.message).toContain(`${url.replace(/\/$/, '')}/auth/callback`);
        expect(error?.message).toContain('DEV_SIGN_IN');
      },
    );

    it('refuses to start without a Google client when the server listens beyond loopback', () => {
      const error = catchError(() => loadConfig({ HOST: '0.0.0.0' }));
      expect((error as ConfigError).variables).toEqual(['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']);
      expect(error?.message).toContain('HOST');
      expect(loadConfig({ HOST: '::1' }).devSignIn).toBe(true);
      expect(loadConfig({ HOST: 'localhost' }).devSignIn).toBe(true);
    });

    it('is served anywhere when enabled on purpose with DEV_SIGN_IN', () => {
      const config = loadConfig({
        PUBLIC_URL: 'https://staging.example.com',
        HOST: '0.0.0.0',
        DEV_SIGN_IN: 'unsafe-anyone-can-sign-in',
      });
      expect(config).toMatchObject({ google: undefined, devSignIn: true });
    });

    it('is not served when a Google client is configured', () => {
      expect(loadConfig({ ...google }).devSignIn).toBe(false);
      expect(loadConfig({ ...google, PUBLIC_URL: 'https://food.example.com' }).devSignIn).toBe(false);
    });

    it.each(['true', '1', 'yes', 'unsafe'])(
      'refuses DEV_SIGN_IN=%s (only the long explicit value)',
      (value) => {
        const error = catchError(() => loadConfig({ DEV_SIGN_IN: value }));
        expect((error as ConfigError).variables).toEqual(['DEV_SIGN_IN']);
      },
    );

    it('is never served in production, whatever DEV_SIGN_IN says', () => {
      const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) };
      const unsafe = { DEV_SIGN_IN: 'unsafe-anyone-can-sign-in' };
      for (const env of [
        { ...production, ...unsafe },
        { ...production, ...unsafe, ...google },
        { ...production, ...unsafe, PUBLIC_URL: 'http://localhost:3000' },
      ]) {
        const error = catchError(() => loadConfig(env));
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).variables).toContain('DEV_SIGN_IN');
      }
      expect(loadConfig({ ...production, ...google }).devSignIn).toBe(false);
    });
  });

  describe('the development payment pages (PAYMENTS=local: any card number pays)', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };

    it('are served where the development sign-in may be: loopback, or DEV_SIGN_IN on purpose', () => {
      expect(loadConfig({ PAYMENTS: 'local' }).payments.kind).toBe('local');
      expect(loadConfig({ ...google, PAYMENTS: 'local' }).payments.kind).toBe('local');
      const onPurpose = loadConfig({
        PAYMENTS: 'local',
        PUBLIC_URL: 'https://staging.example.com',
        HOST: '0.0.0.0',
        DEV_SIGN_IN: 'unsafe-anyone-can-sign-in',
      });
      expect(onPurpose.payments.kind).toBe('local');
    });

    it.each([
      { PUBLIC_URL: 'https://food.example.com' },
      { HOST: '0.0.0.0' },
      { PUBLIC_URL: 'http://10.0.0.5:3000', HOST: '10.0.0.5' },
    ])('are refused beyond loopback without DEV_SIGN_IN (%o)', (where) => {
      const error = catchError(() => loadConfig({ ...google, PAYMENTS: 'local', ...where }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variables).toEqual(['PAYMENTS']);
      expect(error?.message).toContain('DEV_SIGN_IN');
    });
  });

  it('reads a read replica of the PostgreSQL server, with the lag it may have (5 s by default)', () => {
    const env = { DATABASE_URL: 'postgres://u@db/app', DATABASE_READ_URL: 'postgres://u@replica/app' };
    expect(loadConfig(env).readReplica).toEqual({ url: 'postgres://u@replica/app', maxLagMs: 5000 });
    expect(loadConfig({ ...env, DATABASE_READ_MAX_LAG_MS: '250' }).readReplica?.maxLagMs).toBe(250);
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@replica/app' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
  });

  it('reads PostgreSQL, Google and geocoder settings', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/app',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GEOCODER: 'nominatim',
      PORT: '8080',
      PUBLIC_URL: 'https://food.example.com/',
    });
    expect(config.databaseUrl).toBe('postgres://u@db:5432/app');
    expect(config.readReplica).toBeUndefined();
    expect(config.google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    });
    expect(config.geocoder).toEqual({ kind: 'nominatim', url: 'https://nominatim.openstreetmap.org/search' });
    expect(config.publicUrl).toBe('https://food.example.com');
  });
});

function catchError(run: () => unknown): Error | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}
