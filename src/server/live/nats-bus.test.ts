import { createServer, connect as connectTcp, type Socket } from 'node:net';
import { count, sql } from 'drizzle-orm';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.js';
import { busOutbox } from '../db/schema.js';
import { freePort } from '../test/http-client.js';
import { createPrivateNats } from '../test/private-nats.js';
import { openTestDatabase } from '../test/test-database.js';
import type { BusMessage } from './bus.js';
import { NATS_STREAM, NatsChangeBus } from './nats-bus.js';

/** The outbox and the relay of the NATS bus, on a NATS server and a PostgreSQL database of the test's own. */
describe('the NATS bus outbox and relay [postgres]', () => {
  let nats: ReturnType<typeof createPrivateNats>;
  let database: Database;
  let admin: NatsConnection;
  let jsm: JetStreamManager;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    nats = createPrivateNats(await freePort());
    await nats.start();
    database = await openTestDatabase('postgres');
    admin = await connect({ servers: nats.url });
    jsm = await admin.jetstreamManager();
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await admin?.close();
    await database?.close();
    await nats?.destroy();
  });

  /** A bus whose sweep never runs by itself during a test: the test runs the relay. */
  async function quietBus(): Promise<NatsChangeBus> {
    const bus = new NatsChangeBus(database.db, { url: nats.url, sweepMs: 3_600_000 });
    stops.push(await bus.listen());
    await bus.relayed();
    return bus;
  }

  const streamMessages = async () => (await jsm.streams.info(NATS_STREAM)).state.messages;
  const outboxRows = async () => (await database.db.select({ n: count() }).from(busOutbox))[0]?.n;
  const changed = (topic: string): BusMessage => ({ type: 'changed', topic });

  it('a rolled-back write leaves nothing in the outbox and publishes nothing', async () => {
    const bus = await quietBus();
    const before = await streamMessages();
    await database.db
      .transaction(async (tx) => {
        await bus.send(tx, [changed('rolled-back')]);
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.execute(sql`select ${bus.sendingIn([changed('failed')])}, 1 / 0`).catch(() => {});
    expect(await outboxRows()).toBe(0);
    expect(await bus.relay()).toBe(0);
    expect(await streamMessages()).toBe(before);
  });

  it('a committed write is published exactly once, even when the relay dies between publishing and deleting', async () => {
    const bus = await quietBus();
    const other = await quietBus();
    const heard: BusMessage[] = [];
    other.on('changed', (m) => heard.push(m));
    const before = await streamMessages();
    await database.db.transaction((tx) => bus.send(tx, [changed('once')]));
    expect(await outboxRows()).toBe(1);

    // Published, then the relay's transaction dies before its delete: the row is still there.
    await expect(
      bus.relay({
        beforeDelete: () => {
          throw new Error('crash between publish and delete');
        },
      }),
    ).rejects.toThrow('crash');
    expect(await outboxRows()).toBe(1);
    expect(await streamMessages()).toBe(before + 1);

    // Another instance's relay publishes it again: JetStream drops the duplicate (same message id), and it is gone.
    expect(await other.relay()).toBe(1);
    expect(await outboxRows()).toBe(0);
    expect(await streamMessages()).toBe(before + 1);
    expect(await bus.relay()).toBe(0);
    await vi.waitFor(() => expect(heard).toEqual([changed('once')]));
  });

  it('relays running side by side on several instances publish each committed change once', async () => {
    const buses = [await quietBus(), await quietBus(), await quietBus()];
    const before = await streamMessages();
    const writes = 60;
    await Promise.all(
      Array.from({ length: writes }, (_, i) =>
        database.db.transaction((tx) => (buses[i % 3] as NatsChangeBus).send(tx, [changed(`w${i}`)])),
      ),
    );
    // Each instance relaying twice at once, as its kick and its sweep may.
    await Promise.all(buses.flatMap((bus) => [bus.relay({}, 7), bus.relay({}, 7)]));
    expect(await outboxRows()).toBe(0);
    expect(await streamMessages()).toBe(before + writes);
  });

  it('after its commit a writer delivers at once and its relay publishes without being asked twice', async () => {
    const bus = new NatsChangeBus(database.db, { url: nats.url });
    stops.push(await bus.listen());
    const other = await quietBus();
    const local: BusMessage[] = [];
    const heard: BusMessage[] = [];
    bus.on('changed', (m) => local.push(m));
    other.on('changed', (m) => heard.push(m));
    const messages = [changed('kicked')];
    await database.db.transaction((tx) => bus.send(tx, messages));
    bus.afterCommit(messages);
    expect(local).toEqual(messages);
    await vi.waitFor(() => expect(heard).toEqual(messages));
    expect(await outboxRows()).toBe(0);
  });
});

