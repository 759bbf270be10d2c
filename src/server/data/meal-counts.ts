import { and, eq, or } from 'drizzle-orm';
import { capPeriods } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { kitchenMealCounts } from '../db/schema.js';

export interface MealCounts {
  today: number;
  thisWeek: number;
  thisYearGrossMinor: number;
}

/** What a kitchen's orders counted on `day` (its local date), in that day's week and in its year. */
export async function mealCounts(db: DbOrTx, kitchenUid: string, day: string): Promise<MealCounts> {
  const periods = capPeriods(day);
  const rows = await db
    .select({
      period: kitchenMealCounts.period,
      meals: kitchenMealCounts.meals,
      grossMinor: kitchenMealCounts.grossMinor,
    })
    .from(kitchenMealCounts)
    .where(
      and(
        eq(kitchenMealCounts.kitchenId, kitchenUid),
        or(
          and(eq(kitchenMealCounts.period, 'day'), eq(kitchenMealCounts.starts, periods.day)),
          and(eq(kitchenMealCounts.period, 'week'), eq(kitchenMealCounts.starts, periods.week)),
          and(eq(kitchenMealCounts.period, 'year'), eq(kitchenMealCounts.starts, periods.year)),
        ),
      ),
    );
  const of = (period: string) => rows.find((r) => r.period === period);
  return {
    today: of('day')?.meals ?? 0,
    thisWeek: of('week')?.meals ?? 0,
    thisYearGrossMinor: of('year')?.grossMinor ?? 0,
  };
}
