import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { buildApp } from '../app.js';
import type { Database } from '../db/database.js';
import { openTestDatabase } from '../test/test-database.js';
import { testConfig } from '../test/test-app.js';
import type { FastifyInstance } from 'fastify';

describe('error handler', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
    app.get('/api/test/boom', async () => {
      throw new Error('secret internal detail');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('hides the details of an unexpected error behind a generic 500', async () => {
    const res = await app.inject('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('at ');
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Something went wrong on our side' });
  });
});
