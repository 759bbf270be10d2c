import { sql } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { CHANGES_CHANNEL } from '../db/database.js';
import { FakeClock } from '../test/fake-clock.js';
import { describeEachEngine } from '../test/test-app.js';
import { ChangeBus, type BusMessage } from './bus.js';

describeEachEngine('the change bus', (get) => {
  it('delivers typed messages of committed transactions only, and ignores payloads that are not ours', async () => {
    const { database } = get();
    const bus = new ChangeBus(database);
    const received: BusMessage[] = [];
    bus.on('changed', (m) => received.push(m));
    bus.on('session-ended', (m) => received.push(m));
    const stop = await bus.listen();
    try {
      await database.db
        .transaction(async (tx) => {
          await bus.send(tx, [{ type: 'changed', topic: 'rolled-back' }]);
          throw new Error('roll back');
        })
        .catch(() => {});
      // Another program on the channel, or an older instance's plain topic name.
      await database.db.execute(
        sql`select pg_notify(${CHANGES_CHANNEL}, 'kitchens'), pg_notify(${CHANGES_CHANNEL}, '{"type":"drop"}')`,
      );
      await database.db.transaction((tx) =>
        bus.send(tx, [
          { type: 'changed', topic: 'menu:1' },
          { type: 'session-ended', sessionHash: 'abc' },
        ]),
      );
      await vi.waitFor(() => expect(received).toHaveLength(2));
      expect(received).toEqual([
        { type: 'changed', topic: 'menu:1' },
        { type: 'session-ended', sessionHash: 'abc' },
      ]);
    } finally {
      await stop();
    }
  });

  it('tells how late each message arrives after it was sent (the metrics show it)', async () => {
    const { database } = get();
    const clock = new FakeClock();
    const bus = new ChangeBus(database, clock);
    const lags: number[] = [];
    bus.onLag((ms) => lags.push(ms));
    const stop = await bus.listen();
    try {
      await database.db.transaction(async (tx) => {
        await bus.send(tx, [{ type: 'changed', topic: 'lag' }]);
        clock.advance(40);
      });
      await vi.waitFor(() => expect(lags).toEqual([40]));
    } finally {
      await stop();
    }
  });
});
