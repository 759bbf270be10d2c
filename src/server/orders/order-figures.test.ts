import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { CustomerOrder } from '../../shared/orders.js';
import { recordOrderFigures, rebuildOrderFigures, scanOrderFigures } from '../data/order-figures.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens, orders } from '../db/schema.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import { FakeClock } from '../test/fake-clock.js';
import { advancePast } from '../test/payment-checks.js';
import { localProvider, paidKitchen, placeOrder, sessionOf } from '../test/payments-world.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { pollPayments } from './payment-poll.js';
import { addDemoHistory } from '../insights/demo-history.js';
import { buildMenuItem } from '../test/builders.js';

const clock = new FakeClock();
clock.advance(Date.now());

/**
 * The moments orders are placed at, in order: a day's last and first minutes in New York and in Kolkata (UTC+5:30),
 * and New York's clock changes of 2027 (an hour skipped in March, one repeated in November).
 */
const EDGES = [
  '2027-03-13T18:29:00Z', // 23:59 in Kolkata
  '2027-03-13T18:31:00Z', // 00:01 the next day in Kolkata
  '2027-03-14T04:59:00Z', // 23:59 on the 13th in New York (EST)
  '2027-03-14T05:00:00Z', // midnight
  '2027-03-14T06:59:30Z', // 01:59:30 EST, just before the clocks go forward
  '2027-03-14T07:00:30Z', // 03:00:30 EDT, just after
  '2027-03-15T03:59:00Z', // 23:59 EDT: the 14th had 23 hours
  '2027-03-15T04:00:00Z', // midnight EDT
  '2027-11-07T05:30:00Z', // 01:30 EDT, the first 01:30 of the 7th
  '2027-11-07T06:30:00Z', // 01:30 EST, the second
  '2027-11-08T04:59:00Z', // 23:59 EST: the 7th had 25 hours
  '2027-11-08T05:00:00Z', // midnight
].map((at) => Date.parse(at));

const ORDERS = 6;
const CUSTOMERS = 3;

const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      kitchen: fc.nat(1),
      customer: fc.nat(CUSTOMERS - 1),
      card: fc.boolean(),
      /** How many edges to move on (the times only go forward: a customer's orders keep their order). */
      skip: fc.nat(2),
    }),
  },
  ...(['accept', 'decline', 'kitchen cancel', 'customer cancel', 'progress'] as const).map((kind) => ({
    weight: kind === 'accept' || kind === 'progress' ? 3 : 1,
    arbitrary: fc.record({ kind: fc.constant(kind), order: fc.nat(ORDERS - 1) }),
  })),
  { weight: 1, arbitrary: fc.constant({ kind: 'nobody answers' as const }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

type Row = Record<string, unknown>;

async function rowsOf(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] } | Row[];
  return Array.isArray(result) ? result : result.rows;
}

/** Rows as comparable text, sorted; rows whose figures are all zero (left by an order that moved) left out. */
const normal = (rows: Row[], keys: string[]) =>
  rows
    .map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          v instanceof Date
            ? v.toISOString()
            : typeof v === 'string' && /^\d{4}-\d\d-\d\d/.test(v) && (k === 'day' || k === 'month')
              ? v.slice(0, 10)
              : v,
        ]),
      ),
    )
    .filter((row) =>
      Object.entries(row).some(([k, v]) => !keys.includes(k) && typeof v === 'number' && v !== 0),
    )
    .map((row) => JSON.stringify(row, Object.keys(row).sort()))
    .sort();

