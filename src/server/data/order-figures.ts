import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';

/**
 * The figures of the cook's 'Insights' and the operator's 'Overview', kept as orders change (the tables are in
 * src/server/db/schema.ts, after `order_figures`). A change of an order calls `recordOrderFigures(tx, orderId)` in
 * its own transaction: what the order adds now replaces what it added when last recorded, and the rollups (per
 * kitchen and local day; per kitchen, local day and hour; per dish and day; per customer of a kitchen) take the difference as increments, so
 * that two orders changing at once add up. No view scans the orders; `rebuildOrderFigures` recomputes everything
 * from them, and the db test compares the rollups with `scanOrderFigures`.
 */

/** The figures one order adds, each also a column of `kitchen_hour_figures` (summed there). */
export const FIGURES = [
  'orders',
  'new_customer_orders',
  'delivered',
  'accepted',
  'declined',
  'expired',
  'cancelled_by_kitchen',
  'cancelled_by_customer',
  'items_cents',
  'gross_cents',
  'refunded_cents',
  'accept_seconds',
  'ready_count',
  'ready_seconds',
] as const;
export type Figure = (typeof FIGURES)[number];

/** The columns of `kitchen_month_figures`, and what they sum of `FIGURES`' columns. */
const MONTH_FIGURES = ['orders', 'gross_cents', 'accepted', 'accept_seconds', 'turned_down'] as const;
const MONTH_SUMS = sql.raw(
  'sum(orders)::int as orders, sum(gross_cents)::int as gross_cents, sum(accepted)::int as accepted, ' +
    'sum(accept_seconds)::int as accept_seconds, sum(declined + expired + cancelled_by_kitchen)::int as turned_down',
);

const list = (names: readonly string[], prefix = '') => sql.raw(names.map((n) => `${prefix}${n}`).join(', '));
/**
 * Which of the marketplace's 16 rows of a day (and hour) a kitchen's figures go to: the last byte of its id, whose
 * low bits are random in a v4 UUID. Orders of different kitchens then rarely write the same row (each holds its row
 * until it commits); the Overview sums a day's rows.
 */
export const FIGURE_SHARD = (kitchenId: string) =>
  sql.raw(`(get_byte(uuid_send(${kitchenId}), 15) & 15)::smallint`);

/** An order counts once it reached its kitchen: cash at once, a card order once its payment was authorised. */
const REACHED = sql.raw(`(o.payment_method = 'cash' or o.authorised_at is not null)`);

/**
 * What each order matching `where` (on `o`, the orders) adds: one row per order that reached a kitchen which is
 * still there, its local day and hour in the kitchen's zone, with the figures of `FIGURES`.
 */
function perOrder(where: SQL): SQL {
  return sql`
    select o.id as order_id, o.kitchen_id, o.customer_id, o.created_at as placed_at,
      (o.created_at at time zone k.time_zone)::date as day,
      extract(hour from o.created_at at time zone k.time_zone)::int as hour,
      o.state not in ('declined', 'cancelled') as kept,
      1 as orders,
      (o.customer_id is not null and not exists (
        select 1 from orders p
         where p.customer_id = o.customer_id and p.kitchen_id = o.kitchen_id
           and (p.payment_method = 'cash' or p.authorised_at is not null)
           and (p.created_at, p.id) < (o.created_at, o.id)))::int as new_customer_orders,
      (o.state = 'delivered')::int as delivered,
      (acc.at is not null)::int as accepted,
      (o.state = 'declined' and ended.by_user_id is not null)::int as declined,
      (o.state = 'declined' and ended.by_user_id is null)::int as expired,
      (o.state = 'cancelled' and ended.by_role = 'kitchen')::int as cancelled_by_kitchen,
      (o.state = 'cancelled' and ended.by_role = 'customer')::int as cancelled_by_customer,
      case when o.state not in ('declined', 'cancelled') then o.items_cents else 0 end as items_cents,
      case when o.state not in ('declined', 'cancelled') then o.total_cents else 0 end as gross_cents,
      coalesce((select -sum(l.amount_cents) from ledger_entries l
                 where l.order_id = o.id and l.kind = 'refunded'), 0)::int as refunded_cents,
      coalesce(extract(epoch from acc.at - coalesce(o.authorised_at, o.created_at)), 0)::int as accept_seconds,
      (acc.at is not null and rdy.at is not null)::int as ready_count,
      case when acc.at is not null and rdy.at is not null
        then extract(epoch from rdy.at - acc.at)::int else 0 end as ready_seconds
    from orders o
    join kitchens k on k.owner_id = o.kitchen_id
    left join lateral (select min(e.created_at) as at from order_events e
                        where e.order_id = o.id and e.state = 'accepted') acc on true
    left join lateral (select min(e.created_at) as at from order_events e
                        where e.order_id = o.id and e.state in ('out for delivery', 'delivered')) rdy on true
    left join lateral (select e.by_role, e.by_user_id from order_events e
                        where e.order_id = o.id and e.state = o.state
                        order by e.created_at desc limit 1) ended on true
    where ${REACHED} and ${where}`;
}

