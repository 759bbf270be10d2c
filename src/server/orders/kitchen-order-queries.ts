import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { orders } from '../db/schema.js';
import { kitchenSees } from '../data/order-queries.js';

/** One order on this kitchen's list: not one it does not see (awaiting its payment, or never paid). */
const ownListedOrder = (kitchenUid: string, id: string) =>
  and(eq(orders.id, id), eq(orders.kitchenId, kitchenUid), isNull(orders.archivedAt), kitchenSees);

/**
 * Sets the free-text status of one order on this kitchen's list, leaving its state as it is; returns its
 * customer, or undefined when there is none.
 */
export async function updateOrderStatus(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
  status: string,
): Promise<{ customerId: string | null } | undefined> {
  const [row] = await db
    .update(orders)
    .set({ status, updatedAt: sql`now()` })
    .where(ownListedOrder(kitchenUid, id))
    .returning({ customerId: orders.customerId });
  return row;
}

/** Takes one order off this kitchen's list (the spec's Delete; the row stays, for history). */
export async function archiveOrder(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
): Promise<typeof orders.$inferSelect | undefined> {
  const now = sql`now()`;
  const [row] = await db
    .update(orders)
    .set({ archivedAt: now, updatedAt: now })
    .where(ownListedOrder(kitchenUid, id))
    .returning();
  return row;
}
