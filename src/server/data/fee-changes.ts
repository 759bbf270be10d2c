import { and, desc, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { feeChanges } from '../db/schema.js';

/** The UTC day of an instant (a change of fees applies from a UTC day). */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The commission (percent) in force on `day`: the latest change whose day has come (the latest announced of a day),
 * else the deployment's PLATFORM_COMMISSION_PERCENT; and the next change announced, if any.
 */
export async function commissionOn(
  db: DbOrTx,
  configured: number,
  day: string,
): Promise<{
  commissionPercent: number;
  upcoming: { commissionPercent: number; effectiveOn: string } | null;
}> {
  const [inForce] = await db
    .select()
    .from(feeChanges)
    .where(lte(feeChanges.effectiveOn, day))
    .orderBy(desc(feeChanges.effectiveOn), desc(feeChanges.createdAt))
    .limit(1);
  const [next] = await db
    .select()
    .from(feeChanges)
    .where(and(gt(feeChanges.effectiveOn, day)))
    .orderBy(feeChanges.effectiveOn, desc(feeChanges.createdAt))
    .limit(1);
  return {
    commissionPercent: inForce ? inForce.commissionBasisPoints / 100 : configured,
    upcoming: next
      ? { commissionPercent: next.commissionBasisPoints / 100, effectiveOn: next.effectiveOn }
      : null,
  };
}
