import { reactions } from '../../src/server/reactions.js';
import { loadJurisdictions } from '../../src/server/data/jurisdictions.js';
import { randomUUID } from 'node:crypto';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kitchen } from '../../src/shared/kitchens.js';
import { buildApp } from '../../src/server/app.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import { ChangeBus } from '../../src/server/live/bus.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { freePort } from '../../src/server/test/http-client.js';
import { createPrivatePostgres } from '../../src/server/test/private-postgres.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { noGeocoder } from '../../src/server/geocode/geocoder.js';

const waitUntil = async (check: () => Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return Date.now();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

describe('a PostgreSQL outage under load', () => {
  let pg: ReturnType<typeof createPrivatePostgres>;
  let database: Database;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    pg = createPrivatePostgres(await freePort());
    pg.start();
    database = await openPostgres(pg.url);
    app = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.close().catch(() => {});
    pg?.destroy();
  });

  it('answers 503 quickly while the database is down, recovers by itself, and streams catch up', async () => {
    const stream = await openEventStream(`${base}/api/kitchens`);
    await stream.waitFor((d) => Array.isArray(d));
    pg.stop();

    // Reads that need the database, 40 at once: each answers 503 (no hang, no crash) within the pool's timeout.
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${base}/api/kitchens/${randomUUID()}`).then((r) => r.status)),
    );
    expect(new Set(answers)).toEqual(new Set([503]));
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    pg.start();
    const restarted = Date.now();
    // A kitchen is written (through another connection) before our listener is back: its notice is lost, yet the
    // stream must still show it once the listener reconnects and resynchronises.
    const writer = await openPostgres(pg.url, { poolSize: 1 });
    const owner = await upsertUser(writer.db, {
      issuer: 'urn:test',
      subject: 'outage',
      email: 'outage@example.test',
      displayName: 'Outage',
      photoUrl: null,
    });
    const kitchen = await registerKitchen(
      {
        db: writer.db,
        bus: new ChangeBus(writer),
        reactions,
        geocoder: noGeocoder,
        jurisdictions: loadJurisdictions('none'),
      },
      owner,
      {
        name: 'Written during recovery',
        category: 'Korean',
        address: '1 Back Online Road',
        imageLink: 'https://img.example/k.png',
        hours: ALL_DAY_HOURS,
      },
    );
    await writer.close();

    const ready = await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 5000);
    expect(ready - restarted).toBeLessThan(5000);
    await stream.waitFor(
      (d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === kitchen?.uid),
      5000,
    );
    expect((await fetch(`${base}/api/kitchens/${kitchen?.uid}`)).status).toBe(200);
    stream.close();
  });
});
