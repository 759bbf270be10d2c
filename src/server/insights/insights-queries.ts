import { sql, type SQL } from 'drizzle-orm';
import type { Insights, InsightsRange, Overview, OverviewKitchen, SalesBar } from '../../shared/insights.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { capPeriods } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { addDays, alignedDay, bucketOf, bucketsOf, monthSpans } from './insight-range.js';

/**
 * The figures of 'Insights' and 'Overview', read from the rollups alone (src/server/data/order-figures.ts), each view
 * in one statement (its parts as JSON). A kitchen's are a few index ranges of its own rows: per day for the series
 * and totals, per hour for the heat map only, its dishes', its customers' count and best ones. The operator's are the
 * marketplace's own rows per day and hour, and for the kitchens it ranks each kitchen's months (the days at a
 * period's edges from the rows per day).
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

/** A cook's insights over `range`, in their kitchen's zone. */
export async function kitchenInsights(
  db: DbOrTx,
  kitchen: Pick<Kitchen, 'uid' | 'timeZone'>,
  range: InsightsRange,
  currency: string,
  today: string,
  /** The meal caps of the kitchen's place, or null where it has none. */
  mealCaps: { mealsPerDay: number | null; mealsPerWeek: number | null } | null = null,
): Promise<Insights> {
  const uid = kitchen.uid;
  const from = sql`${range.from}::date`;
  const to = sql`${range.to}::date`;
  const localDay = sql`(r.created_at at time zone ${kitchen.timeZone})::date`;
  // The counts the caps keep (kitchen_meal_counts, written with each order): days of the period, weeks it touches.
  const firstWeek = capPeriods(range.from).week;
  const capsCounts = mealCaps
    ? sql`(select coalesce(json_agg(c order by period, starts), '[]') from (
         select period, starts::text as starts, meals from kitchen_meal_counts
          where kitchen_id = ${uid} and ((period = 'day' and starts between ${from} and ${to})
             or (period = 'week' and starts between ${firstWeek}::date and ${to}))
      ) c)`
    : sql`null`;
  const [answer] = await rows<{
    days: DayRow[];
    hours: { weekday: number; hour: number; orders: number }[];
    dishes: { menu_item_id: string; item: string; portions: number; items_cents: number }[];
    unsold: { id: string; item: string }[];
    customers: { customers: number; returning: number } | null;
    best: { name: string; orders: number; last_ordered_at: string }[];
    rating: { period: string; reviews: number; average: number }[];
    caps: { period: 'day' | 'week'; starts: string; meals: number }[] | null;
  }>(
    db,
    sql`select
      (select coalesce(json_agg(d), '[]') from (
         select day, orders, new_customer_orders, items_cents, gross_cents, refunded_cents, accepted, declined,
                expired, cancelled_by_kitchen, cancelled_by_customer, delivered, accept_seconds, ready_count,
                ready_seconds
           from kitchen_day_figures where kitchen_id = ${uid} and day between ${range.previousFrom}::date and ${to}
      ) d) as days,
      (select coalesce(json_agg(h order by weekday, hour), '[]') from (
         select extract(isodow from day)::int as weekday, hour, sum(orders)::int as orders
           from kitchen_hour_figures where kitchen_id = ${uid} and day between ${from} and ${to}
          group by 1, 2 having sum(orders) > 0
      ) h) as hours,
      (select coalesce(json_agg(x), '[]') from (
         select * from (
           select menu_item_id, (select m.item from menu_items m where m.id = f.menu_item_id) as item,
                  sum(portions)::int as portions, sum(items_cents)::int as items_cents
             from dish_day_figures f where kitchen_id = ${uid} and day between ${from} and ${to}
            group by menu_item_id having sum(portions) > 0
         ) f where item is not null
         order by portions desc, items_cents desc, item limit ${TOP_DISHES}
      ) x) as dishes,
      (select coalesce(json_agg(u order by item), '[]') from (
         select m.id, m.item from menu_items m
          where m.kitchen_id = ${uid} and not exists (
            select 1 from dish_day_figures f
             where f.kitchen_id = ${uid} and f.menu_item_id = m.id and f.portions > 0
               and f.day between ${addDays(today, 1 - UNSOLD_DAYS)}::date and ${today}::date)
      ) u) as unsold,
      (select json_build_object('customers', customers, 'returning', returning_customers)
         from kitchen_customer_counts where kitchen_id = ${uid}) as customers,
      (select coalesce(json_agg(b), '[]') from (
         select u.display_name as name, c.orders, c.last_ordered_at
           from kitchen_customer_figures c join users u on u.id = c.customer_id
          where c.kitchen_id = ${uid} and c.orders > 0
          order by c.orders desc nulls last, c.last_ordered_at desc nulls last limit ${BEST_CUSTOMERS}
      ) b) as best,
      (select coalesce(json_agg(r order by period), '[]') from (
         select ${range.bucket === 'day' ? localDay : sql`date_trunc('week', ${localDay})::date`} as period,
                count(*)::int as reviews, avg(r.stars)::float8 as average
           from reviews r
          where r.kitchen_id = ${uid} and r.hidden_at is null and ${localDay} between ${from} and ${to}
          group by 1
      ) r) as rating,
      ${capsCounts} as caps`,
  );
  if (!answer) throw new Error('no answer');
  const { days, hours, dishes, unsold, customers, best, rating } = answer;
  const counted = (period: 'day' | 'week', starts: string) =>
    n(answer.caps?.find((c) => c.period === period && c.starts === starts)?.meals);
  const weeks: string[] = [];
  for (let week = firstWeek; week <= range.to; week = addDays(week, 7)) weeks.push(week);
  const caps = mealCaps && {
    ...mealCaps,
    days:
      range.bucket === 'day'
        ? bucketsOf(range).map((day) => ({ period: day, meals: counted('day', day) }))
        : [],
    weeks: weeks.map((week) => ({ period: week, meals: counted('week', week) })),
  };

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
      customers: n(customers?.customers),
      returning: n(customers?.returning),
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
    caps,
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
}

