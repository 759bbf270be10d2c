// `npm run bench`: throughput, live fan-out, memory and page weight, each beside a baseline measured in the
// same run. Loopback only; bounded in time. Prints a table and writes bench/results/latest.json.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { openPglite, openPostgres } from '../src/server/db/database.js';
import { orders } from '../src/server/db/schema.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { measureFanOut } from './fan-out-measure.js';
import { httpLoad } from './http-load.js';
import {
  load,
  root,
  rssMiB,
  sleep,
  startApp,
  startBare,
  startBareOrders,
  type BenchRow,
  type Proc,
} from './lib.js';
import { pageWeight } from './page-weight.js';
import { languageWeight } from './languages.js';
import { labelsBench } from './labels.js';
import { pictureWeight } from './picture-weight.js';
import { searchBench } from './search.js';
import { landingBench } from './landing.js';
import { clusterBench } from './cluster.js';
import { busBench } from './bus.js';
import {
  connectBenchKitchen,
  menuReadRate,
  paymentsBench,
  recordMenuWithPayments,
  startProvider,
} from './payments.js';
import { orderRequest, seedBench, type BenchData } from './seed.js';
import { prepareSlotsKitchen, slotsBench } from './slots.js';
import { enqueueBench, workerBench } from './notifications.js';

const quick = process.env.BENCH_QUICK === '1';
const DURATION = quick ? 3 : 8;
const FANOUT_SIZES = quick ? [200] : [1000, 10_000];
const WRITES = quick ? 10 : 50;
const ORDERS =
  quick || ['pages', 'page-reads', 'slots', 'notifications'].includes(process.env.BENCH_ONLY ?? '')
    ? 300
    : 3000;
/** `BENCH_ONLY=orders`: just the order benchmark and its bare baseline, on both engines. */
const ordersOnly = process.env.BENCH_ONLY === 'orders';
/** `BENCH_ONLY=payments`: the payment steps against cash orders, and menu reads with payments on and off. */
const paymentsOnly = process.env.BENCH_ONLY === 'payments';
/**
 * `BENCH_ONLY=pages`: the server-rendered pages (issue 18): `/` as HTML against the kitchens list as JSON in the
 * same run, on both engines, and the first view's weight and Lighthouse scores.
 */
const pagesOnly = process.env.BENCH_ONLY === 'pages' || process.env.BENCH_ONLY === 'page-reads';
/** `BENCH_ONLY=page-reads`: the reads of `pages` alone (no page weight or Lighthouse, which take minutes). */
const pageReadsOnly = process.env.BENCH_ONLY === 'page-reads';
/** `BENCH_ONLY=slots`: a kitchen's slots (15-minute slots, 5 days ahead) against its menu, interleaved. */
const slotsOnly = process.env.BENCH_ONLY === 'slots';
/** `BENCH_ONLY=notifications`: the enqueue's cost on the order route, and the worker's rate to an SMTP server. */
const notificationsOnly = process.env.BENCH_ONLY === 'notifications';
/** `BENCH_ONLY=landing`: the landing page a page at a time at 50, 10,000 and 100,000 kitchens (bench/landing.ts). */
const landingOnly = process.env.BENCH_ONLY === 'landing';
/** `BENCH_ONLY=cluster`: orders/s and fan-out through nginx with 1 and 3 instances (bench/cluster.ts). */
const clusterOnly = process.env.BENCH_ONLY === 'cluster';
/** `BENCH_ONLY=languages`: the first view's bytes in each language against English (bench/languages.ts). */
const languagesOnly = process.env.BENCH_ONLY === 'languages';
/** `BENCH_ONLY=bus`: the change bus, LISTEN/NOTIFY against NATS JetStream, on three instances (bench/bus.ts). */
const busOnly = process.env.BENCH_ONLY === 'bus';
/** `BENCH_ONLY=labels`: a 40-dish prep sheet as PDF against a one-dish label (bench/labels.ts). */
const labelsOnly = process.env.BENCH_ONLY === 'labels';
const only = labelsOnly
  ? 'labels'
  : languagesOnly
    ? 'languages'
    : busOnly
      ? 'bus'
      : clusterOnly
        ? 'cluster'
        : landingOnly
          ? 'landing'
          : notificationsOnly
            ? 'notifications'
            : ordersOnly
              ? 'orders'
              : pagesOnly
                ? (process.env.BENCH_ONLY as 'pages' | 'page-reads')
                : paymentsOnly
                  ? 'payments'
                  : slotsOnly
                    ? 'slots'
                    : undefined;

