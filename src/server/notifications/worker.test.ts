import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { buildApp } from '../app.js';
import { openPglite, openPostgres, type Database } from '../db/database.js';
import { notificationOutbox, pushSubscriptions } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import { buildKitchen, buildMenuItem } from '../test/builders.js';
import { FakeClock } from '../test/fake-clock.js';
import { startLocalPushService, type LocalPushService } from '../test/local-push-service.js';
import { SmtpWorld } from '../test/smtp-world.js';
import { describeEachEngine, signedIn, testConfig, type TestContext } from '../test/test-app.js';
import { createPgDatabase, ENGINES } from '../test/test-database.js';
import { createPusher } from './push/pusher.js';
import {
  backoffMs,
  claimNotices,
  DIGEST_WAIT_MS,
  drainNotices,
  runNoticesOnce,
  SENT_NOTICE_RETENTION_MS,
  sentNoticeSweeper,
  SWEEP_EVERY_MS,
} from './worker.js';

/** The apps' clock: now, moved on by the tests (the outbox's times are the database's, close to it). */
const fake = new FakeClock();
let offset = 0;
const clock: Clock = {
  now: () => Date.now() + offset,
  sleep: (ms) => fake.sleep(ms),
  timeout: (ms) => fake.timeout(ms),
};

const smtp = new SmtpWorld();
// The local push service is on loopback: pushes there are allowed in tests (never in production).
const env: Record<string, string> = { PUSH_PRIVATE_ADDRESSES: 'allow' };
let pushService: LocalPushService;
beforeAll(async () => {
  env.SMTP_URL = await smtp.start();
  pushService = await startLocalPushService();
});
afterAll(async () => {
  await smtp.close();
  await pushService.close();
});

/** A kitchen with a dish, and a customer who ordered it (cash, for delivery): both sides' addresses. */
async function orderWorld(ctx: TestContext) {
  const cook = await buildKitchen(ctx, { name: `Notice Kitchen ${randomUUID().slice(0, 6)}` });
  const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: '9.50' });
  const customer = await signedIn(ctx, 'customer');
  const placed = await ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie: customer.cookie },
    payload: {
      kitchenUid: cook.kitchen.uid,
      itemIds: [dal.id, dal.id],
      address: '4 Lane',
      idempotencyKey: randomUUID(),
    },
    remoteAddress: `2001:db8::7:${Math.floor(Math.random() * 0xffff).toString(16)}`,
  });
  expect(placed.statusCode).toBe(201);
  return { cook, customer, order: placed.json<CustomerOrder>() };
}

