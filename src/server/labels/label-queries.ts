import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { orderItems, orders, users } from '../db/schema.js';
import { inProgressOrders, kitchenSees } from '../data/order-queries.js';
import type { LabelDish } from './label-documents.js';

/** An order's line as its documents show it: what its dish declared when the order was placed. */
export interface DocumentLine extends LabelDish {
  orderId: string;
}

const lineColumns = {
  orderId: orderItems.orderId,
  item: orderItems.item,
  contains: orderItems.contains,
  mayContain: orderItems.mayContain,
  allergensDeclared: orderItems.allergensDeclared,
  ingredients: orderItems.ingredients,
  keepsDays: orderItems.keepsDays,
  reheating: orderItems.reheating,
};

function toLine(row: {
  orderId: string;
  item: string;
  contains: string[] | null;
  mayContain: string[] | null;
  allergensDeclared: boolean | null;
  ingredients: string | null;
  keepsDays: number | null;
  reheating: string | null;
}): DocumentLine {
  return {
    orderId: row.orderId,
    item: row.item,
    contains: row.contains,
    mayContain: row.mayContain,
    declared: row.allergensDeclared === true,
    ingredients: row.ingredients ?? '',
    keepsDays: row.keepsDays,
    reheating: row.reheating ?? '',
  };
}

/** One order of the kitchen (as its list shows it), with its customer's name and its lines; undefined if none. */
export async function orderForDocuments(db: DbOrTx, kitchenUid: string, orderId: string) {
  const [order] = await db
    .select({
      id: orders.id,
      state: orders.state,
      address: orders.address,
      fulfilment: orders.fulfilment,
      slotStart: orders.slotStart,
      slotEnd: orders.slotEnd,
      note: orders.note,
      customerAllergies: orders.customerAllergies,
      createdAt: orders.createdAt,
      customerName: users.displayName,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.customerId))
    .where(and(eq(orders.kitchenId, kitchenUid), eq(orders.id, orderId), kitchenSees));
  if (!order) return undefined;
  const lines = await db
    .select(lineColumns)
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  return { ...order, lines: lines.map(toLine) };
}

/** The lines of the kitchen's orders in progress for one slot (null: 'As soon as possible'). */
export async function slotLines(db: DbOrTx, kitchenUid: string, slotStart: Date | null) {
  const rows = await db
    .select({ id: orders.id, slotEnd: orders.slotEnd })
    .from(orders)
    .where(
      and(
        eq(orders.kitchenId, kitchenUid),
        kitchenSees,
        inProgressOrders,
        slotStart ? eq(orders.slotStart, slotStart) : isNull(orders.slotStart),
      ),
    );
  if (!rows.length) return { orders: 0, slotEnd: null, lines: [] as DocumentLine[] };
  const lines = await db
    .select(lineColumns)
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(orderItems.orderId), asc(orderItems.position));
  return { orders: rows.length, slotEnd: rows[0]?.slotEnd ?? null, lines: lines.map(toLine) };
}