async function expectRollupsEqualScan(ctx: TestContext): Promise<void> {
  const db = ctx.database.db;
  const scan = scanOrderFigures();
  const tables: [string, SQL, string[]][] = [
    ['kitchen_hour_figures', scan.hours, ['kitchen_id', 'day', 'hour']],
    ['kitchen_day_figures', scan.days, ['kitchen_id', 'day']],
    ['dish_day_figures', scan.dishes, ['kitchen_id', 'menu_item_id', 'day']],
    ['kitchen_customer_figures', scan.customers, ['kitchen_id', 'customer_id', 'last_ordered_at']],
    ['kitchen_customer_counts', scan.customerCounts, ['kitchen_id']],
    ['kitchen_month_figures', scan.months, ['month', 'kitchen_id']],
    ['marketplace_day_figures', scan.marketplaceDays, ['day', 'shard']],
    ['marketplace_hour_figures', scan.marketplaceHours, ['day', 'hour', 'shard']],
  ];
  for (const [table, query, keys] of tables) {
    const kept = await rowsOf(db, sql`select * from ${sql.identifier(table)}`);
    const scanned = await rowsOf(db, query);
    expect(normal(kept, keys), table).toEqual(normal(scanned, keys));
  }
}

describeEachEngine(
  'order figures',
  (get) => {
    it('equal a scan of the orders after any sequence of orders, moves, refunds and days’ ends', async () => {
      const ctx = get();
      const local = localProvider(ctx);
      const db = ctx.database.db;
      const worlds = [
        await paidKitchen(ctx, { acceptsCash: true }),
        await paidKitchen(ctx, { acceptsCash: true }),
      ];
      await db
        .update(kitchens)
        .set({ timeZone: 'America/New_York' })
        .where(eq(kitchens.ownerId, worlds[0]!.cook.kitchen.uid));
      await db
        .update(kitchens)
        .set({ timeZone: 'Asia/Kolkata' })
        .where(eq(kitchens.ownerId, worlds[1]!.cook.kitchen.uid));

      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 20 }), async (steps) => {
          clock.advance(Date.now() - clock.now());
          let edge = 0;
          // Customers of this run (times start again from the first edge: earlier than the last run's orders).
          const customers = await Promise.all(
            Array.from({ length: CUSTOMERS }, () => signedIn(ctx, 'customer')),
          );
          const placed: { order: CustomerOrder; cookie: string; world: (typeof worlds)[number] }[] = [];
          for (const s of steps) {
            if (s.kind === 'place') {
              const world = worlds[s.kitchen]!;
              const customer = customers[s.customer]!;
              const res = await placeOrder(
                ctx,
                customer.cookie,
                world.cook.kitchen.uid,
                [world.dal, world.dal],
                {
                  payment: s.card ? 'card' : 'cash',
                },
              );
              expect(res.statusCode, res.body).toBeLessThan(500);
              if (res.statusCode !== 201) continue;
              const order = res.json<CustomerOrder>();
              if (s.card) {
                await local.pay(sessionOf(order), TEST_CARDS.pays);
                await local.settled();
              }
              // Placed at the next edge: the order's time moves there, and its figures with it.
              edge = Math.min(edge + s.skip, EDGES.length - 1);
              const at = new Date(EDGES[edge]! + placed.length);
              await db.transaction(async (tx) => {
                await tx.update(orders).set({ createdAt: at }).where(eq(orders.id, order.id));
                await recordOrderFigures(tx, order.id);
              });
              placed.push({ order, cookie: customer.cookie, world });
            } else if (s.kind === 'nobody answers') {
              advancePast(clock, (ctx.app.payments.config.acceptWithinMinutes + 1) * 60_000);
              await pollPayments(ctx.app);
            } else {
              const target = placed[s.order % Math.max(placed.length, 1)];
              if (!target) continue;
              await apply(ctx, s, target);
            }
            await local.settled();
          }
          await settle(
            ctx,
            placed.map((p) => p.order.id),
          );
          await expectRollupsEqualScan(ctx);
        }),
        { numRuns: Number(process.env.FIGURES_PROPERTY_RUNS ?? 6), endOnFailure: true },
      );
      // The rebuild writes what the scan says, and what was kept already.
      await rebuildOrderFigures(db);
      await expectRollupsEqualScan(ctx);
    }, 240_000);

    it('equal a scan after a demo history of weeks', async () => {
      const ctx = get();
      const world = await paidKitchen(ctx);
      await buildMenuItem(ctx, world.cook.kitchen, { item: 'Rice', price: '3.00' });
      const written = await ctx.database.db.transaction((tx) =>
        addDemoHistory(tx, world.cook.kitchen.uid, { days: 21, now: new Date(clock.now()) }),
      );
      expect(written).toBeGreaterThan(40);
      await expectRollupsEqualScan(ctx);
    });

    it('counts a refund, and a day by the kitchen’s clock', async () => {
      const ctx = get();
      const db = ctx.database.db;
      const local = localProvider(ctx);
      const world = await paidKitchen(ctx);
      await db
        .update(kitchens)
        .set({ timeZone: 'America/New_York' })
        .where(eq(kitchens.ownerId, world.cook.kitchen.uid));
      const customer = await signedIn(ctx, 'customer');
      const res = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal]);
      const order = res.json<CustomerOrder>();
      await local.pay(sessionOf(order), TEST_CARDS.pays);
      await local.settled();
      // 23:30 in New York on the 13th is the 14th in UTC.
      await db.transaction(async (tx) => {
        await tx
          .update(orders)
          .set({ createdAt: new Date('2027-03-14T04:30:00Z') })
          .where(eq(orders.id, order.id));
        await recordOrderFigures(tx, order.id);
      });
      const move = (body: object) =>
        ctx.app.inject({
          method: 'POST',
          url: `/api/kitchen/orders/${order.id}/moves`,
          headers: { cookie: world.cook.cookie },
          payload: body,
        });
      expect((await move({ move: 'accept', readyInMinutes: 30 })).statusCode).toBe(200);
      await settle(ctx, [order.id]);
      expect((await move({ move: 'cancel', reason: 'Oven broke' })).statusCode).toBe(200);
      await settle(ctx, [order.id]);
      const [day] = await rowsOf(
        db,
        sql`select day::text as day, hour, orders, cancelled_by_kitchen, gross_cents, refunded_cents
              from kitchen_hour_figures where kitchen_id = ${world.cook.kitchen.uid} and orders > 0`,
      );
      expect(day).toEqual({
        day: '2027-03-13',
        hour: 23,
        orders: 1,
        cancelled_by_kitchen: 1,
        gross_cents: 0,
        refunded_cents: order.totalCents,
      });
      await expectRollupsEqualScan(ctx);
    });
  },
  { PAYMENTS: 'local' },
  { clock },
);

