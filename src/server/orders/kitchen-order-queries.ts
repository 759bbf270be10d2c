import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { KitchenOrder, OrderLine } from '../../shared/orders.js';
import type { DbOrTx } from '../db/database.js';
import { orderItems, orders } from '../db/schema.js';

/** A kitchen's open (not archived) orders, newest first, each with its items in the order they were added. */
export async function listKitchenOrders(
  db: DbOrTx,
  kitchenUid: string,
  onlyId?: string,
): Promise<KitchenOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.kitchenId, kitchenUid),
        isNull(orders.archivedAt),
        onlyId === undefined ? undefined : eq(orders.id, onlyId),
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id));
  if (rows.length === 0) return [];
  const lines = await db
    .select({ orderId: orderItems.orderId, item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orderItems.orderId), asc(orderItems.position));
  const byOrder = new Map<string, OrderLine[]>();
  for (const { orderId, ...line } of lines) {
    const list = byOrder.get(orderId) ?? [];
    list.push(line);
    byOrder.set(orderId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    customerEmail: row.customerEmail,
    customerAddress: row.address,
    status: row.status,
    items: byOrder.get(row.id) ?? [],
    totalCents: row.totalCents,
    createdAt: row.createdAt.toISOString(),
  }));
}

const ownOpenOrder = (kitchenUid: string, id: string) =>
  and(eq(orders.id, id), eq(orders.kitchenId, kitchenUid), isNull(orders.archivedAt));

/** Sets the status of one open order of this kitchen; returns its customer, or undefined when there is none. */
export async function updateOrderStatus(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
  status: string,
): Promise<{ customerId: string } | undefined> {
  const [row] = await db
    .update(orders)
    .set({ status, updatedAt: sql`now()` })
    .where(ownOpenOrder(kitchenUid, id))
    .returning({ customerId: orders.customerId });
  return row;
}

/** Archives one open order of this kitchen (the row stays, for history); returns its customer or undefined. */
export async function archiveOrder(
  db: DbOrTx,
  kitchenUid: string,
  id: string,
): Promise<{ customerId: string } | undefined> {
  const now = sql`now()`;
  const [row] = await db
    .update(orders)
    .set({ archivedAt: now, updatedAt: now })
    .where(ownOpenOrder(kitchenUid, id))
    .returning({ customerId: orders.customerId });
  return row;
}
