// The queries of Insights and Overview before the marketplace and month rollups (commit 6b3d4f8), kept for
// bench/insights.ts to time beside the current ones on the same seeded database.
import { sql, type SQL } from 'drizzle-orm';
import type { Insights, InsightsRange, Overview, OverviewKitchen, SalesBar } from '../src/shared/insights.js';
import type { Kitchen } from '../src/shared/kitchens.js';
import type { DbOrTx } from '../src/server/db/database.js';
import { addDays, alignedDay, bucketOf, bucketsOf } from '../src/server/insights/insight-range.js';

/**
 * The figures of 'Insights' and 'Overview', read from the rollups alone (src/server/data/order-figures.ts): a
 * kitchen's are a few index ranges of its own rows (per day; per hour for the heat map only), the operator's passes
 * over the period's rows per kitchen and day (per hour for orders by hour).
 */

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}

const day = (value: string | Date) =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
const n = (value: unknown) => Number(value ?? 0);
const minutes = (seconds: unknown, count: unknown) =>
  n(count) > 0 ? Math.round((n(seconds) / n(count) / 60) * 10) / 10 : null;
const iso = (value: string | Date) => new Date(value).toISOString();

/** How many dishes the ranking shows, and how many best customers. */
const TOP_DISHES = 10;
const BEST_CUSTOMERS = 5;
/** A dish unsold this many days (to today) is listed. */
const UNSOLD_DAYS = 30;

interface DayRow {
  day: string | Date;
  orders: number;
  new_customer_orders: number;
  items_cents: number;
  gross_cents: number;
  refunded_cents: number;
  accepted: number;
  declined: number;
  expired: number;
  cancelled_by_kitchen: number;
  cancelled_by_customer: number;
  delivered: number;
  accept_seconds: number;
  ready_count: number;
  ready_seconds: number;
}

const SUMS = sql.raw(
  [
    'orders',
    'new_customer_orders',
    'items_cents',
    'gross_cents',
    'refunded_cents',
    'accepted',
    'declined',
    'expired',
    'cancelled_by_kitchen',
    'cancelled_by_customer',
    'delivered',
  ]
    .map((f) => `sum(${f})::int as ${f}`)
    .concat(['sum(accept_seconds)::bigint as accept_seconds', 'sum(ready_count)::int as ready_count'])
    .concat(['sum(ready_seconds)::bigint as ready_seconds'])
    .join(', '),
);

