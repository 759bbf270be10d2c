import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ALL_DAY_HOURS } from '../../src/shared/opening-hours.js';
import type { Kitchen } from '../../src/shared/kitchens.js';
import { buildApp } from '../../src/server/app.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { busOutbox } from '../../src/server/db/schema.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import type { BusMessage } from '../../src/server/live/bus.js';
import { openEventStream } from '../../src/server/test/event-stream.js';
import { freePort } from '../../src/server/test/http-client.js';
import { createPrivateNats } from '../../src/server/test/private-nats.js';
import { testConfig } from '../../src/server/test/test-app.js';
import { createPgDatabase } from '../../src/server/test/test-database.js';

const METRICS_TOKEN = 'metrics-token-for-the-nats-tests-0123';

/** The change bus's backlog as an instance's /metrics tells it. */
async function backlogOf(app: FastifyInstance): Promise<number> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = res.body.split('\n').find((l) => l.startsWith('homecooked_change_bus_backlog '));
  if (!line) throw new Error('no homecooked_change_bus_backlog in /metrics');
  return Number(line.split(' ').at(-1));
}

interface Instance {
  app: FastifyInstance;
  database: Database;
  url: string;
  /** Every 'changed' message this instance's handlers were given (its own, at once; everyone's, from the stream). */
  heard: string[];
  /** What this instance sent, as its writes committed. */
  sent: string[];
  resyncs: number;
}

const topicsOf = (messages: readonly BusMessage[]) =>
  messages.flatMap((m) => (m.type === 'changed' ? [m.topic] : []));

const countOf = (topics: readonly string[], wanted: (topic: string) => boolean) => {
  const counts = new Map<string, number>();
  for (const topic of topics.filter(wanted)) counts.set(topic, (counts.get(topic) ?? 0) + 1);
  return counts;
};

describe('three instances on one PostgreSQL, changes over NATS JetStream (BUS_URL)', () => {
  let nats: ReturnType<typeof createPrivateNats>;
  let drop: () => Promise<void>;
  const instances: Instance[] = [];
  let written = 0;

  beforeAll(async () => {
    nats = createPrivateNats(await freePort());
    await nats.start();
    const created = await createPgDatabase();
    drop = created.drop;
    for (let i = 0; i < 3; i++) {
      const database = await openPostgres(created.url);
      const app = await buildApp({
        config: testConfig({ DATABASE_URL: created.url, BUS_URL: nats.url, METRICS_TOKEN }),
        database,
        webDir: '/nonexistent',
      });
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const instance: Instance = { app, database, url, heard: [], sent: [], resyncs: 0 };
      app.bus.on('changed', (m) => instance.heard.push(m.topic));
      app.bus.onResync(() => instance.resyncs++);
      // What the writes of this instance sent (the bus itself, unchanged, does the rest).
      const afterCommit = app.bus.afterCommit.bind(app.bus);
      app.bus.afterCommit = (messages) => {
        instance.sent.push(...topicsOf(messages));
        afterCommit(messages);
      };
      instances.push(instance);
    }
  });

  afterAll(async () => {
    for (const { app, database } of instances) {
      await app.close();
      await database.close();
    }
    await drop?.();
    await nats?.destroy();
  });

  async function writeKitchen(through: Instance, name: string): Promise<string> {
    written++;
    const owner = await upsertUser(through.database.db, {
      issuer: 'urn:test',
      subject: `nats-owner-${written}`,
      email: `nats-owner-${written}@example.test`,
      displayName: `Owner ${written}`,
      photoUrl: null,
    });
    const kitchen = await registerKitchen(through.app, owner, {
      name,
      category: 'Mexican',
      address: `${written} Side St`,
      imageLink: 'https://img.example/x.png',
      hours: ALL_DAY_HOURS,
    });
    if (!kitchen) throw new Error('kitchen not registered');
    return kitchen.uid;
  }

  /**
   * Each instance heard every change about these kitchens exactly once: another's from the stream, its own at its
   * commit or from the stream, whichever came first (src/server/live/bus.ts).
   */
  function expectEveryChangeOnce(uids: readonly string[]): void {
    const about = (topic: string) => uids.some((uid) => topic.includes(uid));
    const sentByAll = countOf(
      instances.flatMap((i) => i.sent),
      about,
    );
    expect(sentByAll.size).toBeGreaterThan(0);
    for (const instance of instances) expect(countOf(instance.heard, about)).toEqual(sentByAll);
  }

  it('a kitchen written through instance A reaches live streams held on B and C', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const streams = await Promise.all([b, c].map((i) => openEventStream(`${i.url}/api/kitchens`)));
    try {
      await Promise.all(streams.map((s) => s.waitFor((d) => Array.isArray(d))));
      const uid = await writeKitchen(a, 'Across instances over NATS');
      for (const stream of streams) {
        const seen = (await stream.waitFor(
          (d) => Array.isArray(d) && (d as Kitchen[]).some((k) => k.uid === uid),
        )) as Kitchen[];
        expect(seen.find((k) => k.uid === uid)?.name).toBe('Across instances over NATS');
      }
      await vi.waitFor(() => expectEveryChangeOnce([uid]), { timeout: 10_000, interval: 100 });
    } finally {
      streams.forEach((s) => s.close());
    }
  });

  it('with NATS stopped for 10 s while writes commit, every change reaches every instance once NATS is back', async () => {
    const streams = await Promise.all(instances.map((i) => openEventStream(`${i.url}/api/kitchens`)));
    try {
      await Promise.all(streams.map((s) => s.waitFor((d) => Array.isArray(d))));
      await nats.stop();
      const outageStarted = Date.now();
      // Writes go on committing (into the outbox) on every instance while the bus is away.
      const uids: string[] = [];
      for (let i = 0; i < 12; i++)
        uids.push(await writeKitchen(instances[i % 3] as Instance, `During the outage ${i}`));
      // The deliberate outage: NATS away for 10 s in all.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - outageStarted))));
      // Meanwhile the changes wait in the outbox (no relay could publish them).
      const waiting = await instances[0]?.database.db.select({ n: count() }).from(busOutbox);
      expect(waiting?.[0]?.n).toBeGreaterThanOrEqual(uids.length);
      expect(await backlogOf((instances[1] as Instance).app)).toBe(waiting?.[0]?.n);
      await nats.start();
      // Each instance's stream shows every kitchen written meanwhile (any instance's, not only its own).
      for (const stream of streams)
        await stream.waitFor(
          (d) => Array.isArray(d) && uids.every((uid) => (d as Kitchen[]).some((k) => k.uid === uid)),
          30_000,
        );
      // And counted: each change arrived at each instance exactly once, none lost, none twice.
      await vi.waitFor(() => expectEveryChangeOnce(uids), { timeout: 30_000, interval: 200 });
      await vi.waitFor(async () => expect(await backlogOf((instances[2] as Instance).app)).toBe(0));
      // Resumed where each left off: no instance had to reload everything.
      expect(instances.map((i) => i.resyncs)).toEqual([0, 0, 0]);
    } finally {
      streams.forEach((s) => s.close());
    }
  }, 90_000);
});
