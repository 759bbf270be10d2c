import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { dishPortions, orderItems } from '../db/schema.js';

/** A dish the order counts against its portions for the day. */
export interface PortionClaim {
  menuItemId: string;
  item: string;
  count: number;
  perDay: number;
}

/**
 * Takes portions of the day's dishes for an order, each only if enough are left: one upsert per dish, decided on
 * the row's latest version under its lock, so orders racing for the last portions never take more than there are.
 * Returns the dishes that had too few (with how many were left); the caller then rolls the transaction back.
 */
export async function takePortions(
  tx: DbOrTx,
  day: string,
  claims: readonly PortionClaim[],
): Promise<{ item: string; left: number; asked: number }[]> {
  const short: { item: string; left: number; asked: number }[] = [];
  for (const claim of claims) {
    const taken = await tx
      .insert(dishPortions)
      .select(
        sql`select ${claim.menuItemId}::uuid, ${day}::date, ${claim.count}::int where ${claim.count} <= ${claim.perDay}`,
      )
      .onConflictDoUpdate({
        target: [dishPortions.menuItemId, dishPortions.day],
        set: { taken: sql`${dishPortions.taken} + excluded.taken` },
        setWhere: sql`${dishPortions.taken} + excluded.taken <= ${claim.perDay}`,
      })
      .returning({ taken: dishPortions.taken });
    if (taken.length > 0) continue;
    const [row] = await tx
      .select({ taken: dishPortions.taken })
      .from(dishPortions)
      .where(and(eq(dishPortions.menuItemId, claim.menuItemId), eq(dishPortions.day, day)));
    short.push({ item: claim.item, left: Math.max(0, claim.perDay - (row?.taken ?? 0)), asked: claim.count });
  }
  return short;
}

/** Gives a declined or cancelled order's portions back to the day it took them from. */
export async function givePortionsBack(tx: DbOrTx, orderId: string, day: string): Promise<void> {
  const lines = await tx
    .select({ menuItemId: orderItems.menuItemId, count: sql<number>`count(*)::int` })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .groupBy(orderItems.menuItemId);
  for (const line of lines) {
    if (line.menuItemId === null) continue;
    await tx
      .update(dishPortions)
      .set({ taken: sql`greatest(0, ${dishPortions.taken} - ${line.count})` })
      .where(and(eq(dishPortions.menuItemId, line.menuItemId), eq(dishPortions.day, day)));
  }
}