describe('the NATS bus when NATS comes back without the stream [postgres]', () => {
  let nats: ReturnType<typeof createPrivateNats>;
  let database: Database;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    nats = createPrivateNats(await freePort());
    await nats.start();
    database = await openTestDatabase('postgres');
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await database?.close();
    await nats?.destroy();
  });

  it('reloads every topic (onResync), reads the stream made again, and hears later changes', async () => {
    const writer = new NatsChangeBus(database.db, { url: nats.url });
    const reader = new NatsChangeBus(database.db, { url: nats.url });
    stops.push(await writer.listen(), await reader.listen());
    const heard: BusMessage[] = [];
    let resyncs = 0;
    reader.on('changed', (m) => heard.push(m));
    reader.onResync(() => resyncs++);
    const send = async (topic: string) => {
      const messages: BusMessage[] = [{ type: 'changed', topic }];
      await database.db.transaction((tx) => writer.send(tx, messages));
      writer.afterCommit(messages);
    };
    await send('before');
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'changed', topic: 'before' }]));

    await nats.wipe();
    await nats.start();
    await vi.waitFor(() => expect(resyncs).toBe(1), { timeout: 15_000, interval: 100 });
    await send('after');
    await vi.waitFor(
      () =>
        expect(heard).toEqual([
          { type: 'changed', topic: 'before' },
          { type: 'changed', topic: 'after' },
        ]),
      { timeout: 15_000, interval: 100 },
    );
    expect(resyncs).toBe(1);
  }, 60_000);
});

/** A TCP relay to NATS that a test can cut and restore: one instance loses NATS while the others keep it. */
function createCuttableProxy(target: number) {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connectTcp(target, '127.0.0.1');
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', end);
      socket.on('close', () => {
        sockets.delete(socket);
        end();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise<{
    url: string;
    cut(): void;
    restore(): void;
    close(): Promise<void>;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `nats://127.0.0.1:${port}`,
        cut() {
          open = false;
          for (const socket of sockets) socket.destroy();
        },
        restore() {
          open = true;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

describe('the NATS bus when one instance loses NATS for a while [postgres]', () => {
  let nats: ReturnType<typeof createPrivateNats>;
  let natsPort: number;
  let database: Database;
  let proxy: Awaited<ReturnType<typeof createCuttableProxy>>;
  let admin: NatsConnection;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    natsPort = await freePort();
    nats = createPrivateNats(natsPort);
    await nats.start();
    database = await openTestDatabase('postgres');
    proxy = await createCuttableProxy(natsPort);
    admin = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await admin?.close();
    await proxy?.close();
    await database?.close();
    await nats?.destroy();
  });

  async function pair() {
    const writer = new NatsChangeBus(database.db, { url: nats.url });
    // The reader reaches NATS through the proxy: cutting it disconnects the reader alone.
    const reader = new NatsChangeBus(database.db, { url: proxy.url });
    stops.push(await writer.listen(), await reader.listen());
    const heard: string[] = [];
    const resyncs: number[] = [];
    reader.on('changed', (m) => heard.push(m.topic));
    reader.onResync(() => resyncs.push(heard.length));
    const send = async (topic: string) => {
      const messages: BusMessage[] = [{ type: 'changed', topic }];
      await database.db.transaction((tx) => writer.send(tx, messages));
      writer.afterCommit(messages);
      await writer.relayed();
    };
    return { heard, resyncs, send };
  }

  it('resumes after the last change it handled: what was published meanwhile arrives, nothing reloads', async () => {
    const { heard, resyncs, send } = await pair();
    await send('before');
    await vi.waitFor(() => expect(heard).toEqual(['before']));
    proxy.cut();
    for (const topic of ['meanwhile-1', 'meanwhile-2', 'meanwhile-3']) await send(topic);
    // Published (the writer's relay is done), and not heard while cut off.
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['before']);
    proxy.restore();
    await vi.waitFor(() => expect(heard).toEqual(['before', 'meanwhile-1', 'meanwhile-2', 'meanwhile-3']), {
      timeout: 20_000,
      interval: 100,
    });
    expect(resyncs).toEqual([]);
  }, 60_000);

  it('when the stream no longer has what it missed, reloads every topic (onResync) and goes on', async () => {
    const { heard, resyncs, send } = await pair();
    await send('first');
    await vi.waitFor(() => expect(heard).toEqual(['first']));
    proxy.cut();
    await send('lost-1');
    await send('lost-2');
    // Gone from the stream before the reader is back (as changes older than its limits are).
    await (await admin.jetstreamManager()).streams.purge(NATS_STREAM);
    proxy.restore();
    await send('later');
    await vi.waitFor(() => expect(heard).toEqual(['first', 'later']), { timeout: 20_000, interval: 100 });
    // Told before the change that followed the gap.
    expect(resyncs).toEqual([1]);
  }, 60_000);
});

describe('the NATS bus at start-up [postgres]', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });

  afterAll(async () => {
    await database?.close();
  });

  it('does not start when nothing answers at BUS_URL, saying so', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const bus = new NatsChangeBus(database.db, { url });
    await expect(bus.listen()).rejects.toThrow(`NATS at ${url} (BUS_URL) does not answer`);
  });

  it('does not start on a NATS server without JetStream, saying so', async () => {
    const plain = createPrivateNats(await freePort(), { jetstream: false });
    await plain.start();
    try {
      const bus = new NatsChangeBus(database.db, { url: plain.url });
      await expect(bus.listen()).rejects.toThrow('is JetStream on');
    } finally {
      await plain.destroy();
    }
  });
});