type Row = BenchRow;
const rows: Row[] = [];
const record = (row: Row) => {
  rows.push(row);
  const ratio = row.baseline
    ? ` (${((row.value / row.baseline) * 100).toFixed(0)}% of baseline ${row.baseline.toFixed(0)})`
    : '';
  console.log(
    `  ${row.engine.padEnd(9)} ${row.measure.padEnd(46)} ${row.value.toFixed(1).padStart(10)} ${row.unit}${ratio}${row.target ? ` target ${row.target}: ${row.ok ? 'met' : 'MISSED'}` : ''}`,
  );
};

async function readBench(
  app: Proc,
  data: BenchData,
  engine: string,
  baseline: number,
  env: Record<string, string>,
): Promise<number[]> {
  const rates: number[] = [];
  for (const [name, path] of [
    ['reads: kitchens list (50), req/s', '/api/kitchens'],
    ['reads: one menu (30 items), req/s', `/api/kitchens/${data.kitchenUid}/menu`],
  ] as const) {
    if (pagesOnly) continue;
    await load({ url: `${app.url}${path}`, connections: 20, duration: 1 }); // warm up
    const r = await load({ url: `${app.url}${path}`, connections: 100, pipelining: 10, duration: DURATION });
    if (r.non2xx || r.errors) console.log(`    (${r.non2xx} non-2xx, ${r.errors} errors)`);
    rates.push(r.requestsPerSec);
    record({
      measure: name,
      engine,
      value: r.requestsPerSec,
      unit: 'req/s',
      baseline,
      target: '>= 50% of bare',
      ok: r.requestsPerSec >= baseline / 2,
    });
  }
  await pageReads(app, engine, env);
  return rates;
}

/**
 * The landing page as HTML (server-rendered from the same cache, rendered once per change), against the JSON
 * read the landing page makes instead (`/api/kitchens/first-page`, the newest 24 kitchens, from the topic cache) in
 * the same run: as browsers ask for it (Chrome's `gzip, deflate, br, zstd`: brotli is sent), gzip alone, and
 * without compression. The old read of every kitchen (`/api/kitchens`) is printed beside it. Measured in rounds,
 * each read in turn, so the machine's load falls on all of them alike; the rate is the rounds' mean. The client
 * skips bodies unread (bench/http-load.ts): autocannon decodes each one into a string, which for compressed bytes
 * costs it more than the server spends answering.
 */
