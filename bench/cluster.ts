// The cluster (issue 33), in `npm run bench` (or alone: BENCH_ONLY=cluster): the built app behind nginx
// (scripts/cluster), with 1 and with 3 instances on one PostgreSQL, in the same run: orders placed per second through
// nginx (50 customers at once) and how fast a change reaches open screens (tab streams through nginx, spread by it
// over the instances), against the single instance answered directly (no proxy) as the baseline.
import { randomBytes } from 'node:crypto';
import { Cluster } from '../scripts/cluster/cluster.js';
import { openPostgres } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { measureFanOut } from './fan-out-measure.js';
import { allocatePort, load, root, type BenchRow, type Proc } from './lib.js';
import { orderRequest, seedBench, type BenchData } from './seed.js';

const quick = process.env.BENCH_QUICK === '1';
const ORDERS = quick ? 300 : 2000;
const SUBSCRIBERS = Number(process.env.CLUSTER_SUBSCRIBERS ?? (quick ? 500 : 10_000));
const WRITES = quick ? 10 : 30;

/** `ORDERS` cash orders from 50 connections, each customer once (`first` on): placed per second, and the p99. */
async function placeOrders(url: string, data: BenchData, first: number, tag: string) {
  let next = first;
  const statuses = new Map<number, number>();
  const r = await load({
    url,
    connections: 50,
    amount: ORDERS,
    requests: [
      {
        method: 'POST',
        path: '/api/orders',
        setupRequest: (req) => ({ ...req, ...orderRequest(data, next++, tag) }),
        onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
      },
    ],
  });
  const created = statuses.get(201) ?? 0;
  if (created !== ORDERS)
    throw new Error(`orders through ${tag}: ${JSON.stringify(Object.fromEntries(statuses))}`);
  return { perSec: r.requestsPerSec, p99: r.p99 };
}

export async function clusterBench(record: (row: BenchRow) => void) {
  const pg = await createPgDatabase();
  try {
    const setup = await openPostgres(pg.url, { poolSize: 2 });
    // Three rounds of orders (direct, 1 instance, 3 instances), each customer once.
    const data = await seedBench(setup, ORDERS * 3);
    await setup.close();
    const env = {
      ...process.env,
      DATABASE_URL: pg.url,
      SESSION_SECRET: randomBytes(48).toString('base64url'),
      TRUST_PROXY: '1',
      PAYMENTS: 'off',
      GEOCODER: 'off',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      // The fan-out opens thousands of streams from one address.
      LIVE_STREAMS_PER_ADDRESS: '1000000',
      LIVE_STREAMS_PER_SESSION: '100000',
    };
    const rows: { setup: string; ordersPerSec: number; ordersP99: number; fanP50: number; fanP99: number }[] =
      [];
    for (const size of [1, 3]) {
      const cluster = new Cluster({
        size,
        port: allocatePort(),
        command: [process.execPath, 'dist/node/server/main.js'],
        cwd: root,
        env,
        output: 'collect',
        log: () => {},
      });
      await cluster.start();
      try {
        const first = cluster.instances[0];
        const child = first?.child;
        if (!first || !child) throw new Error('no instance');
        const direct: Proc = {
          child,
          port: first.port,
          url: `http://127.0.0.1:${first.port}`,
          stop: async () => {},
        };
        const proxied: Proc = { ...direct, url: cluster.url };
        const measures: [string, Proc][] =
          size === 1
            ? [
                ['1 instance, direct (baseline)', direct],
                ['1 instance behind nginx', proxied],
              ]
            : [['3 instances behind nginx', proxied]];
        for (const [name, proc] of measures) {
          const round = rows.length;
          console.log(`  ${name}: ${ORDERS} orders, then a change to ${SUBSCRIBERS} screens`);
          const orders = await placeOrders(proc.url, data, round * ORDERS, `cluster-${round}`);
          const fan = await measureFanOut({
            reader: proc,
            writer: proc,
            ownerToken: data.ownerToken,
            path: '/api/live?t=/api/kitchens',
            n: SUBSCRIBERS,
            writes: WRITES,
          });
          rows.push({
            setup: name,
            ordersPerSec: orders.perSec,
            ordersP99: orders.p99,
            fanP50: fan.p50,
            fanP99: fan.p99,
          });
        }
      } finally {
        await cluster.stop();
      }
    }
    const baseline = rows[0];
    for (const row of rows) {
      record({
        measure: `cluster: orders placed/s, ${row.setup}`,
        engine: 'postgres',
        value: row.ordersPerSec,
        unit: 'orders/s',
        ...(row === baseline || !baseline ? {} : { baseline: baseline.ordersPerSec }),
      });
      record({
        measure: `cluster: orders p99, ${row.setup}`,
        engine: 'postgres',
        value: row.ordersP99,
        unit: 'ms',
      });
      record({
        measure: `cluster: fan-out p99 to ${SUBSCRIBERS} screens, ${row.setup}`,
        engine: 'postgres',
        value: row.fanP99,
        unit: 'ms',
        ...(row === baseline || !baseline ? {} : { baseline: baseline.fanP99 }),
      });
    }
  } finally {
    await pg.drop();
  }
}
