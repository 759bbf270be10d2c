// Notifications (issue 31), in `npm run bench` (or alone: BENCH_ONLY=notifications):
// - what enqueueing a notice adds to placing an order: the order route of the app with NOTIFICATIONS=off against the
//   same app enqueueing (its worker off, so that only the enqueue is measured), taking turns on the same database;
// - how many notices a second the worker sends to an SMTP server (smtp-server, in this process) through nodemailer.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/server/app.js';
import type { Database } from '../src/server/db/database.js';
import { notificationOutbox, orders } from '../src/server/db/schema.js';
import { loadConfig } from '../src/server/lib/config.js';
import { drainNotices } from '../src/server/notifications/worker.js';
import { SmtpWorld } from '../src/server/test/smtp-world.js';
import { percentile, startApp, type BenchRow, type Proc } from './lib.js';
import { orderRequest, type BenchData } from './seed.js';

const quick = process.env.BENCH_QUICK === '1';
/** Orders per app per turn, one after the other. */
const PER_TURN = quick ? 20 : 60;
const TURNS = 2;
/** Notices the worker sends in its measure. */
const NOTICES = quick ? 100 : 400;

type RecordRow = (row: BenchRow) => void;

/** Places `count` orders one after the other, customers from `first` on; each submit's latency in ms. */
async function submits(
  app: Proc,
  data: BenchData,
  first: number,
  count: number,
  tag: string,
): Promise<number[]> {
  const times: number[] = [];
  for (let n = first; n < first + count; n++) {
    const request = orderRequest(data, n, tag);
    const start = performance.now();
    const res = await fetch(`${app.url}/api/orders`, { method: 'POST', ...request });
    await res.arrayBuffer();
    times.push(performance.now() - start);
    if (res.status !== 201) throw new Error(`an order answered ${res.status}`);
  }
  return times;
}

/** The enqueue's cost: NOTIFICATIONS=off and on take turns, each turn with customers of its own. */
export async function enqueueBench(
  env: Record<string, string>,
  data: BenchData,
  engine: string,
  record: RecordRow,
): Promise<void> {
  if (data.customerTokens.length < 2 * TURNS * PER_TURN) throw new Error('not enough bench customers');
  const samples = { off: [] as number[], on: [] as number[] };
  let customer = 0;
  for (let turn = 0; turn < TURNS; turn++)
    for (const mode of ['off', 'on'] as const) {
      const app = await startApp({
        ...env,
        NOTIFICATIONS: mode,
        // No worker: what is measured is the enqueue in the order's statement.
        NOTIFY_POLL_SECONDS: '0',
      });
      try {
        await submits(app, data, customer, 3, `warm-${mode}-${turn}`).catch(() => []);
        customer += 3;
        samples[mode].push(...(await submits(app, data, customer, PER_TURN, `${mode}-${turn}`)));
        customer += PER_TURN;
      } finally {
        await app.stop();
      }
    }
  for (const p of [50, 99] as const)
    record({
      measure: `notifications: order submit p${p} (vs NOTIFICATIONS=off)`,
      engine,
      value: percentile(samples.on, p),
      unit: 'ms',
      baseline: percentile(samples.off, p),
    });
}

/**
 * The worker's rate: `NOTICES` new-order notices (of orders placed above) in the outbox, sent by one worker to an
 * SMTP server in this process; notices a second, from the first claim to the last mail marked done.
 */
export async function workerBench(
  database: Database,
  env: Record<string, string>,
  data: BenchData,
  engine: string,
  record: RecordRow,
): Promise<void> {
  const smtp = new SmtpWorld();
  const smtpUrl = await smtp.start();
  const placed = await database.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.kitchenId, data.kitchenUid));
  if (placed.length === 0) throw new Error('no orders to tell of');
  await database.db.delete(notificationOutbox);
  await database.db.insert(notificationOutbox).values(
    Array.from({ length: NOTICES }, (_, i) => ({
      key: `bench:${randomUUID()}`,
      recipientId: data.kitchenUid,
      kind: 'order-new' as const,
      subjectId: placed[i % placed.length]!.id,
    })),
  );
  const app = await buildApp({
    config: loadConfig({
      ...env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      GEOCODER: 'off',
      PAYMENTS: 'off',
      SMTP_URL: smtpUrl,
      NOTIFY_POLL_SECONDS: '0',
    }),
    database,
    webDir: '/nonexistent',
  });
  try {
    await app.ready();
    const start = performance.now();
    await drainNotices(app);
    const seconds = (performance.now() - start) / 1000;
    if (smtp.received.length !== NOTICES)
      throw new Error(`${smtp.received.length} of ${NOTICES} mails arrived`);
    record({
      measure: `notifications: worker to SMTP, notices/s (${NOTICES})`,
      engine,
      value: NOTICES / seconds,
      unit: 'notices/s',
    });
  } finally {
    await app.close();
    await smtp.close();
  }
}
