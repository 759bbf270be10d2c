import { sql } from 'drizzle-orm';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANGES_CHANNEL, type Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { FakeClock } from '../test/fake-clock.js';
import { freePort } from '../test/http-client.js';
import { createPrivateNats } from '../test/private-nats.js';
import { describeEachEngine } from '../test/test-app.js';
import { openTestDatabase } from '../test/test-database.js';
import { ChangeBus, type BusMessage } from './bus.js';
import { NATS_SUBJECT, NatsChangeBus } from './nats-bus.js';

interface BusUnderTest {
  database: Database;
  /** A bus of this kind on `database`. */
  makeBus(clock?: Clock): ChangeBus;
  /** Payloads another program puts where the bus reads (not ours: to be ignored). */
  sendForeign(payloads: string[]): Promise<void>;
}

/** The same interface, the same behaviour: every bus passes these. */
function busContract(get: () => BusUnderTest): void {
  it('delivers typed messages of committed transactions only, and ignores payloads that are not ours', async () => {
    const { database, makeBus, sendForeign } = get();
    // Two instances: the one that writes, and another that hears of it.
    const bus = makeBus();
    const other = makeBus();
    const received: BusMessage[] = [];
    other.on('changed', (m) => received.push(m));
    other.on('session-ended', (m) => received.push(m));
    const stops = [await bus.listen(), await other.listen()];
    const stop = () => Promise.all(stops.map((s) => s()));
    try {
      await database.db
        .transaction(async (tx) => {
          await bus.send(tx, [{ type: 'changed', topic: 'rolled-back' }]);
          throw new Error('roll back');
        })
        .catch(() => {});
      // Another program on the channel, or an older instance's plain topic name.
      await sendForeign(['kitchens', '{"type":"drop"}']);
      const sent: BusMessage[] = [
        { type: 'changed', topic: 'menu:1' },
        { type: 'session-ended', sessionHash: 'abc' },
      ];
      await database.db.transaction((tx) => bus.send(tx, sent));
      // What the writer does after its commit (delivered to its own handlers; relayed by the NATS bus).
      bus.afterCommit(sent);
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(received).toEqual(sent);
    } finally {
      await stop();
    }
  });

  it('hands the writer its own message once, at its commit: the echo from the database is not delivered again', async () => {
    const { database, makeBus } = get();
    const bus = makeBus();
    const other = makeBus();
    const heardHere: string[] = [];
    const heardThere: string[] = [];
    let arrivedHere = 0;
    bus.on('changed', (m) => heardHere.push(m.topic));
    other.on('changed', (m) => heardThere.push(m.topic));
    // Every message from the database, its own echo included, before it is delivered or not.
    bus.onLag(() => arrivedHere++);
    const stops = [await bus.listen(), await other.listen()];
    const stop = () => Promise.all(stops.map((s) => s()));
    try {
      const mine: BusMessage[] = [{ type: 'changed', topic: 'slots:1' }];
      await database.db.transaction((tx) => bus.send(tx, mine));
      bus.afterCommit(mine);
      const theirs: BusMessage[] = [{ type: 'changed', topic: 'menu:2' }];
      await database.db.transaction((tx) => other.send(tx, theirs));
      other.afterCommit(theirs);
      // Both arrived here from the database (the echo of ours, and theirs), and both there.
      await vi.waitFor(() => expect(arrivedHere).toBe(2));
      await vi.waitFor(() => expect(heardThere).toHaveLength(2));
      expect(heardHere.sort()).toEqual(['menu:2', 'slots:1']);
      expect(heardThere.sort()).toEqual(['menu:2', 'slots:1']);
    } finally {
      await stop();
    }
  });

  it('sends from a single statement, as select-list expressions, only if it commits', async () => {
    const { database, makeBus } = get();
    const bus = makeBus();
    const other = makeBus();
    const received: BusMessage[] = [];
    other.on('changed', (m) => received.push(m));
    const stops = [await bus.listen(), await other.listen()];
    const stop = () => Promise.all(stops.map((s) => s()));
    try {
      // A statement that selects no row sends nothing; one that fails sends nothing.
      await database.db.execute(
        sql`select ${bus.sendingIn([{ type: 'changed', topic: 'none' }])} where false`,
      );
      await database.db
        .execute(sql`select ${bus.sendingIn([{ type: 'changed', topic: 'failed' }])}, 1 / 0`)
        .catch(() => {});
      await database.db.execute(
        sql`select ${bus.sendingIn([
          { type: 'changed', topic: 'one' },
          { type: 'changed', topic: 'two' },
        ])}`,
      );
      bus.afterCommit([
        { type: 'changed', topic: 'one' },
        { type: 'changed', topic: 'two' },
      ]);
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(received.map((m) => (m.type === 'changed' ? m.topic : m.type)).sort()).toEqual(['one', 'two']);
    } finally {
      await stop();
    }
  });

  it('tells how late each message arrives after it was sent (the metrics show it)', async () => {
    const { database, makeBus } = get();
    const clock = new FakeClock();
    const bus = makeBus(clock);
    const other = makeBus(clock);
    const lags: number[] = [];
    other.onLag((ms) => lags.push(ms));
    const stops = [await bus.listen(), await other.listen()];
    const stop = () => Promise.all(stops.map((s) => s()));
    try {
      await database.db.transaction(async (tx) => {
        await bus.send(tx, [{ type: 'changed', topic: 'lag' }]);
        clock.advance(40);
      });
      bus.afterCommit([{ type: 'changed', topic: 'lag' }]);
      await vi.waitFor(() => expect(lags).toEqual([40]));
    } finally {
      await stop();
    }
  });
}

describeEachEngine('the change bus (LISTEN/NOTIFY)', (get) => {
  busContract(() => ({
    database: get().database,
    makeBus: (clock) => new ChangeBus(get().database, clock),
    sendForeign: async (payloads) => {
      await get().database.db.execute(
        sql`select ${sql.join(
          payloads.map((p) => sql`pg_notify(${CHANGES_CHANNEL}, ${p})`),
          sql`, `,
        )}`,
      );
    },
  }));
});

describe('the change bus (NATS JetStream) [postgres]', () => {
  let nats: ReturnType<typeof createPrivateNats>;
  let database: Database;

  beforeAll(async () => {
    nats = createPrivateNats(await freePort());
    await nats.start();
    database = await openTestDatabase('postgres');
  });

  afterAll(async () => {
    await database?.close();
    await nats?.destroy();
  });

  busContract(() => ({
    database,
    makeBus: (clock) => new NatsChangeBus(database.db, { url: nats.url, ...(clock ? { clock } : {}) }),
    sendForeign: async (payloads) => {
      const connection = await connect({ servers: nats.url });
      const js = connection.jetstream();
      for (const payload of payloads) await js.publish(NATS_SUBJECT, new TextEncoder().encode(payload));
      await connection.close();
    },
  }));
});
