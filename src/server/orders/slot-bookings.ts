import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { slotBookings } from '../db/schema.js';

/**
 * Takes a place in a kitchen's slot for an order: one upsert, decided on the row's latest version under its lock,
 * so orders racing for the last place never take more than `cap` (null: no cap, the count still kept). Returns
 * false when the slot is full; the caller then refuses the order (409 SLOT_FULL) and rolls its transaction back.
 */
export async function takeSlot(
  tx: DbOrTx,
  kitchenUid: string,
  slotStart: Date,
  cap: number | null,
): Promise<boolean> {
  const taken = await tx
    .insert(slotBookings)
    .select(
      sql`select ${kitchenUid}::uuid, ${slotStart.toISOString()}::timestamptz, 1 where ${cap}::int is null or ${cap}::int >= 1`,
    )
    .onConflictDoUpdate({
      target: [slotBookings.kitchenId, slotBookings.slotStart],
      set: { taken: sql`${slotBookings.taken} + 1` },
      setWhere: sql`${cap}::int is null or ${slotBookings.taken} < ${cap}::int`,
    })
    .returning({ taken: slotBookings.taken });
  return taken.length > 0;
}

/** Gives back the place a declined, cancelled or unpaid order (or one moved to another slot) took in its slot. */
export async function giveSlotBack(tx: DbOrTx, kitchenUid: string, slotStart: Date): Promise<void> {
  await tx
    .update(slotBookings)
    .set({ taken: sql`greatest(0, ${slotBookings.taken} - 1)` })
    .where(and(eq(slotBookings.kitchenId, kitchenUid), eq(slotBookings.slotStart, slotStart)));
}

/** How many places each of a kitchen's slots starting in [from, to) has taken, by its start (`toISOString()`). */
export async function slotCounts(
  db: DbOrTx,
  kitchenUid: string,
  from: Date,
  to: Date,
): Promise<Map<string, number>> {
  const rows = await db
    .select({ slotStart: slotBookings.slotStart, taken: slotBookings.taken })
    .from(slotBookings)
    .where(
      and(
        eq(slotBookings.kitchenId, kitchenUid),
        gte(slotBookings.slotStart, from),
        lt(slotBookings.slotStart, to),
      ),
    );
  return new Map(rows.filter((r) => r.taken > 0).map((r) => [r.slotStart.toISOString(), r.taken]));
}