const move = (ctx: TestContext, cookie: string, id: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/kitchen/orders/${id}/moves`, headers: { cookie }, payload });

describeEachEngine(
  'the notification worker, through a real SMTP server',
  (get) => {
    // Each test starts at the real time: the outbox's rows are stamped by the database's clock.
    beforeEach(() => {
      offset = 0;
    });
    it('tells the cook of a new order and the customer of each step the kitchen makes, each once', async () => {
      const ctx = get();
      const { cook, customer, order } = await orderWorld(ctx);
      await drainNotices(ctx.app);
      expect(smtp.to(cook.user.email).map((m) => m.subject)).toEqual([expect.stringContaining('Dal × 2')]);
      for (const step of [{ move: 'accept', readyInMinutes: 30 }, { move: 'prepare' }, { move: 'dispatch' }])
        expect((await move(ctx, cook.cookie, order.id, step)).statusCode).toBe(200);
      expect((await move(ctx, cook.cookie, order.id, { move: 'deliver' })).statusCode).toBe(200);
      await drainNotices(ctx.app);
      await drainNotices(ctx.app);
      // Accepted, on its way, delivered, and the receipt of the cash collected: 'preparing' is not worth a mail.
      const mails = smtp.to(customer.user.email);
      expect(mails).toHaveLength(4);
      expect(new Set(mails.map((m) => m.messageId)).size).toBe(4);
      expect(smtp.to(cook.user.email)).toHaveLength(1);
      const rows = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.subjectId, order.id));
      expect(rows).toHaveLength(5);
      expect(rows.every((r) => r.emailDoneAt !== null && r.pushDoneAt !== null && r.attempts === 1)).toBe(
        true,
      );
    });

    it("tells the kitchen of a customer's cancellation, and the customer of a decline", async () => {
      const ctx = get();
      const first = await orderWorld(ctx);
      const cancelled = await ctx.app.inject({
        method: 'POST',
        url: `/api/orders/${first.order.id}/cancel`,
        headers: { cookie: first.customer.cookie },
        payload: { reason: 'Plans changed' },
      });
      expect(cancelled.statusCode).toBe(200);
      const second = await orderWorld(ctx);
      expect(
        (await move(ctx, second.cook.cookie, second.order.id, { move: 'decline', reason: 'Out of lentils' }))
          .statusCode,
      ).toBe(200);
      await drainNotices(ctx.app);
      // The cook of the first: its new order, then its cancellation; its customer, who cancelled, nothing.
      expect(smtp.to(first.cook.user.email)).toHaveLength(2);
      expect(smtp.to(first.customer.user.email)).toHaveLength(0);
      const declined = smtp.to(second.customer.user.email);
      expect(declined).toHaveLength(1);
      expect(declined[0]?.raw).toContain('Out of lentils');
    });

    it('loses nothing to an SMTP outage of 30 s: retried with backoff, each mail arrives once after', async () => {
      const ctx = get();
      smtp.down = true;
      try {
        const { cook } = await orderWorld(ctx);
        await runNoticesOnce(ctx.app);
        const [row] = await ctx.database.db
          .select()
          .from(notificationOutbox)
          .where(eq(notificationOutbox.recipientId, cook.user.id));
        expect(row).toMatchObject({ attempts: 1, emailDoneAt: null });
        expect(row?.lastError).toBeTruthy();
        offset += backoffMs(1) + 1000; // 16 s: still down
        await runNoticesOnce(ctx.app);
        offset += backoffMs(2) + 1000; // 47 s: back up
        smtp.down = false;
        await drainNotices(ctx.app);
        expect(smtp.to(cook.user.email)).toHaveLength(1);
        await drainNotices(ctx.app);
        expect(smtp.to(cook.user.email)).toHaveLength(1);
      } finally {
        smtp.down = false;
      }
    });

    it('folds a flood of reports about a kitchen into one digest, sent once they have waited', async () => {
      const ctx = get();
      const cook = await buildKitchen(ctx, { name: `Reported ${randomUUID().slice(0, 6)}` });
      for (let i = 0; i < 5; i++) {
        const reporter = await signedIn(ctx, 'customer');
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/reports',
          headers: { cookie: reporter.cookie },
          payload: { targetKind: 'kitchen', targetId: cook.kitchen.uid, reason: `Report number ${i}` },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      await drainNotices(ctx.app);
      expect(smtp.to(cook.user.email)).toHaveLength(0);
      offset += DIGEST_WAIT_MS + 1000;
      await drainNotices(ctx.app);
      await drainNotices(ctx.app);
      const digests = smtp.to(cook.user.email);
      expect(digests).toHaveLength(1);
      expect(digests[0]?.subject).toContain('5');
    });

    it('pushes each device once though another fails: its retries push to it alone', async () => {
      const ctx = get();
      const { cook } = await orderWorld(ctx);
      const pusher = await createPusher(ctx.app.config, ctx.app.log, { ca: pushService.cert });
      const devices = [pushService.subscribe(), pushService.subscribe(), pushService.subscribe()];
      // One at a time, in this order: the failing one in the middle.
      for (const [i, device] of devices.entries())
        await ctx.database.db
          .insert(pushSubscriptions)
          .values({ userId: cook.user.id, name: `Device ${i}`, ...device });
      const [first, failing, last] = devices.map((d) => d.endpoint) as [string, string, string];
      const pushes = (endpoint: string) => pushService.received.filter((p) => p.endpoint === endpoint);
      const before = ctx.app.notices.pusher;
      ctx.app.notices.pusher = pusher;
      pushService.answer(failing, 500);
      try {
        await runNoticesOnce(ctx.app);
        expect([first, failing, last].map((e) => pushes(e).length)).toEqual([1, 1, 1]);
        offset += backoffMs(1) + 1000;
        await runNoticesOnce(ctx.app);
        expect([first, failing, last].map((e) => pushes(e).length)).toEqual([1, 2, 1]);
        pushService.answer(failing, 201);
        offset += backoffMs(2) + 1000;
        await drainNotices(ctx.app);
        offset += backoffMs(3) + 1000;
        await drainNotices(ctx.app);
      } finally {
        ctx.app.notices.pusher = before;
      }
      expect(pushes(first).map((p) => p.status)).toEqual([201]);
      expect(pushes(failing).map((p) => p.status)).toEqual([500, 500, 201]);
      expect(pushes(last).map((p) => p.status)).toEqual([201]);
      const [row] = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.recipientId, cook.user.id));
      expect(row).toMatchObject({ attempts: 3 });
      expect(row?.pushDoneAt).not.toBeNull();
      // The mail went once, on the first attempt.
      expect(smtp.to(cook.user.email)).toHaveLength(1);
    });

    it("removes a device whose endpoint resolves into the server's own network, and posts nothing there", async () => {
      const ctx = get();
      const { cook } = await orderWorld(ctx);
      // What production has: no pushes to addresses of the network (the tests' env allows them).
      const pusher = await createPusher(testConfig({}), ctx.app.log, {
        lookup: (_host, _options, callback) => callback(null, [{ address: '10.0.0.5', family: 4 }]),
      });
      const device = pushService.subscribe();
      const endpoint = 'https://push.10.0.0.5.nip.io/push/x';
      await ctx.database.db.insert(pushSubscriptions).values({ userId: cook.user.id, ...device, endpoint });
      const before = ctx.app.notices.pusher;
      ctx.app.notices.pusher = pusher;
      try {
        await drainNotices(ctx.app);
      } finally {
        ctx.app.notices.pusher = before;
      }
      expect(
        await ctx.database.db
          .select()
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.endpoint, endpoint)),
      ).toEqual([]);
      const [row] = await ctx.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.recipientId, cook.user.id));
      expect(row).toMatchObject({ attempts: 1, lastError: null });
      expect(row?.pushDoneAt).not.toBeNull();
    });

    it('resumes after a worker died holding a notice: none lost, none sent twice', async () => {
      const ctx = get();
      const { cook } = await orderWorld(ctx);
      // A worker claims the notice, then its process dies before sending.
      const claimed = await claimNotices(ctx.app, new Date(clock.now()), 50);
      expect(claimed.map((r) => r.recipientId)).toContain(cook.user.id);
      // While its lease runs, nobody else takes it.
      await drainNotices(ctx.app);
      expect(smtp.to(cook.user.email)).toHaveLength(0);
      offset += ctx.app.config.notifications.leaseMs + 1000;
      await drainNotices(ctx.app);
      expect(smtp.to(cook.user.email)).toHaveLength(1);
      await drainNotices(ctx.app);
      expect(smtp.to(cook.user.email)).toHaveLength(1);
    });
  },
  env,
  { clock },
);

describe.each(ENGINES)('two instances sharing the outbox [%s]', (engine) => {
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (engine === 'postgres') {
      const created = await createPgDatabase();
      drop = created.drop;
      databases.push(await openPostgres(created.url), await openPostgres(created.url));
    } else {
      // The embedded database lives in one process: two apps on it stand for its one server's workers.
      const database = await openPglite('memory://');
      databases.push(database, database);
    }
    for (const database of databases) {
      const app = await buildApp({ config: testConfig(env), database, webDir: '/nonexistent', clock });
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of new Set(databases)) await database.close();
    await drop?.();
  });

  it('sends each notice once, whichever instance takes it', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const ctx = (app: FastifyInstance, database: Database) =>
      ({ engine, app, database, config: app.config }) as TestContext;
    const worlds = [];
    for (let i = 0; i < 12; i++) worlds.push(await orderWorld(ctx(i % 2 ? two : one, databases[i % 2]!)));
    await Promise.all([drainNotices(one), drainNotices(two), drainNotices(one), drainNotices(two)]);
    for (const { cook } of worlds) expect(smtp.to(cook.user.email)).toHaveLength(1);
  });

  it('sends each mail once when a slow relay makes a round outlast its lease and another instance takes over', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const ctx = (app: FastifyInstance, database: Database) =>
      ({ engine, app, database, config: app.config }) as TestContext;
    const worlds = [];
    for (let i = 0; i < 4; i++) worlds.push(await orderWorld(ctx(one, databases[0]!)));
    const lease = one.config.notifications.leaseMs;
    // Each mail takes the relay 40 % of a lease (under SMTP's timeouts): the third begins after the round's lease
    // on the batch it claimed ran out, and while it is on its way the other instance runs a round.
    let mails = 0;
    let other: Promise<void> | undefined;
    smtp.onMail = async () => {
      offset += lease * 0.4;
      mails++;
      if (mails === 3) {
        other = drainNotices(two);
        await other;
      }
    };
    try {
      await drainNotices(one);
      await other;
      expect(other).toBeDefined();
      // Long after every lease: nothing is left to send again.
      offset += lease * 3;
      await Promise.all([drainNotices(one), drainNotices(two)]);
    } finally {
      smtp.onMail = undefined;
      offset = 0;
    }
    for (const { cook } of worlds) expect(smtp.to(cook.user.email)).toHaveLength(1);
  });
});

/** A clock that moves only when the test says, from now. */
const sweepClock = new FakeClock();
sweepClock.advance(Date.now());

describeEachEngine(
  'sent notices are swept after their retention',
  (get) => {
    const DAY = 24 * 3600_000;
    it(`deletes those sent more than ${SENT_NOTICE_RETENTION_MS / DAY} days ago, at most once an hour, and nothing not sent`, async () => {
      const ctx = get();
      const recipient = await signedIn(ctx, 'customer');
      const ago = (days: number) => new Date(sweepClock.now() - days * DAY);
      const notice = (name: string, emailDoneAt: Date | null, pushDoneAt: Date | null) => ({
        key: `sweep:${name}:${randomUUID()}`,
        recipientId: recipient.user.id,
        kind: 'order-new' as const,
        subjectId: randomUUID(),
        emailDoneAt,
        pushDoneAt,
      });
      const rows = {
        old: notice('old', ago(31), ago(31)),
        recent: notice('recent', ago(29), ago(29)),
        // Sent when its last channel was done: 29 days ago.
        lastChannelRecent: notice('last-channel-recent', ago(40), ago(29)),
        // Not sent yet (its push still to go), however old.
        halfDone: notice('half-done', ago(40), null),
        pending: notice('pending', null, null),
      };
      await ctx.database.db.insert(notificationOutbox).values(Object.values(rows));
      const left = async () =>
        (
          await ctx.database.db
            .select({ key: notificationOutbox.key })
            .from(notificationOutbox)
            .where(eq(notificationOutbox.recipientId, recipient.user.id))
        )
          .map((r) => r.key)
          .sort();
      const keys = (...names: (keyof typeof rows)[]) => names.map((name) => rows[name].key).sort();

      const sweep = sentNoticeSweeper(ctx.app);
      await sweep();
      expect(await left()).toEqual(keys('recent', 'lastChannelRecent', 'halfDone', 'pending'));
      // Within the hour of the last sweep: not yet.
      const older = notice('older', ago(45), ago(45));
      await ctx.database.db.insert(notificationOutbox).values(older);
      sweepClock.advance(SWEEP_EVERY_MS - 1000);
      await sweep();
      expect(await left()).toContain(older.key);
      // An hour after it: swept. Two days later, the 29 days old are past their 30 too.
      sweepClock.advance(1000);
      await sweep();
      expect(await left()).toEqual(keys('recent', 'lastChannelRecent', 'halfDone', 'pending'));
      sweepClock.advance(2 * DAY);
      await sweep();
      expect(await left()).toEqual(keys('halfDone', 'pending'));
    });
  },
  {},
  { clock: sweepClock },
);
