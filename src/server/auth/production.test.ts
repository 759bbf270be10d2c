import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../lib/config.js';
import type { Database } from '../db/database.js';
import { openTestDatabase } from '../test/test-database.js';

describe('in production', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    // loadConfig refuses DEV_SIGN_IN in production; even a config that says otherwise gets no development provider.
    const config = loadConfig({
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      SESSION_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://food.example.com',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ config: { ...config, devSignIn: true }, database, webDir: '/nonexistent' });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it.each([
    '/dev-idp/.well-known/openid-configuration',
    '/dev-idp/auth',
    '/dev-idp/interaction/x',
    '/dev-idp/jwks',
  ])('serves nothing of the development provider (%s)', async (url) => {
    expect((await app.inject(url)).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url, headers: { origin: 'https://food.example.com' } })).statusCode,
    ).toBe(404);
  });

  it('uses __Host- cookies marked Secure and sends HSTS over https', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/kitchen/sign-out',
      headers: { origin: 'https://food.example.com' },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^__Host-kitchen_session=;.*Secure/);
    expect(res.headers['strict-transport-security']).toContain('max-age=');
  });
});