/** A cook's insights over `range`, in their kitchen's zone. */
export async function kitchenInsights(
  db: DbOrTx,
  kitchen: Pick<Kitchen, 'uid' | 'timeZone'>,
  range: InsightsRange,
  currency: string,
  today: string,
): Promise<Insights> {
  const uid = kitchen.uid;
  const [days, hours, dishes, unsold, customers, best, rating] = await Promise.all([
    rows<DayRow>(
      db,
      sql`select day, ${SUMS} from kitchen_day_figures
           where kitchen_id = ${uid} and day between ${range.previousFrom}::date and ${range.to}::date
           group by day`,
    ),
    rows<{ weekday: number; hour: number; orders: number }>(
      db,
      sql`select extract(isodow from day)::int as weekday, hour, sum(orders)::int as orders
            from kitchen_hour_figures
           where kitchen_id = ${uid} and day between ${range.from}::date and ${range.to}::date
           group by 1, 2 having sum(orders) > 0 order by 1, 2`,
    ),
    rows<{ menu_item_id: string; item: string; portions: number; items_cents: number }>(
      db,
      sql`select f.menu_item_id, m.item, sum(f.portions)::int as portions, sum(f.items_cents)::int as items_cents
            from dish_day_figures f join menu_items m on m.id = f.menu_item_id
           where f.kitchen_id = ${uid} and f.day between ${range.from}::date and ${range.to}::date
           group by f.menu_item_id, m.item having sum(f.portions) > 0
           order by portions desc, items_cents desc, m.item limit ${TOP_DISHES}`,
    ),
    rows<{ id: string; item: string }>(
      db,
      sql`select m.id, m.item from menu_items m
           where m.kitchen_id = ${uid} and not exists (
             select 1 from dish_day_figures f
              where f.kitchen_id = ${uid} and f.menu_item_id = m.id and f.portions > 0
                and f.day between ${addDays(today, 1 - UNSOLD_DAYS)}::date and ${today}::date)
           order by m.item`,
    ),
    rows<{ customers: number; returning: number }>(
      db,
      sql`select count(*)::int as customers, count(*) filter (where orders > 1)::int as returning
            from kitchen_customer_figures where kitchen_id = ${uid} and orders > 0`,
    ),
    rows<{ name: string; orders: number; last_ordered_at: string | Date }>(
      db,
      sql`select u.display_name as name, c.orders, c.last_ordered_at
            from kitchen_customer_figures c join users u on u.id = c.customer_id
           where c.kitchen_id = ${uid} and c.orders > 0
           order by c.orders desc, c.last_ordered_at desc limit ${BEST_CUSTOMERS}`,
    ),
    rows<{ period: string | Date; reviews: number; average: number }>(
      db,
      sql`select ${range.bucket === 'day' ? sql`(r.created_at at time zone ${kitchen.timeZone})::date` : sql`date_trunc('week', (r.created_at at time zone ${kitchen.timeZone})::date)::date`} as period,
             count(*)::int as reviews, avg(r.stars)::float8 as average
            from reviews r
           where r.kitchen_id = ${uid} and r.hidden_at is null
             and (r.created_at at time zone ${kitchen.timeZone})::date between ${range.from}::date and ${range.to}::date
           group by 1 order by 1`,
    ),
  ]);

  const bars = new Map<string, SalesBar>(
    bucketsOf(range).map((period) => [
      period,
      {
        period,
        orders: 0,
        itemsCents: 0,
        previousOrders: 0,
        previousItemsCents: 0,
        newCustomerOrders: 0,
        returningCustomerOrders: 0,
      },
    ]),
  );
  const totals = {
    orders: 0,
    itemsCents: 0,
    grossCents: 0,
    refundedCents: 0,
    previousOrders: 0,
    previousItemsCents: 0,
  };
  const reliability = {
    orders: 0,
    accepted: 0,
    declined: 0,
    notAnswered: 0,
    cancelledByKitchen: 0,
    cancelledByCustomer: 0,
    delivered: 0,
  };
  let acceptSeconds = 0;
  let readySeconds = 0;
  let readyCount = 0;
  for (const row of days) {
    const d = day(row.day);
    if (d >= range.from) {
      const bar = bars.get(bucketOf(range, d));
      if (bar) {
        bar.orders += n(row.orders);
        bar.itemsCents += n(row.items_cents);
        bar.newCustomerOrders += n(row.new_customer_orders);
        bar.returningCustomerOrders += n(row.orders) - n(row.new_customer_orders);
      }
      totals.orders += n(row.orders);
      totals.itemsCents += n(row.items_cents);
      totals.grossCents += n(row.gross_cents);
      totals.refundedCents += n(row.refunded_cents);
      reliability.orders += n(row.orders);
      reliability.accepted += n(row.accepted);
      reliability.declined += n(row.declined);
      reliability.notAnswered += n(row.expired);
      reliability.cancelledByKitchen += n(row.cancelled_by_kitchen);
      reliability.cancelledByCustomer += n(row.cancelled_by_customer);
      reliability.delivered += n(row.delivered);
      acceptSeconds += n(row.accept_seconds);
      readySeconds += n(row.ready_seconds);
      readyCount += n(row.ready_count);
    } else if (d <= range.previousTo) {
      const bar = bars.get(bucketOf(range, alignedDay(range, d)));
      if (bar) {
        bar.previousOrders += n(row.orders);
        bar.previousItemsCents += n(row.items_cents);
      }
      totals.previousOrders += n(row.orders);
      totals.previousItemsCents += n(row.items_cents);
    }
  }
  return {
    range,
    timeZone: kitchen.timeZone,
    currency,
    totals,
    sales: [...bars.values()],
    dishes: dishes.map((d) => ({
      menuItemId: d.menu_item_id,
      item: d.item,
      portions: n(d.portions),
      itemsCents: n(d.items_cents),
    })),
    unsold: unsold.map((d) => ({ menuItemId: d.id, item: d.item })),
    hours: hours.map((h) => ({ weekday: n(h.weekday), hour: n(h.hour), orders: n(h.orders) })),
    customers: {
      customers: n(customers[0]?.customers),
      returning: n(customers[0]?.returning),
      best: best.map((c) => ({
        firstName: firstName(c.name),
        orders: n(c.orders),
        lastOrderedAt: iso(c.last_ordered_at),
      })),
    },
    reliability: {
      ...reliability,
      minutesToAccept: minutes(acceptSeconds, reliability.accepted),
      minutesToReady: minutes(readySeconds, readyCount),
    },
    rating: rating.map((r) => ({
      period: day(r.period),
      reviews: n(r.reviews),
      average: Math.round(n(r.average) * 100) / 100,
    })),
    // The bench's kitchens are in no capped place (the old queries had no caps).
    caps: null,
  };
}

/** The first word of a person's name (what a cook sees of their customers); never their email. */
export function firstName(displayName: string): string {
  const first = displayName.trim().split(/\s+/)[0] ?? '';
  return first.includes('@') ? '' : first;
}

/** Kitchens the Overview ranks, and how many slow ones it lists. */
const TOP_KITCHENS = 10;
const SLOW_KITCHENS = 10;
/** Slow: accepting in over this many minutes on average. */
const SLOW_ACCEPT_MINUTES = 15;

interface KitchenRow {
  uid: string;
  name: string;
  orders: number;
  gross_cents: number;
  previous_orders: number;
  accepted: number;
  accept_seconds: number;
  turned_down: number;
  top: boolean;
  slow_rank: number | null;
}

