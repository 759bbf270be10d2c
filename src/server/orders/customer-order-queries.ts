import { and, eq, inArray } from 'drizzle-orm';
import type { OrderTotals } from '../../shared/money.js';
import type { CustomerOrder } from '../../shared/orders.js';
import type { DbOrTx } from '../db/database.js';
import { menuItems, orderEvents, orderItems, orders } from '../db/schema.js';
import { findCustomerOrder, toCustomerOrder } from './order-queries.js';

/** The order a customer placed with this idempotency key, if any (open or not), and what it was asked with. */
export async function findOrderByKey(
  db: DbOrTx,
  customerId: string,
  idempotencyKey: string,
): Promise<{ order: CustomerOrder; requestHash: string | null } | undefined> {
  const [row] = await db
    .select({ id: orders.id, requestHash: orders.requestHash })
    .from(orders)
    .where(and(eq(orders.customerId, customerId), eq(orders.idempotencyKey, idempotencyKey)))
    .limit(1);
  const order = row && (await findCustomerOrder(db, customerId, row.id));
  return order && { order, requestHash: row.requestHash };
}

/**
 * The named menu items of one kitchen; ids of other kitchens' items (or unknown ones) are simply absent. The rows
 * are key-share locked until the order commits, so a dish deleted meanwhile waits (and is then simply gone for the
 * next order) rather than breaking the order's foreign key.
 */
export async function findKitchenMenuItems(db: DbOrTx, kitchenUid: string, ids: readonly string[]) {
  return db
    .select({ id: menuItems.id, item: menuItems.item, priceCents: menuItems.priceCents })
    .from(menuItems)
    .where(and(eq(menuItems.kitchenId, kitchenUid), inArray(menuItems.id, [...new Set(ids)])))
    .for('key share');
}

export interface NewOrder {
  kitchenUid: string;
  kitchenName: string;
  customerId: string;
  customerEmail: string;
  address: string;
  idempotencyKey: string;
  requestHash: string;
  totals: OrderTotals;
  lines: { menuItemId: string; item: string; priceCents: number }[];
}

/** Inserts an order (state `recieved`), its lines (in cart order) and its first event. Unique violations propagate. */
export async function insertOrder(tx: DbOrTx, order: NewOrder): Promise<CustomerOrder> {
  const [row] = await tx
    .insert(orders)
    .values({
      kitchenId: order.kitchenUid,
      kitchenName: order.kitchenName,
      customerId: order.customerId,
      customerEmail: order.customerEmail,
      address: order.address,
      idempotencyKey: order.idempotencyKey,
      requestHash: order.requestHash,
      ...order.totals,
    })
    .returning();
  if (!row) throw new Error('insert returned no order');
  await tx
    .insert(orderItems)
    .values(order.lines.map((line, position) => ({ orderId: row.id, position, ...line })));
  await tx.insert(orderEvents).values({
    orderId: row.id,
    state: row.state,
    byRole: 'customer',
    byUserId: order.customerId,
    createdAt: row.createdAt,
  });
  return toCustomerOrder({
    row,
    items: order.lines.map(({ item, priceCents }) => ({ item, priceCents })),
    events: [{ state: row.state, at: row.createdAt.toISOString(), by: 'customer', reason: null }],
  });
}