/** Runs the poll until no payment step of these orders waits on the provider. */
async function settle(ctx: TestContext, ids: string[]): Promise<void> {
  const local = localProvider(ctx);
  for (let round = 0; round < 8; round++) {
    advancePast(clock, 60_000);
    await pollPayments(ctx.app);
    await local.settled();
    const waiting = await ctx.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(inArray(orders.id, ids), inArray(orders.paymentState, ['capturing', 'releasing', 'refunding'])),
      );
    if (waiting.length === 0) return;
  }
  throw new Error('payment steps still pending after 8 rounds of the poll');
}

async function apply(
  ctx: TestContext,
  s: Exclude<Step, { kind: 'place' | 'nobody answers' }>,
  target: { order: CustomerOrder; cookie: string; world: { cook: { cookie: string } } },
): Promise<void> {
  const inject = async (cookie: string, url: string, payload: object) => {
    const res = await ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload });
    expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBeLessThan(500);
  };
  const moves = `/api/kitchen/orders/${target.order.id}/moves`;
  const cook = target.world.cook.cookie;
  switch (s.kind) {
    case 'accept':
      return inject(cook, moves, { move: 'accept', readyInMinutes: 30 });
    case 'decline':
      return inject(cook, moves, { move: 'decline', reason: 'No rice' });
    case 'kitchen cancel':
      return inject(cook, moves, { move: 'cancel', reason: 'Oven broke' });
    case 'customer cancel':
      return inject(target.cookie, `/api/orders/${target.order.id}/cancel`, {});
    case 'progress': {
      const [row] = await ctx.database.db
        .select({ state: orders.state })
        .from(orders)
        .where(eq(orders.id, target.order.id));
      const next: Record<string, string> = {
        accepted: 'prepare',
        preparing: 'dispatch',
        'out for delivery': 'deliver',
      };
      return inject(cook, moves, { move: next[row?.state ?? ''] ?? 'prepare' });
    }
  }
}
