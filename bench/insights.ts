// The figures of 'Insights' and 'Overview' at scale: the rollups of ORDERS orders across KITCHENS kitchens over two
// years (this period and the one before), seeded straight into the rollup tables as `npm run figures:rebuild` would
// leave them (stored in the order days pass, as orders write them), on PostgreSQL. Times a cook's 'Insights' for the last 12 months (the busiest kitchen and random ones)
// and the operator's 'Overview' (last 4 weeks and last 12 months) as the routes compute them (the same functions,
// without HTTP), and the queries before the marketplace's rollups (bench/insights-before.ts) in turn with them, beside
// one kitchen read by id in the same run.
// Run alone: `node --import tsx bench/insights.ts` (ORDERS=1000000 KITCHENS=10000 by default).
// Seeding a million orders takes minutes: BENCH_KEEP=1 keeps the seeded database (named after ORDERS and KITCHENS)
// and the next run with BENCH_KEEP=1 reads it again (migrated to the code's schema on opening) instead of seeding.
import { FIGURE_SHARD } from '../src/server/data/order-figures.js';
import { loadavg } from 'node:os';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../src/server/db/database.js';
import { findKitchen } from '../src/server/data/kitchen-queries.js';
import { insightsRange } from '../src/server/insights/insight-range.js';
import { kitchenInsights, marketplaceOverview } from '../src/server/insights/insights-queries.js';
import * as before from './insights-before.js';
import { adminUrl, createPgDatabase, databaseUrl } from '../src/server/test/test-database.js';
import { percentile } from './lib.js';

const ORDERS = Number(process.env.ORDERS ?? 1_000_000);
const KITCHENS = Number(process.env.KITCHENS ?? 10_000);
const CUSTOMERS = Math.max(1000, Math.round(ORDERS / 10));
const DISHES_PER_KITCHEN = 8;

async function timed<T>(runs: number, call: (i: number) => Promise<T>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  return times;
}

/** Fails the bench when the queries before and now disagree. */
function same(a: unknown, b: unknown, what: string): void {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x !== y) {
    const at = [...x].findIndex((c, i) => c !== y[i]);
    throw new Error(
      `${what}: before and now differ at ${at}\n${x.slice(at - 300, at + 200)}\n${y.slice(at - 300, at + 200)}`,
    );
  }
}

const row = (name: string, times: number[]) => ({
  name,
  runs: times.length,
  p50: Math.round(percentile(times, 50) * 10) / 10,
  p99: Math.round(percentile(times, 99) * 10) / 10,
});

/** The kept database of BENCH_KEEP=1, created when missing; `seeded` when a previous run seeded it. */
async function keptDatabase(): Promise<{ url: string; seeded: boolean; drop(): Promise<void> }> {
  // v2: rows stored in the order days pass, as the rollups are written.
  const name = `bench_insights_${ORDERS}_${KITCHENS}_v2`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (!exists) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const seeded = await client
      .query<{ n: number }>("select count(*)::int as n from kitchens where owner_name like 'Cook %'")
      .then((r) => (r.rows[0]?.n ?? 0) === KITCHENS)
      .catch(() => false);
    return { url, seeded, drop: async () => {} };
  } finally {
    await client.end();
  }
}

type Db = Awaited<ReturnType<typeof openPostgres>>['db'];