async function pageReads(app: Proc, engine: string, env: Record<string, string>) {
  const ROUNDS = 2;
  // `BENCH_COMPARE_DIR`: a copy of another build (its dist/, drizzle/, package.json and node_modules) served beside
  // this one on the same database, its `/` measured in the same rounds: before and after a change, in one run.
  // PostgreSQL only (a PGlite database is one server's).
  const compareDir = env.DATABASE_URL ? process.env.BENCH_COMPARE_DIR : undefined;
  const other = compareDir ? await startApp(env, compareDir) : undefined;
  const reads: (readonly [string, string, string, Proc?])[] = [
    ['pages: first-page JSON (the baseline), req/s', '/api/kitchens/first-page', 'gzip, deflate, br, zstd'],
    ['pages: every kitchen JSON (old list), req/s', '/api/kitchens', 'gzip, deflate, br, zstd'],
    ['pages: / as HTML (br, as Chrome asks), req/s', '/', 'gzip, deflate, br, zstd'],
    ['pages: / as HTML (gzip), req/s', '/', 'gzip'],
    ['pages: / as HTML (uncompressed), req/s', '/', 'identity'],
  ];
  if (other)
    reads.push(
      ['pages: / as HTML (br), the other build, req/s', '/', 'gzip, deflate, br, zstd', other],
      ['pages: / as HTML (gzip), the other build, req/s', '/', 'gzip', other],
      ['pages: / as HTML (uncompressed), the other build, req/s', '/', 'identity', other],
    );
  const rates = new Map<string, number[]>();
  for (const [, path, encoding, server = app] of reads) {
    const res = await fetch(`${server.url}${path}`, {
      headers: { accept: 'text/html', 'accept-encoding': encoding },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    console.log(
      `    ${path} with ${encoding}: ${res.headers.get('content-encoding') ?? 'identity'}, ${res.headers.get('content-length')} bytes sent, ${bytes} decoded`,
    );
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, path, encoding, server = app] of reads) {
      const options = {
        url: `${server.url}${path}`,
        headers: { accept: path === '/' ? 'text/html' : 'application/json', 'accept-encoding': encoding },
      };
      await httpLoad({ ...options, connections: 20, pipelining: 1, duration: 1 }); // warm up
      const r = await httpLoad({ ...options, connections: 100, pipelining: 10, duration: DURATION });
      if (r.non2xx || r.errors) console.log(`    (${name}: ${r.non2xx} non-2xx, ${r.errors} errors)`);
      rates.set(name, [...(rates.get(name) ?? []), r.requestsPerSec]);
    }
  }
  const mean = (name: string) => {
    const values = rates.get(name) ?? [];
    return values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
  };
  await other?.stop();
  const json = mean(reads[0]![0]);
  record({ measure: reads[0]![0], engine, value: json, unit: 'req/s' });
  record({ measure: reads[1]![0], engine, value: mean(reads[1]![0]), unit: 'req/s', baseline: json });
  for (const [name, , encoding] of reads.slice(2)) {
    const share = encoding === 'identity' ? 0.5 : 1;
    const value = mean(name);
    record({
      measure: name,
      engine,
      value,
      unit: 'req/s',
      baseline: json,
      target: `>= ${share * 100}% of first-page JSON`,
      ok: value >= json * share,
    });
  }
}

/**
 * 50 customers place their order at once. `bare` measures the baseline route (bench/bare-orders-server.ts) and
 * returns its rate; otherwise the app's route is measured against `bareRate`.
 */
