import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { CustomerOrder } from '../../shared/orders.js';
import type { OrderTotals } from '../../shared/money.js';
import type { DbOrTx } from '../db/database.js';
import { menuItems, orderItems, orders } from '../db/schema.js';

type OrderRow = typeof orders.$inferSelect;

async function withItems(db: DbOrTx, row: OrderRow): Promise<CustomerOrder> {
  const lines = await db
    .select({ item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, row.id))
    .orderBy(asc(orderItems.position));
  return toCustomerOrder(row, lines);
}

function toCustomerOrder(row: OrderRow, lines: { item: string; priceCents: number }[]): CustomerOrder {
  return {
    id: row.id,
    kitchenUid: row.kitchenId,
    kitchenName: row.kitchenName,
    status: row.status,
    address: row.address,
    items: lines,
    itemsCents: row.itemsCents,
    deliveryFeeCents: row.deliveryFeeCents,
    feesAndTaxCents: row.feesAndTaxCents,
    totalCents: row.totalCents,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The customer's open (not archived) order, or null: there is at most one. */
export async function findOpenOrder(db: DbOrTx, customerId: string): Promise<CustomerOrder | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.customerId, customerId), isNull(orders.archivedAt)))
    .limit(1);
  return row ? withItems(db, row) : null;
}

/** The order a customer placed with this idempotency key, if any (open or not), and what it was asked with. */
export async function findOrderByKey(
  db: DbOrTx,
  customerId: string,
  idempotencyKey: string,
): Promise<{ order: CustomerOrder; requestHash: string | null } | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.customerId, customerId), eq(orders.idempotencyKey, idempotencyKey)))
    .limit(1);
  return row && { order: await withItems(db, row), requestHash: row.requestHash };
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
  status: string;
  idempotencyKey: string;
  requestHash: string;
  totals: OrderTotals;
  lines: { menuItemId: string; item: string; priceCents: number }[];
}

/** Inserts an order and its lines (in cart order). Unique violations propagate to the caller. */
export async function insertOrder(tx: DbOrTx, order: NewOrder): Promise<CustomerOrder> {
  const [row] = await tx
    .insert(orders)
    .values({
      kitchenId: order.kitchenUid,
      kitchenName: order.kitchenName,
      customerId: order.customerId,
      customerEmail: order.customerEmail,
      address: order.address,
      status: order.status,
      idempotencyKey: order.idempotencyKey,
      requestHash: order.requestHash,
      ...order.totals,
    })
    .returning();
  if (!row) throw new Error('insert returned no order');
  await tx
    .insert(orderItems)
    .values(order.lines.map((line, position) => ({ orderId: row.id, position, ...line })));
  return toCustomerOrder(
    row,
    order.lines.map(({ item, priceCents }) => ({ item, priceCents })),
  );
}
