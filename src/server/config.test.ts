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
      geocoder: { kind: 'photon', url: 'https://photon.komoot.io/api' },
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
    [{ GEOCODER: 'bing' }, 'GEOCODER'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ GOOGLE_CLIENT_ID: 'only-the-id' }, 'GOOGLE_CLIENT_SECRET'],
    [{ LIVE_HEARTBEAT_MS: '60000' }, 'LIVE_HEARTBEAT_MS'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).variables).toContain(variable);
      expect((error as Error).message).toContain(variable);
    }
  });

  it('refuses production without a Google client, so the development provider is never served there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      /GOOGLE_CLIENT_ID/,
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
    expect(config.google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    });
    expect(config.geocoder).toEqual({ kind: 'nominatim', url: 'https://nominatim.openstreetmap.org/search' });
    expect(config.publicUrl).toBe('https://food.example.com');
  });
});