async function orderBench(
  app: Proc,
  data: BenchData,
  engine: string,
  { bare = false, bareRate }: { bare?: boolean; bareRate?: number } = {},
): Promise<{ created: number; rate: number }> {
  let next = 0;
  const tokens = data.customerTokens;
  const statuses = new Map<number, number>();
  const r = await load({
    url: app.url,
    connections: 50,
    amount: Math.min(ORDERS, tokens.length),
    requests: [
      {
        method: 'POST',
        path: '/api/orders',
        setupRequest: (req) => ({ ...req, ...orderRequest(data, next++, bare ? `bare-${engine}` : engine) }),
        onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
      },
    ],
  });
  const created = statuses.get(201) ?? 0;
  // Not created / wall time: a fixed number of requests ends on autocannon's one-second tick (see load()).
  const placedPerSec = r.total > 0 ? (r.requestsPerSec * created) / r.total : 0;
  console.log(`    answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  if (bare) {
    record({
      measure: 'orders, bare baseline route: placed/s',
      engine,
      value: placedPerSec,
      unit: 'orders/s',
    });
    record({ measure: 'orders, bare baseline route: p99 latency', engine, value: r.p99, unit: 'ms' });
    return { created, rate: placedPerSec };
  }
  if (bareRate)
    record({
      measure: 'orders: placed/s vs the bare route',
      engine,
      value: placedPerSec,
      unit: 'orders/s',
      baseline: bareRate,
      target: '>= 50% of bare',
      ok: placedPerSec >= bareRate / 2,
    });
  record({
    measure: 'orders: placed/s (50 customers at once)',
    engine,
    value: placedPerSec,
    unit: 'orders/s',
    target: engine === 'postgres' ? '>= 1000' : '>= 300',
    ok: placedPerSec >= (engine === 'postgres' ? 1000 : 300),
  });
  record({ measure: 'orders: p50 latency', engine, value: r.p50, unit: 'ms' });
  record({
    measure: 'orders: p99 latency',
    engine,
    value: r.p99,
    unit: 'ms',
    target: '< 50 ms',
    ok: r.p99 < 50,
  });
  record({
    measure: 'orders: errors + non-201 answers',
    engine,
    value: r.errors + (r.total - created),
    unit: '',
    target: '0',
    ok: r.errors + (r.total - created) === 0,
  });
  return { created, rate: placedPerSec };
}

/**
 * N subscribers on the kitchens list of `reader`, each on a tab's one stream (what screens open: the change arrives
 * as a delta); one write at a time through `writer`.
 */
async function fanOut(reader: Proc, writer: Proc, data: BenchData, engine: string, n: number) {
  const { p50, p99, kibPerStream } = await measureFanOut({
    reader,
    writer,
    ownerToken: data.ownerToken,
    path: '/api/live?t=%2Fapi%2Fkitchens',
    n,
    writes: WRITES,
  });
  const label = reader === writer ? `${n} subscribers` : `${n} subscribers, 2 instances`;
  record({ measure: `fan-out p50, ${label}`, engine, value: p50, unit: 'ms' });
  record({
    measure: `fan-out p99, ${label}`,
    engine,
    value: p99,
    unit: 'ms',
    target: '<= 200 ms',
    ok: p99 <= 200,
  });
  if (reader === writer)
    record({
      measure: `memory per idle stream (${n})`,
      engine,
      value: kibPerStream,
      unit: 'KiB',
      target: '<= 16 KiB',
      ok: kibPerStream <= 16,
    });
}

/** A part that fails is reported as failed, and the rest of the run goes on. */
async function attempt<T>(name: string, fn: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const cause = (error as Error).cause;
    console.log(`  FAILED ${name}: ${(error as Error).message}${cause ? ` (${String(cause)})` : ''}`);
    failures.push(`${name}: ${(error as Error).message}`);
    return fallback;
  }
}
const failures: string[] = [];

async function runEngine(engine: 'pglite' | 'postgres', baseline: number) {
  console.log(`\n== ${engine}`);
  let env: Record<string, string>;
  let data: BenchData;
  // Counts the orders in the database once the server has stopped (PGlite's files are the server's meanwhile).
  let countOrders: () => Promise<number>;
  let deleteOrders: () => Promise<unknown>;
  let cleanup = async () => {};
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'mkt-bench-'));
    const db = await openPglite(dataDir);
    data = await seedBench(db, ORDERS);
    await db.close();
    env = { DATA_DIR: dataDir };
    countOrders = async () => {
      const reopened = await openPglite(dataDir);
      const n = (await reopened.db.select({ n: count() }).from(orders))[0]?.n ?? 0;
      await reopened.close();
      return n;
    };
    deleteOrders = async () => {
      const reopened = await openPglite(dataDir);
      await reopened.db.delete(orders);
      await reopened.close();
    };
  } else {
    const created = await createPgDatabase();
    const db = await openPostgres(created.url);
    data = await seedBench(db, ORDERS);
    env = { DATABASE_URL: created.url };
    countOrders = async () => (await db.db.select({ n: count() }).from(orders))[0]?.n ?? 0;
    deleteOrders = () => db.db.delete(orders);
    cleanup = async () => {
      await db.close();
      await created.drop();
    };
  }
  if (pagesOnly) {
    const app = await startApp(env);
    try {
      await readBench(app, data, engine, 0, env);
    } finally {
      await app.stop();
      await cleanup();
    }
    return;
  }
  if (paymentsOnly || slotsOnly || notificationsOnly) {
    try {
      await (slotsOnly
        ? slotsSection(env, data, engine)
        : notificationsOnly
          ? notificationsSection(env, data, engine)
          : paymentsSection(env, data, engine));
    } finally {
      await cleanup();
    }
    return;
  }
  // The bare route first, alone on the database; its orders are removed after, so the customers can order again.
  const bareRate = await attempt(
    'orders, bare baseline',
    async () => {
      const bare = await startBareOrders(env);
      try {
        return (await orderBench(bare, data, engine, { bare: true })).rate;
      } finally {
        await bare.stop();
      }
    },
    0,
  );
  await deleteOrders();
  let created: number;
  const app = await startApp(env);
  try {
    await sleep(2000);
    record({
      measure: 'idle RSS after start-up',
      engine,
      value: rssMiB(app.child.pid ?? 0),
      unit: 'MiB',
      target: engine === 'postgres' ? '<= 150 MiB' : '<= 300 MiB',
      ok: rssMiB(app.child.pid ?? 0) <= (engine === 'postgres' ? 150 : 300),
    });
    if (!ordersOnly) await readBench(app, data, engine, baseline, env);
    created = (
      await attempt('orders', () => orderBench(app, data, engine, { bareRate }), { created: 0, rate: 0 })
    ).created;
    for (const n of ordersOnly ? [] : FANOUT_SIZES)
      await attempt(`fan-out ${n}`, () => fanOut(app, app, data, engine, n), undefined);
    if (engine === 'postgres' && !ordersOnly) {
      await attempt(
        'fan-out, 2 instances',
        async () => {
          const second = await startApp(env);
          try {
            await fanOut(second, app, data, engine, FANOUT_SIZES[0] ?? 1000);
          } finally {
            await second.stop();
          }
        },
        undefined,
      );
    }
  } finally {
    await app.stop();
  }
  const inDb = await countOrders();
  record({
    measure: 'orders: database count - 201 answers',
    engine,
    value: inDb - created,
    unit: '',
    target: '0',
    ok: inDb === created,
  });
  if (!ordersOnly) {
    await deleteOrders();
    await attempt('payments', () => paymentsSection(env, data, engine), undefined);
    await attempt('slots', () => slotsSection(env, data, engine), undefined);
    await deleteOrders();
    await attempt('notifications', () => notificationsSection(env, data, engine), undefined);
  }
  await cleanup();
}

/**
 * The payment steps (bench/payments.ts) on an app of their own, with PAYMENTS=stripe against our provider; and a
 * menu read on it against the same read with PAYMENTS=off, the two apps taking turns on the same database.
 */
async function paymentsSection(env: Record<string, string>, data: BenchData, engine: string) {
  console.log(`  -- payments (${engine})`);
  const provider = await startProvider();
  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL)
    : await openPglite(env.DATA_DIR ?? '');
  try {
    await connectBenchKitchen(database, data, provider.local, provider.apiKey);
  } finally {
    await database.close();
  }
  const rates = { off: [] as number[], on: [] as number[] };
  try {
    for (let round = 0; round < 2; round++) {
      const off = await startApp(env);
      try {
        rates.off.push(await menuReadRate(off, data));
      } finally {
        await off.stop();
      }
      const app = await startApp({ ...env, ...provider.env });
      provider.aimAt(app);
      try {
        rates.on.push(await menuReadRate(app, data));
        if (round === 0) await paymentsBench(app, provider, data, engine, 0, record);
      } finally {
        await app.stop();
      }
    }
    recordMenuWithPayments(rates, engine, record);
  } finally {
    await provider.local.close();
  }
}

/** The enqueue's cost on the order route, then the worker's rate to an SMTP server (bench/notifications.ts). */
async function notificationsSection(env: Record<string, string>, data: BenchData, engine: string) {
  console.log(`  -- notifications (${engine})`);
  await enqueueBench(env, data, engine, record);
  // The apps have stopped: this process may open the database (PGlite's files are one process's at a time).
  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL)
    : await openPglite(env.DATA_DIR ?? '');
  try {
    await workerBench(database, env, data, engine, record);
  } finally {
    await database.close();
  }
}

/** A kitchen's slots against its menu (bench/slots.ts), on an app of its own once the bookings are written. */
async function slotsSection(env: Record<string, string>, data: BenchData, engine: string) {
  console.log(`  -- slots (${engine})`);
  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL)
    : await openPglite(env.DATA_DIR ?? '');
  try {
    await prepareSlotsKitchen(database, data);
  } finally {
    await database.close();
  }
  const app = await startApp(env);
  try {
    await slotsBench(app, data, engine, record);
  } finally {
    await app.stop();
  }
}

/** The machine's load averages (1, 5 and 15 minutes) as the run started: a shared machine's figures move with it. */
const loadAtStart = loadavg();

async function main() {
  const started = Date.now();
  console.log(
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  );
  let baseline = 0;
  if (busOnly) {
    await attempt('bus', () => busBench(record), undefined);
    return finish(started);
  }
  if (landingOnly) {
    await attempt('landing', () => landingBench(record), undefined);
    return finish(started);
  }
  if (clusterOnly) {
    await attempt('cluster', () => clusterBench(record), undefined);
    return finish(started);
  }
  if (languagesOnly) {
    for (const row of await attempt('languages', languageWeight, [])) record(row);
    return finish(started);
  }
  if (labelsOnly) {
    for (const row of await attempt('labels', labelsBench, [])) record(row);
    return finish(started);
  }
  if (!pagesOnly && !paymentsOnly && !slotsOnly && !notificationsOnly) {
    const bare = await startBare();
    await load({ url: `${bare.url}/hello`, connections: 20, duration: 1 });
    const baselineRun = await load({
      url: `${bare.url}/hello`,
      connections: 100,
      pipelining: 10,
      duration: DURATION,
    });
    await bare.stop();
    baseline = baselineRun.requestsPerSec;
    record({
      measure: 'baseline: bare Fastify hello route, req/s',
      engine: '-',
      value: baseline,
      unit: 'req/s',
    });
  }

  for (const engine of ['postgres', 'pglite'] as const) await runEngine(engine, baseline);
  if (!only) await attempt('search', () => searchBench(record), undefined);
  if (!only) await attempt('landing', () => landingBench(record), undefined);
  if (!only) await attempt('cluster', () => clusterBench(record), undefined);
  if (!only) for (const row of await attempt('labels', labelsBench, [])) record(row);

  if (!ordersOnly && !paymentsOnly && !slotsOnly && !notificationsOnly && !pageReadsOnly) {
    console.log('\n== page weight and Lighthouse (mobile)');
    for (const row of await attempt('page weight', pageWeight, [])) record(row);
    if (!pagesOnly) for (const row of await attempt('languages', languageWeight, [])) record(row);
    if (!pagesOnly) {
      console.log('\n== picture bytes of a 30-dish menu on a phone');
      for (const row of await attempt('picture weight', pictureWeight, [])) record(row);
    }
  }
  finish(started);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Writes the run's rows (bench/results/<only or latest>.json). */
function finish(started: number) {
  const machine = {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    load: { start: loadAtStart.map(round2), end: loadavg().map(round2) },
  };
  writeFileSync(
    join(root, `bench/results/${only ?? 'latest'}.json`),
    JSON.stringify({ at: new Date().toISOString(), machine, quick, rows, failures }, null, 2) + '\n',
  );
  console.log(
    `\nwrote bench/results/${only ?? 'latest'}.json in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

await main();
