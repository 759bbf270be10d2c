import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { SharedIntervalGate } from '../../src/server/geocode/shared-interval-gate.js';
import { FakeClock } from '../../src/server/test/fake-clock.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

/**
 * Two instances on one PostgreSQL database share every limit: what one counted, the other sees. (With PGlite there
 * is one process, and the limits stay in its memory: src/server/lib/rate-limit.test.ts.)
 */
describe('limits shared by two instances on one PostgreSQL', () => {
  const instances: { app: FastifyInstance; database: Database }[] = [];
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const created = await createPgDatabase();
    drop = created.drop;
    for (let i = 0; i < 2; i++) {
      const database = await openPostgres(created.url, { poolSize: 4 });
      const app = await buildApp({
        config: testConfig({ SIGN_IN_RATE_LIMIT: '6' }),
        database,
        webDir: '/nonexistent',
      });
      await app.ready();
      instances.push({ app, database });
    }
  });
  afterAll(async () => {
    for (const { app, database } of instances) {
      await app.close();
      await database.close();
    }
    await drop();
  });

  const start = (instance: number, remoteAddress: string) =>
    instances[instance]!.app.inject({ url: '/auth/customer/start?returnTo=%2F', remoteAddress });

  it('counts sign-in starts of one address on both instances together', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await start(0, '198.51.100.7')).statusCode).not.toBe(429);
      expect((await start(1, '198.51.100.7')).statusCode).not.toBe(429);
    }
    for (const instance of [0, 1]) {
      const refused = await start(instance, '198.51.100.7');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    }
    expect((await start(1, '198.51.100.8')).statusCode).not.toBe(429);
  });

  it('keeps each route’s count apart (one address’s sign-ins do not spend its address suggestions)', async () => {
    for (let i = 0; i < 7; i++) await start(i % 2, '198.51.100.9');
    const suggestions = await instances[0]!.app.inject({
      url: '/api/geocode?q=Main',
      remoteAddress: '198.51.100.9',
    });
    expect(suggestions.statusCode).not.toBe(429);
  });

  it("gives Nominatim's one call a second to the instances in turn, and refuses a wait beyond the queue limit", async () => {
    const clocks = [new FakeClock(), new FakeClock()];
    const gates = instances.map(
      ({ database }, i) =>
        // Ten seconds apart (Nominatim's is 1.1 s): the test's own pace cannot blur the arithmetic.
        new SharedIntervalGate(database.db, 'nominatim-test', 10_000, 15_000, clocks[i]),
    );
    expect(await gates[0]!.pass()).toBe(true);
    expect(clocks[0]!.sleeps.filter((ms) => ms > 5)).toEqual([]);
    // The other instance's next call waits for the next slot, one interval later.
    const second = gates[1]!.pass();
    await expect.poll(() => clocks[1]!.sleeps.length).toBe(1);
    expect(clocks[1]!.sleeps[0]).toBeGreaterThan(9000);
    expect(clocks[1]!.sleeps[0]).toBeLessThanOrEqual(10_000);
    clocks[1]!.advance(10_000);
    expect(await second).toBe(true);
    // A third at once would wait about 20 s, beyond the 15 s queue limit: refused, and the schedule is unchanged.
    expect(await gates[0]!.pass()).toBe(false);
    expect(await gates[1]!.pass()).toBe(false);
  });

  it('takes a slot in one statement per call', async () => {
    const { database } = instances[0]!;
    // The real clock: two calls less than the 1 ms interval apart wait for it (a fake clock that never moves would
    // hold the second call for ever, as it did on a fast run).
    const gate = new SharedIntervalGate(database.db, 'nominatim-count', 1, 60_000);
    let statements = 0;
    database.observeQueries(() => statements++);
    for (let call = 0; call < 3; call++) {
      const before = statements;
      expect(await gate.pass()).toBe(true);
      expect(statements - before, `call ${call + 1}`).toBe(1);
    }
  });
});