/** The rollups `figures:rebuild` would leave after ORDERS orders, seeded straight into their tables. */
async function seed(db: Db): Promise<void> {
  await db.execute(sql`insert into users (issuer, subject, email, display_name)
    select 'urn:bench', 'u' || g, 'u' || g || '@bench.test', 'Person ' || g
      from generate_series(1, ${KITCHENS + CUSTOMERS}) g`);
  await db.execute(sql`create temporary table bench_users as
    select id, row_number() over (order by subject) as n from users`);
  await db.execute(sql`insert into kitchens (owner_id, name, category, address, owner_name, owner_email, time_zone, image_link)
    select id, 'Kitchen ' || n, 'Home', n || ' Bench Road', 'Cook ' || n, 'c' || n || '@bench.test',
           (array['UTC', 'America/New_York', 'Asia/Kolkata', 'Europe/Paris'])[1 + n % 4],
           'https://img.example/k.png'
      from bench_users where n <= ${KITCHENS}`);
  await db.execute(sql`create temporary table bench_kitchens as
    select owner_id as uid, row_number() over (order by owner_id) as n from kitchens`);
  await db.execute(sql`insert into menu_items (kitchen_id, item, price_cents, wait, image_link)
    select uid, 'Dish ' || d, 500 + d * 100, '20 min', 'https://img.example/d.png' from bench_kitchens, generate_series(1, ${DISHES_PER_KITCHEN}) d`);
  // The orders, uneven as marketplaces are: kitchen k gets a share proportional to 1/k^0.8 (the busiest one some
  // 10,000 orders over two years), at lunch and dinner mostly, over the last 730 days.
  await db.execute(sql`create temporary table bench_orders as
    with weights as (select n, 1 / power(n, 0.8) as w from bench_kitchens),
    total as (select sum(w) as s from weights),
    counts as (select n, greatest(1, round(w / s * ${ORDERS}))::int as c from weights, total)
    select k.uid as kitchen_id,
           (current_date - (random() * 729)::int) as day,
           (array[11, 12, 12, 13, 13, 17, 18, 18, 19, 19, 19, 20, 21, 9, 15])[1 + (random() * 14)::int] as hour,
           (random() < 0.3) as first,
           (random() < 0.08) as turned,
           ${KITCHENS} + 1 + (random() * (${CUSTOMERS} - 1))::int as customer_n,
           1 + (random() * ${DISHES_PER_KITCHEN - 1})::int as dish
      from counts c join bench_kitchens k on k.n = c.n, generate_series(1, c.c)`);
  await db.execute(sql`insert into kitchen_hour_figures (kitchen_id, day, hour, orders, new_customer_orders,
      delivered, accepted, declined, items_cents, gross_cents, accept_seconds, ready_count, ready_seconds)
    select kitchen_id, day, hour, count(*), count(*) filter (where first), count(*) filter (where not turned),
           count(*) filter (where not turned), count(*) filter (where turned),
           sum(case when turned then 0 else 1900 end), sum(case when turned then 0 else 2945 end),
           count(*) filter (where not turned) * 420, count(*) filter (where not turned),
           count(*) filter (where not turned) * 1800
      from bench_orders group by kitchen_id, day, hour order by day, hour`);
  await db.execute(sql`insert into kitchen_day_figures (kitchen_id, day, orders, new_customer_orders,
      delivered, accepted, declined, items_cents, gross_cents, accept_seconds, ready_count, ready_seconds)
    select kitchen_id, day, sum(orders), sum(new_customer_orders), sum(delivered), sum(accepted), sum(declined),
           sum(items_cents), sum(gross_cents), sum(accept_seconds), sum(ready_count), sum(ready_seconds)
      from kitchen_hour_figures group by kitchen_id, day order by day`);
  await db.execute(sql`insert into dish_day_figures (kitchen_id, menu_item_id, day, portions, items_cents)
    select o.kitchen_id, m.id, o.day, count(*), count(*) * m.price_cents
      from bench_orders o
      join lateral (select id, price_cents from menu_items where kitchen_id = o.kitchen_id
                     order by item offset o.dish - 1 limit 1) m on true
     where not o.turned
     group by o.kitchen_id, m.id, o.day, m.price_cents order by o.day`);
  await db.execute(sql`insert into kitchen_customer_figures (kitchen_id, customer_id, orders, gross_cents, last_ordered_at)
    select o.kitchen_id, u.id, count(*), count(*) * 2945, max(o.day)::timestamptz
      from bench_orders o join bench_users u on u.n = o.customer_n
     group by o.kitchen_id, u.id order by min(o.day)`);
}

/**
 * The rollups summed from the kitchens' (as `recordOrderFigures` keeps them): filled when empty, so that a kept
 * database seeded before they existed gets them too.
 */
