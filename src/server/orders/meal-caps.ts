import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { executePrepared } from '../db/prepared.js';
import { capPeriods, type Caps } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { kitchenMealCounts } from '../db/schema.js';
import { mealCounts } from '../data/meal-counts.js';

/** The cap an order would pass, the cap's figure, and what was left of it. */
export type CapRefusal =
  | { cap: 'day' | 'week'; limit: number; left: number }
  | { cap: 'year'; limit: number; left: number; currency: string };

const INT_MAX = 2_147_483_647;

/**
 * Counts an order's meals and gross against its kitchen's caps for its day, that day's week and its year: one
 * statement upserting the three rows, each only if it stays within its cap, decided on the row's latest version under
 * its lock (always day, week, year, so racing orders never deadlock), so that orders racing for the last meal never
 * take more than there are. Returns the first cap it would pass (the caller then rolls the transaction back).
 */
export async function takeMeals(
  tx: DbOrTx,
  kitchenUid: string,
  day: string,
  order: { meals: number; grossMinor: number },
  caps: Caps,
): Promise<CapRefusal | undefined> {
  const periods = capPeriods(day);
  const perDay = caps.mealsPerDay ?? INT_MAX;
  const perWeek = caps.mealsPerWeek ?? INT_MAX;
  const grossCap = caps.grossPerYear?.amountMinor ?? INT_MAX;
  // Each period's row stays within its cap: a new row with the order alone, an existing one with the order added.
  const within = (period: SQL, meals: SQL, gross: SQL) => sql`case ${period}
      when 'day' then ${meals} <= ${perDay}::int
      when 'week' then ${meals} <= ${perWeek}::int
      else ${gross} <= ${grossCap}::bigint end`;
  const taken = await executePrepared<{ period: string }>(
    tx,
    sql`
    insert into ${kitchenMealCounts} as c (kitchen_id, period, starts, meals, gross_minor)
    select ${kitchenUid}::uuid, p.period, p.starts::date, ${order.meals}::int, ${order.grossMinor}::int
    from (values ('day', ${periods.day}), ('week', ${periods.week}), ('year', ${periods.year})) as p(period, starts)
    where ${within(sql`p.period`, sql`${order.meals}::int`, sql`${order.grossMinor}::bigint`)}
    on conflict (kitchen_id, period, starts) do update
      set meals = c.meals + excluded.meals, gross_minor = c.gross_minor + excluded.gross_minor
      where ${within(sql`c.period`, sql`c.meals + excluded.meals`, sql`c.gross_minor::bigint + excluded.gross_minor`)}
    returning period`,
  );
  const got = new Set(taken.map((r) => r.period));
  if (got.size === 3) return undefined;
  const counted = await mealCounts(tx, kitchenUid, day);
  if (!got.has('day')) return { cap: 'day', limit: perDay, left: Math.max(0, perDay - counted.today) };
  if (!got.has('week')) return { cap: 'week', limit: perWeek, left: Math.max(0, perWeek - counted.thisWeek) };
  return {
    cap: 'year',
    limit: grossCap,
    left: Math.max(0, grossCap - counted.thisYearGrossMinor),
    currency: caps.grossPerYear?.currency ?? '',
  };
}

/** Gives a declined or cancelled order's meals and gross back to the day, week and year it counted against. */
export async function giveMealsBack(
  tx: DbOrTx,
  order: { kitchenId: string | null; capsDay: string | null; capsMeals: number; itemsCents: number },
): Promise<void> {
  if (order.capsDay === null || order.kitchenId === null) return;
  const periods = capPeriods(order.capsDay);
  await tx
    .update(kitchenMealCounts)
    .set({
      meals: sql`greatest(0, ${kitchenMealCounts.meals} - ${order.capsMeals})`,
      grossMinor: sql`greatest(0, ${kitchenMealCounts.grossMinor} - ${order.itemsCents})`,
    })
    .where(
      and(
        eq(kitchenMealCounts.kitchenId, order.kitchenId),
        or(
          and(eq(kitchenMealCounts.period, 'day'), eq(kitchenMealCounts.starts, periods.day)),
          and(eq(kitchenMealCounts.period, 'week'), eq(kitchenMealCounts.starts, periods.week)),
          and(eq(kitchenMealCounts.period, 'year'), eq(kitchenMealCounts.starts, periods.year)),
        ),
      ),
    );
}
