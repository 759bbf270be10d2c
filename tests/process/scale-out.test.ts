import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { FastifyInstance } from 'fastify';
import type { Kitchen } from '../../src/shared/kitchens.js';
import { buildApp } from '../../src/server/app.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

describe('two instances on one PostgreSQL', () => {
  let drop: () => Promise<void>;
  const instances: { app: FastifyInstance; database: Database; url: string }[] = [];

  beforeAll(async () => {
    const created = await createPgDatabase();
    drop = created.drop;
    for (let i = 0; i < 2; i++) {
      const database = await openPostgres(created.url);
      const app = await buildApp({ config: testConfig(), database, webDir: '/nonexistent' });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      instances.push({ app, database, url });
    }
  });

  afterAll(async () => {
    for (const { app, database } of instances) {
      await app.close();
      await database.close();
    }
    await drop?.();
  });

  it('a kitchen written through instance A reaches a live stream held on instance B', async () => {
    const [a, b] = instances;
    if (!a || !b) throw new Error('instances missing');
    const stream = await openEventStream(`${b.url}/api/kitchens`);
    try {
      await stream.waitFor((d) => Array.isArray(d));
      const owner = await upsertUser(a.database.db, {
        issuer: 'urn:test',
        subject: 'scale-out-owner',
        email: 'owner@example.test',
        displayName: 'Owner',
        photoUrl: null,
      });
      const kitchen = await registerKitchen(a.app, owner, {
        name: 'Across instances',
        category: 'Mexican',
        address: '2 Side St',
        imageLink: 'https://img.example/x.png',
        hours: ALL_DAY_HOURS,
      });
      const seen = (await stream.waitFor(
        (d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === kitchen?.uid),
      )) as Kitchen[];
      expect(seen[0]?.name).toBe('Across instances');
      // B's plain reads come from its cache, which the notification refreshed too.
      const list = (await (await fetch(`${b.url}/api/kitchens`)).json()) as Kitchen[];
      expect(list[0]?.uid).toBe(kitchen?.uid);
    } finally {
      stream.close();
    }
  });
});