/** A ranked kitchen's row (of `ranked r`, with `kitchens k`). */
const KITCHEN_COLUMNS = sql.raw(`k.owner_id as uid, k.name, coalesce(r.orders, 0) as orders,
  coalesce(r.gross_cents, 0) as gross_cents, coalesce(r.previous_orders, 0) as previous_orders,
  coalesce(r.accepted, 0) as accepted, coalesce(r.accept_seconds, 0) as accept_seconds,
  coalesce(r.turned_down, 0) as turned_down`);

/**
 * Each kitchen's figures that rank it, over `range` and the period before: summed first in each table read (its
 * whole months' rows, its days' at the edges), so that each sum is over one table the planner knows, then together.
 */
function perKitchen(range: InsightsRange): SQL {
  const [current, previous] = [
    monthSpans(range.from, range.to),
    monthSpans(range.previousFrom, range.previousTo),
  ];
  const sums = (at: SQL, turnedDown: SQL) => sql`
    sum(orders) filter (where ${at} >= ${range.from}::date) as orders,
    sum(gross_cents) filter (where ${at} >= ${range.from}::date) as gross_cents,
    sum(orders) filter (where ${at} < ${range.from}::date) as previous_orders,
    sum(accepted) filter (where ${at} >= ${range.from}::date) as accepted,
    sum(accept_seconds) filter (where ${at} >= ${range.from}::date) as accept_seconds,
    sum(${turnedDown}) filter (where ${at} >= ${range.from}::date) as turned_down`;
  const days = [...current.days, ...previous.days];
  const months = [current.months, previous.months].flatMap((m) => (m ? [m] : []));
  const parts: SQL[] = [];
  if (days.length > 0)
    parts.push(sql`select kitchen_id, ${sums(sql`day`, sql`declined + expired + cancelled_by_kitchen`)}
      from kitchen_day_figures
     where ${sql.join(
       days.map(([a, b]) => sql`day between ${a}::date and ${b}::date`),
       sql` or `,
     )}
     group by kitchen_id`);
  if (months.length > 0)
    parts.push(sql`select kitchen_id, ${sums(sql`month`, sql`turned_down`)}
      from kitchen_month_figures
     where ${sql.join(
       months.map(([a, b]) => sql`(month >= ${a}::date and month < ${b}::date)`),
       sql` or `,
     )}
     group by kitchen_id`);
  return sql`select kitchen_id, sum(orders)::int as orders, sum(gross_cents)::bigint as gross_cents,
      sum(previous_orders)::int as previous_orders, sum(accepted)::int as accepted,
      sum(accept_seconds)::bigint as accept_seconds, sum(turned_down)::int as turned_down
    from (${sql.join(parts, sql` union all `)}) p group by kitchen_id`;
}