const ORDER_COLUMNS = [
  'order_id',
  'kitchen_id',
  'customer_id',
  'placed_at',
  'day',
  'hour',
  'kept',
  ...FIGURES,
];

interface OrderFigureRow extends Record<Figure, number> {
  order_id: string;
  kitchen_id: string;
  customer_id: string | null;
  placed_at: string | Date;
  day: string;
  hour: number;
  kept: boolean;
}

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}

/** `day` as the drivers give a date: 'YYYY-MM-DD'. */
const dayOf = (day: string | Date) =>
  typeof day === 'string' ? day.slice(0, 10) : day.toISOString().slice(0, 10);

/**
 * Brings an order's figures up to date, in the transaction of the change (placement, a move, a payment step, a
 * refund): call it after the change's writes. Idempotent: a second call changes nothing.
 */
export async function recordOrderFigures(tx: DbOrTx, orderId: string): Promise<void> {
  const [before] = await rows<OrderFigureRow>(
    tx,
    sql`delete from order_figures where order_id = ${orderId} returning *`,
  );
  const [after] = await rows<OrderFigureRow>(
    tx,
    sql`insert into order_figures (${list(ORDER_COLUMNS)}) ${perOrder(sql`o.id = ${orderId}`)} returning *`,
  );
  if (!before && !after) return;
  const sides = [...(before ? [{ row: before, sign: -1 }] : []), ...(after ? [{ row: after, sign: 1 }] : [])];
  // Per kitchen, day and hour: the difference, as increments (the kitchen may be gone: then nothing).
  const hourValues = sql.join(
    sides.map(
      ({ row, sign }) =>
        sql`(${row.kitchen_id}::uuid, ${dayOf(row.day)}::date, ${row.hour}::int, ${sql.join(
          FIGURES.map((f) => sql`${sign * Number(row[f])}::int`),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    insert into kitchen_hour_figures (kitchen_id, day, hour, ${list(FIGURES)})
    select v.kitchen_id, v.day, v.hour, ${list(FIGURES.map((f) => `sum(v.${f})::int`))}
      from (values ${hourValues}) as v(kitchen_id, day, hour, ${list(FIGURES)})
      join kitchens k on k.owner_id = v.kitchen_id
     group by v.kitchen_id, v.day, v.hour
    on conflict (kitchen_id, day, hour) do update set ${list(
      FIGURES.map((f) => `${f} = kitchen_hour_figures.${f} + excluded.${f}`),
    )}`);
  // Per kitchen and day: the same difference, summed over the hours; and in the same statement the marketplace's
  // day (with a kitchen counted active when its day's orders went from none to some) and hour.
  await tx.execute(sql`
    with v (kitchen_id, day, hour, ${list(FIGURES)}) as (
      select v.* from (values ${hourValues}) as v(kitchen_id, day, hour, ${list(FIGURES)})
        join kitchens k on k.owner_id = v.kitchen_id
    ), delta as (
      select kitchen_id, day, ${list(FIGURES.map((f) => `sum(${f})::int as ${f}`))}
        from v group by kitchen_id, day
    ), kitchen_day as (
      insert into kitchen_day_figures (kitchen_id, day, ${list(FIGURES)})
      select kitchen_id, day, ${list(FIGURES)} from delta
      on conflict (kitchen_id, day) do update set ${list(
        FIGURES.map((f) => `${f} = kitchen_day_figures.${f} + excluded.${f}`),
      )}
      returning kitchen_id, day, orders
    ), kitchen_month as (
      insert into kitchen_month_figures (month, kitchen_id, ${list(MONTH_FIGURES)})
      select date_trunc('month', day)::date, kitchen_id, ${MONTH_SUMS} from delta group by 1, 2
      on conflict (month, kitchen_id) do update set ${list(
        MONTH_FIGURES.map((f) => `${f} = kitchen_month_figures.${f} + excluded.${f}`),
      )}
    ), marketplace_day as (
      insert into marketplace_day_figures (day, shard, ${list(FIGURES)}, active_kitchens)
      select d.day, ${FIGURE_SHARD('d.kitchen_id')}, ${list(FIGURES, 'd.')},
             (kd.orders > 0)::int - ((kd.orders - d.orders) > 0)::int
        from delta d join kitchen_day kd on kd.kitchen_id = d.kitchen_id and kd.day = d.day
      on conflict (day, shard) do update set ${list(
        [...FIGURES, 'active_kitchens'].map((f) => `${f} = marketplace_day_figures.${f} + excluded.${f}`),
      )}
    )
    insert into marketplace_hour_figures (day, hour, shard, orders)
    select day, hour, ${FIGURE_SHARD('kitchen_id')}, sum(orders)::int from v group by day, hour, kitchen_id
    on conflict (day, hour, shard) do update set orders = marketplace_hour_figures.orders + excluded.orders`);
  // Per dish and day: the order's lines, while it is kept.
  const dishSides = sides.filter(({ row }) => row.kept);
  if (dishSides.length > 0)
    await tx.execute(sql`
      insert into dish_day_figures (kitchen_id, menu_item_id, day, portions, items_cents)
      select v.kitchen_id, i.menu_item_id, v.day, sum(v.sign)::int, sum(v.sign * i.price_cents)::int
        from (values ${sql.join(
          dishSides.map(
            ({ row, sign }) => sql`(${row.kitchen_id}::uuid, ${dayOf(row.day)}::date, ${sign}::int)`,
          ),
          sql`, `,
        )}) as v(kitchen_id, day, sign)
        join kitchens k on k.owner_id = v.kitchen_id
        join order_items i on i.order_id = ${orderId} and i.menu_item_id is not null
       group by v.kitchen_id, i.menu_item_id, v.day
      on conflict (kitchen_id, day, menu_item_id) do update set
        portions = dish_day_figures.portions + excluded.portions,
        items_cents = dish_day_figures.items_cents + excluded.items_cents`);
  // Per customer of the kitchen: orders and spending as increments; the last order only ever moves forward. In the
  // same statement, the kitchen's count of customers and of returning ones, from the row's orders before and after.
  const customerSides = sides.filter(({ row }) => row.customer_id !== null);
  if (customerSides.length > 0) {
    // An order's customer and kitchen never change: one row of kitchen_customer_figures, moved by this much.
    const delta = customerSides.reduce((sum, { row, sign }) => sum + sign * Number(row.orders), 0);
    await tx.execute(sql`
      with customer as (
      insert into kitchen_customer_figures (kitchen_id, customer_id, orders, gross_cents, last_ordered_at)
      select v.kitchen_id, v.customer_id, sum(v.orders)::int, sum(v.gross)::int,
        coalesce(max(v.placed_at), '-infinity')
        from (values ${sql.join(
          customerSides.map(
            ({ row, sign }) =>
              sql`(${row.kitchen_id}::uuid, ${row.customer_id}::uuid, ${sign * row.orders}::int, ${
                sign * row.gross_cents
              }::int, ${sign > 0 ? new Date(row.placed_at).toISOString() : null}::timestamptz)`,
          ),
          sql`, `,
        )}) as v(kitchen_id, customer_id, orders, gross, placed_at)
        join kitchens k on k.owner_id = v.kitchen_id
        join users u on u.id = v.customer_id
       group by v.kitchen_id, v.customer_id
      having max(v.placed_at) is not null or exists (
        select 1 from kitchen_customer_figures c where c.kitchen_id = v.kitchen_id and c.customer_id = v.customer_id)
      on conflict (kitchen_id, customer_id) do update set
        orders = kitchen_customer_figures.orders + excluded.orders,
        gross_cents = kitchen_customer_figures.gross_cents + excluded.gross_cents,
        last_ordered_at = greatest(kitchen_customer_figures.last_ordered_at, excluded.last_ordered_at)
      returning kitchen_id, orders
    )
    insert into kitchen_customer_counts (kitchen_id, customers, returning_customers)
    select kitchen_id, (orders > 0)::int - ((orders - ${delta}) > 0)::int,
           (orders > 1)::int - ((orders - ${delta}) > 1)::int
      from customer
    on conflict (kitchen_id) do update set
      customers = kitchen_customer_counts.customers + excluded.customers,
      returning_customers = kitchen_customer_counts.returning_customers + excluded.returning_customers`);
  }
}

/** The rollups' rows summed from per-order rows (`source`: `perOrder`'s columns). */
function rollupsOf(source: SQL) {
  return {
    hours: sql`select kitchen_id, day, hour, ${list(FIGURES.map((f) => `sum(${f})::int as ${f}`))}
      from (${source}) f group by kitchen_id, day, hour`,
    days: sql`select kitchen_id, day, ${list(FIGURES.map((f) => `sum(${f})::int as ${f}`))}
      from (${source}) f group by kitchen_id, day`,
    dishes: sql`select f.kitchen_id, i.menu_item_id, f.day, count(*)::int as portions,
        sum(i.price_cents)::int as items_cents
      from (${source}) f join order_items i on i.order_id = f.order_id
      where f.kept and i.menu_item_id is not null
      group by f.kitchen_id, i.menu_item_id, f.day`,
    customers: sql`select f.kitchen_id, f.customer_id, sum(f.orders)::int as orders,
        sum(f.gross_cents)::int as gross_cents, max(f.placed_at) as last_ordered_at
      from (${source}) f where f.customer_id is not null
      group by f.kitchen_id, f.customer_id`,
    customerCounts: sql`select kitchen_id, count(*)::int as customers,
        count(*) filter (where orders > 1)::int as returning_customers
      from (select kitchen_id, customer_id, sum(orders) as orders from (${source}) f
             where f.customer_id is not null group by kitchen_id, customer_id) c
      where orders > 0 group by kitchen_id`,
    months: sql`select date_trunc('month', day)::date as month, kitchen_id, ${MONTH_SUMS}
      from (${source}) f group by 1, 2`,
    marketplaceDays: sql`select day, ${FIGURE_SHARD('kitchen_id')} as shard,
        ${list(FIGURES.map((f) => `sum(${f})::int as ${f}`))},
        count(distinct kitchen_id) filter (where orders > 0)::int as active_kitchens
      from (${source}) f group by 1, 2`,
    marketplaceHours: sql`select day, hour, ${FIGURE_SHARD('kitchen_id')} as shard, sum(orders)::int as orders
      from (${source}) f group by 1, 2, 3`,
  };
}

/** What the rollups hold, computed from the orders themselves: the test's reference. */
export const scanOrderFigures = () => rollupsOf(perOrder(sql`true`));

/** Recomputes every rollup from the orders (`npm run figures:rebuild`); run it in one transaction. */
export async function rebuildOrderFigures(db: DbOrTx): Promise<{ orders: number }> {
  for (const table of [
    'kitchen_hour_figures',
    'kitchen_day_figures',
    'dish_day_figures',
    'kitchen_customer_figures',
    'kitchen_customer_counts',
    'kitchen_month_figures',
    'marketplace_day_figures',
    'marketplace_hour_figures',
    'order_figures',
  ])
    await db.execute(sql`delete from ${sql.identifier(table)}`);
  await db.execute(sql`insert into order_figures (${list(ORDER_COLUMNS)}) ${perOrder(sql`true`)}`);
  const sums = rollupsOf(sql`select * from order_figures`);
  await db.execute(
    sql`insert into kitchen_hour_figures (kitchen_id, day, hour, ${list(FIGURES)}) ${sums.hours}`,
  );
  await db.execute(sql`insert into kitchen_day_figures (kitchen_id, day, ${list(FIGURES)}) ${sums.days}`);
  await db.execute(
    sql`insert into dish_day_figures (kitchen_id, menu_item_id, day, portions, items_cents) ${sums.dishes}`,
  );
  await db.execute(
    sql`insert into kitchen_customer_figures (kitchen_id, customer_id, orders, gross_cents, last_ordered_at)
      ${sums.customers}`,
  );
  await db.execute(
    sql`insert into kitchen_customer_counts (kitchen_id, customers, returning_customers) ${sums.customerCounts}`,
  );
  await db.execute(
    sql`insert into kitchen_month_figures (month, kitchen_id, ${list(MONTH_FIGURES)}) ${sums.months}`,
  );
  await db.execute(
    sql`insert into marketplace_day_figures (day, shard, ${list(FIGURES)}, active_kitchens) ${sums.marketplaceDays}`,
  );
  await db.execute(
    sql`insert into marketplace_hour_figures (day, hour, shard, orders) ${sums.marketplaceHours}`,
  );
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from order_figures`);
  return { orders: count?.n ?? 0 };
}

/**
 * Before a customer's account is deleted (its `kitchen_customer_figures` rows go with it, by their foreign key): the
 * kitchens' counts of customers and returning customers no longer count them.
 */
export async function forgetCustomerFigures(tx: DbOrTx, customerId: string): Promise<void> {
  await tx.execute(sql`
    update kitchen_customer_counts c
       set customers = c.customers - 1, returning_customers = c.returning_customers - (f.orders > 1)::int
      from kitchen_customer_figures f
     where f.customer_id = ${customerId} and f.orders > 0 and c.kitchen_id = f.kitchen_id`);
}