async function seedDerived(db: Db): Promise<void> {
  const [{ n } = { n: 0 }] = (
    (await db.execute(sql`select count(*)::int as n from marketplace_day_figures`)) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  if (n === 0) {
    // As migration 0035 fills them from the kitchens' rows.
    await db.execute(sql`insert into kitchen_customer_counts (kitchen_id, customers, returning_customers)
      select kitchen_id, count(*), count(*) filter (where orders > 1) from kitchen_customer_figures
       where orders > 0 group by kitchen_id`);
    await db.execute(sql`insert into kitchen_month_figures (month, kitchen_id, orders, gross_cents, accepted,
        accept_seconds, turned_down)
      select date_trunc('month', day)::date, kitchen_id, sum(orders), sum(gross_cents), sum(accepted),
             sum(accept_seconds), sum(declined + expired + cancelled_by_kitchen)
        from kitchen_day_figures group by 1, 2 order by 1`);
    await db.execute(sql`insert into marketplace_day_figures (day, shard, orders, new_customer_orders, delivered,
        accepted, declined, items_cents, gross_cents, accept_seconds, ready_count, ready_seconds, active_kitchens)
      select day, ${FIGURE_SHARD('kitchen_id')}, sum(orders), sum(new_customer_orders), sum(delivered), sum(accepted),
             sum(declined), sum(items_cents), sum(gross_cents), sum(accept_seconds), sum(ready_count),
             sum(ready_seconds), count(*) filter (where orders > 0)
        from kitchen_day_figures group by 1, 2 order by 1, 2`);
    await db.execute(sql`insert into marketplace_hour_figures (day, hour, shard, orders)
      select day, hour, ${FIGURE_SHARD('kitchen_id')}, sum(orders) from kitchen_hour_figures
       group by 1, 2, 3 order by 1, 2, 3`);
  }
  await db.execute(sql`vacuum analyze`);
}

async function main() {
  const keep = process.env.BENCH_KEEP === '1';
  const created = keep ? await keptDatabase() : { ...(await createPgDatabase()), seeded: false };
  const database = await openPostgres(created.url, { poolSize: 4, queryTimeoutMs: 900_000 });
  const db = database.db;
  try {
    const seedStart = performance.now();
    if (!created.seeded) await seed(db);
    await seedDerived(db);
    const seeded = Math.round((performance.now() - seedStart) / 1000);
    const sizes = (
      (await db.execute(sql`select
        (select sum(orders) from kitchen_day_figures)::int as orders,
        (select count(*) from kitchen_hour_figures)::int as hours,
        (select count(*) from kitchen_day_figures)::int as days,
        (select count(*) from dish_day_figures)::int as dishes,
        (select count(*) from kitchen_customer_figures)::int as customers`)) as unknown as {
        rows: Record<string, number>[];
      }
    ).rows[0];

    const kitchens = (
      (await db.execute(sql`select owner_id as uid from kitchens order by owner_id`)) as unknown as {
        rows: { uid: string }[];
      }
    ).rows.map((r) => r.uid);
    const now = new Date();
    const kitchenOf = async (uid: string) => {
      const kitchen = await findKitchen(db, uid);
      if (!kitchen) throw new Error('no kitchen');
      return kitchen;
    };
    const insightsOf = async (uid: string, read = kitchenInsights) => {
      const kitchen = await kitchenOf(uid);
      const range = insightsRange({ period: '12months' }, kitchen.timeZone, now);
      return read(db, kitchen, range, 'USD', now.toISOString().slice(0, 10));
    };
    const overview = (period: '4weeks' | '12months', read = marketplaceOverview) =>
      read(db, insightsRange({ period }, 'UTC', now), 'USD');
    const pick = (i: number) => kitchens[(i * 7919) % kitchens.length] ?? '';
    // The queries before and now answer the same.
    for (const uid of [kitchens[0] ?? '', pick(1), pick(2), pick(3)])
      same(await insightsOf(uid, before.kitchenInsights), await insightsOf(uid), `insights of ${uid}`);
    for (const period of ['4weeks', '12months'] as const) {
      const [was, is] = [await overview(period, before.marketplaceOverview), await overview(period)].map(
        (o) => ({
          ...o,
          // Kitchens tied in a ranking came in any order before, and any of them at the list's end: what they are
          // ranked by compares, not which kitchens.
          topKitchens: o.topKitchens.map((k) => `${k.grossCents} ${k.orders}`),
          slowKitchens: o.slowKitchens.map(
            (k) => `${k.previousOrders - k.orders} ${Math.round(k.turnedDown * k.orders)}`,
          ),
        }),
      );
      same(was, is, `overview ${period}`);
    }
    // Warm up: plans and caches, as a running server has them.
    for (let i = 0; i < 20; i++) {
      await insightsOf(pick(i), before.kitchenInsights);
      await insightsOf(pick(i));
    }
    const busiest = await insightsOf(kitchens[0] ?? '');
    // Before and now in turn, a round of each at a time, so that both see the same load.
    const both = async (
      name: string,
      runs: number,
      call: (read: 'before' | 'now', i: number) => Promise<unknown>,
    ) => {
      const times = { before: [] as number[], now: [] as number[] };
      for (let i = 0; i < runs; i++)
        for (const read of ['before', 'now'] as const)
          times[read].push(...(await timed(1, () => call(read, i))));
      return [row(`${name} (before)`, times.before), row(name, times.now)];
    };
    const loadAtStart = loadavg()[0];
    const results = [
      row('one kitchen read by id (baseline)', await timed(300, (i) => kitchenOf(pick(i)))),
      ...(await both("a cook's Insights, 12 months, random kitchens", 300, (read, i) =>
        insightsOf(pick(i), read === 'before' ? before.kitchenInsights : kitchenInsights),
      )),
      ...(await both("a cook's Insights, 12 months, the busiest kitchen", 100, (read) =>
        insightsOf(kitchens[0] ?? '', read === 'before' ? before.kitchenInsights : kitchenInsights),
      )),
      ...(await both("the operator's Overview, last 4 weeks", 50, (read) =>
        overview('4weeks', read === 'before' ? before.marketplaceOverview : marketplaceOverview),
      )),
      ...(await both("the operator's Overview, last 12 months", 30, (read) =>
        overview('12months', read === 'before' ? before.marketplaceOverview : marketplaceOverview),
      )),
      row('one kitchen read by id (baseline, again)', await timed(300, (i) => kitchenOf(pick(i)))),
    ];
    console.log(
      JSON.stringify(
        {
          orders: sizes?.orders,
          kitchens: KITCHENS,
          customers: CUSTOMERS,
          rollupRows: sizes,
          seededInSeconds: seeded,
          busiestKitchenOrders12Months: busiest.totals.orders,
          loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0] },
          ms: results,
        },
        null,
        2,
      ),
    );
  } finally {
    await database.close();
    await created.drop();
  }
}

await main();