/** The first `limit` of the ranked kitchens `where`, by `order`, with their rank: cut before kitchens are joined. */
const firstOf = (limit: number, where: SQL, order: SQL) =>
  sql`(select x.*, row_number() over (order by ${order}) as rank
         from (select * from ranked where ${where} order by ${order} limit ${limit}) x)`;

/** The operator's overview of the whole marketplace over `range` (days of each kitchen's own calendar). */
export async function marketplaceOverview(
  db: DbOrTx,
  range: InsightsRange,
  currency: string,
): Promise<Overview> {
  const inRange = sql`day between ${range.from}::date and ${range.to}::date`;
  const [answer] = await rows<{
    days: {
      day: string;
      gross_cents: number;
      orders: number;
      refunded_cents: number;
      active_kitchens: number;
      new_customers: number;
    }[];
    hours: { hour: number; orders: number }[];
    top_kitchens: KitchenRow[];
    slow_kitchens: KitchenRow[];
    open_reports: number;
  }>(
    db,
    sql`with per_kitchen as (
        ${perKitchen(range)}
      ), ranked as (
        select p.*,
               case when coalesce(orders, 0) = 0 then coalesce(previous_orders, 0) > 0
                    else accept_seconds > ${SLOW_ACCEPT_MINUTES * 60} * greatest(accepted, 1)
                      or turned_down * 5 > orders
                      or orders * 2 <= coalesce(previous_orders, 0) end as slow
          from per_kitchen p
      )
      select
        (select coalesce(json_agg(d order by day), '[]') from (
           select day, sum(gross_cents)::int as gross_cents, sum(orders)::int as orders,
                  sum(refunded_cents)::int as refunded_cents, sum(active_kitchens)::int as active_kitchens,
                  sum(new_customer_orders)::int as new_customers
             from marketplace_day_figures where ${inRange} group by day
        ) d) as days,
        (select coalesce(json_agg(h order by hour), '[]') from (
           select hour, sum(orders)::int as orders from marketplace_hour_figures where ${inRange} group by hour
        ) h) as hours,
        (select coalesce(json_agg(k order by rank), '[]') from (
           select ${KITCHEN_COLUMNS}, r.rank from ${firstOf(
             TOP_KITCHENS,
             sql`coalesce(orders, 0) > 0`,
             sql`coalesce(gross_cents, 0) desc, coalesce(orders, 0) desc, kitchen_id`,
           )} r join kitchens k on k.owner_id = r.kitchen_id
        ) k) as top_kitchens,
        (select coalesce(json_agg(k order by rank), '[]') from (
           select ${KITCHEN_COLUMNS}, r.rank from ${firstOf(
             SLOW_KITCHENS,
             sql`slow`,
             sql`coalesce(previous_orders, 0) - coalesce(orders, 0) desc, turned_down desc nulls last, kitchen_id`,
           )} r join kitchens k on k.owner_id = r.kitchen_id
        ) k) as slow_kitchens,
        (select count(*)::int from reports where closed_at is null) as open_reports`,
  );
  if (!answer) throw new Error('no answer');
  const { days, hours } = answer;
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
    topKitchens: answer.top_kitchens.map(kitchen),
    slowKitchens: answer.slow_kitchens.map(kitchen),
    openReports: n(answer.open_reports),
  };
}