/** The operator's overview of the whole marketplace over `range` (days of each kitchen's own calendar). */
export async function marketplaceOverview(
  db: DbOrTx,
  range: InsightsRange,
  currency: string,
): Promise<Overview> {
  const inRange = sql`day between ${range.from}::date and ${range.to}::date`;
  const [days, hours, kitchenRows, reports] = await Promise.all([
    rows<{
      day: string | Date;
      gross_cents: number;
      orders: number;
      refunded_cents: number;
      active_kitchens: number;
      new_customers: number;
    }>(
      db,
      sql`select day, sum(gross_cents)::bigint as gross_cents, sum(orders)::int as orders,
             sum(refunded_cents)::bigint as refunded_cents,
             count(*) filter (where orders > 0)::int as active_kitchens,
             sum(new_customer_orders)::int as new_customers
            from kitchen_day_figures where ${inRange} group by day order by day`,
    ),
    rows<{ hour: number; orders: number }>(
      db,
      sql`select hour, sum(orders)::int as orders from kitchen_hour_figures where ${inRange}
           group by hour order by hour`,
    ),
    rows<KitchenRow>(
      db,
      sql`with per_kitchen as (
            select kitchen_id,
                   sum(orders) filter (where day >= ${range.from}::date)::int as orders,
                   sum(gross_cents) filter (where day >= ${range.from}::date)::bigint as gross_cents,
                   sum(orders) filter (where day < ${range.from}::date)::int as previous_orders,
                   sum(accepted) filter (where day >= ${range.from}::date)::int as accepted,
                   sum(accept_seconds) filter (where day >= ${range.from}::date)::bigint as accept_seconds,
                   sum(declined + expired + cancelled_by_kitchen) filter (where day >= ${range.from}::date)::int
                     as turned_down
              from kitchen_day_figures
             where day between ${range.previousFrom}::date and ${range.to}::date
             group by kitchen_id
          ), ranked as (
            select p.*,
                   row_number() over (order by coalesce(gross_cents, 0) desc, coalesce(orders, 0) desc) as top_rank,
                   case when coalesce(orders, 0) = 0 then coalesce(previous_orders, 0) > 0
                        else accept_seconds > ${SLOW_ACCEPT_MINUTES * 60} * greatest(accepted, 1)
                          or turned_down * 5 > orders
                          or orders * 2 <= coalesce(previous_orders, 0) end as slow
              from per_kitchen p
          ), slow as (
            select *, row_number() over (order by coalesce(previous_orders, 0) - coalesce(orders, 0) desc,
                                                  turned_down desc nulls last) as slow_rank
              from ranked where slow
          )
          select k.owner_id as uid, k.name, coalesce(r.orders, 0) as orders, coalesce(r.gross_cents, 0) as gross_cents,
                 coalesce(r.previous_orders, 0) as previous_orders, coalesce(r.accepted, 0) as accepted,
                 coalesce(r.accept_seconds, 0) as accept_seconds, coalesce(r.turned_down, 0) as turned_down,
                 r.top_rank <= ${TOP_KITCHENS} and coalesce(r.orders, 0) > 0 as top, s.slow_rank
            from ranked r join kitchens k on k.owner_id = r.kitchen_id
            left join slow s on s.kitchen_id = r.kitchen_id
           where (r.top_rank <= ${TOP_KITCHENS} and coalesce(r.orders, 0) > 0) or s.slow_rank <= ${SLOW_KITCHENS}
           order by r.top_rank, s.slow_rank`,
    ),
    rows<{ open: number }>(db, sql`select count(*)::int as open from reports where closed_at is null`),
  ]);
  const kitchen = (r: KitchenRow): OverviewKitchen => ({
    uid: r.uid,
    name: r.name,
    orders: n(r.orders),
    grossCents: n(r.gross_cents),
    previousOrders: n(r.previous_orders),
    minutesToAccept: minutes(r.accept_seconds, r.accepted),
    turnedDown: n(r.orders) > 0 ? Math.round((n(r.turned_down) / n(r.orders)) * 100) / 100 : 0,
  });
  const byDay = new Map(days.map((d) => [day(d.day), d]));
  const allDays: Overview['days'] = [];
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
    const row = byDay.get(d);
    allDays.push({
      day: d,
      grossCents: n(row?.gross_cents),
      orders: n(row?.orders),
      refundedCents: n(row?.refunded_cents),
      activeKitchens: n(row?.active_kitchens),
      newCustomers: n(row?.new_customers),
    });
  }
  const byHour = new Map(hours.map((h) => [n(h.hour), n(h.orders)]));
  return {
    range,
    currency,
    days: allDays,
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, orders: byHour.get(hour) ?? 0 })),
    topKitchens: kitchenRows.filter((r) => r.top).map(kitchen),
    slowKitchens: kitchenRows
      .filter((r) => r.slow_rank !== null && n(r.slow_rank) <= SLOW_KITCHENS)
      .sort((a, b) => n(a.slow_rank) - n(b.slow_rank))
      .map(kitchen),
    openReports: n(reports[0]?.open),
  };
}
