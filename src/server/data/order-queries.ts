import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, notInArray, or, type SQL } from 'drizzle-orm';
import { PROGRESS_STATES, type OrderState } from '../../shared/order-states.js';
import type { PickupPlace } from '../../shared/ordering.js';
import type { CustomerOrder, KitchenOrder, OrderEvent, OrderLine } from '../../shared/orders.js';
import type { PaymentDispute, PaymentRefund } from '../../shared/payments.js';
import type { OrderReview } from '../../shared/reviews.js';
import type { DbOrTx } from '../db/database.js';
import {
  kitchens,
  orderDisputes,
  orderEvents,
  orderItems,
  orderRefunds,
  orders,
  orderTips,
} from '../db/schema.js';
import type { OrderTip } from '../../shared/tips.js';
import { reviewsOfOrders } from './review-queries.js';
import { latestProblemReports, reportableUntil } from './problem-report-queries.js';
import type { ProblemReport } from '../../shared/problem-reports.js';

type OrderRow = typeof orders.$inferSelect;

/** Orders still in progress: not ended, not taken off the kitchen's list. */
export const inProgressOrders = and(isNull(orders.archivedAt), inArray(orders.state, [...PROGRESS_STATES]));
/** Orders that have ended or that the kitchen deleted. */
export const pastOrders = or(isNotNull(orders.archivedAt), notInArray(orders.state, [...PROGRESS_STATES]));

/** What a kitchen sees: not a card order before its payment is authorised, nor one never paid. */
export const kitchenSees = and(ne(orders.state, 'awaiting payment'), ne(orders.paymentState, 'unpaid'));
/** What a customer's lists show: not an order they never paid (they went back from the payment page). */
const customerSees = ne(orders.paymentState, 'unpaid');

/** How many past orders a list shows (newest first). */
const PAST_LIMIT = 100;

function groupBy<T extends { orderId: string }>(rows: T[]): Map<string, Omit<T, 'orderId'>[]> {
  const map = new Map<string, Omit<T, 'orderId'>[]>();
  for (const { orderId, ...rest } of rows) {
    const list = map.get(orderId) ?? [];
    list.push(rest);
    map.set(orderId, list);
  }
  return map;
}

/**
 * The orders matching `where`, newest first, each with its lines (in cart order) and its life so far (and, for the
 * customer, their review and where to collect a pickup order).
 */
export async function loadOrders(db: DbOrTx, where: SQL | undefined, limit?: number, withReviews = false) {
  const query = db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id));
  const rows = await (limit === undefined ? query : query.limit(limit));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events, refunds, disputes, reviewOf, problemOf, tips] = await Promise.all([
    db
      .select({ orderId: orderItems.orderId, item: orderItems.item, priceCents: orderItems.priceCents })
      .from(orderItems)
      .where(inArray(orderItems.orderId, ids))
      .orderBy(asc(orderItems.orderId), asc(orderItems.position)),
    db
      .select({
        orderId: orderEvents.orderId,
        state: orderEvents.state,
        createdAt: orderEvents.createdAt,
        byRole: orderEvents.byRole,
        reason: orderEvents.reason,
      })
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, ids))
      .orderBy(asc(orderEvents.orderId), asc(orderEvents.createdAt), asc(orderEvents.id)),
    db
      .select({
        orderId: orderRefunds.orderId,
        id: orderRefunds.id,
        amountCents: orderRefunds.amountCents,
        creditCents: orderRefunds.creditCents,
        state: orderRefunds.state,
        createdAt: orderRefunds.createdAt,
      })
      .from(orderRefunds)
      .where(inArray(orderRefunds.orderId, ids))
      .orderBy(asc(orderRefunds.orderId), asc(orderRefunds.createdAt), asc(orderRefunds.id)),
    db
      .select()
      .from(orderDisputes)
      .where(inArray(orderDisputes.orderId, ids))
      .orderBy(asc(orderDisputes.createdAt)),
    withReviews ? reviewsOfOrders(db, ids) : new Map<string, OrderReview>(),
    latestProblemReports(db, ids),
    db
      .select({
        orderId: orderTips.orderId,
        id: orderTips.id,
        amountCents: orderTips.amountCents,
        state: orderTips.state,
        createdAt: orderTips.createdAt,
      })
      .from(orderTips)
      .where(inArray(orderTips.orderId, ids))
      .orderBy(asc(orderTips.orderId), asc(orderTips.createdAt), asc(orderTips.id)),
  ]);
  const tipsOf = groupBy(tips);
  const pickupOf = withReviews ? await pickupPlaces(db, rows) : new Map<string, PickupPlace>();
  const linesOf = groupBy(lines);
  const eventsOf = groupBy(events);
  const refundsOf = groupBy(refunds);
  // The latest dispute of each order (a payment is rarely disputed twice).
  const disputeOf = new Map(
    disputes.map((d): [string, PaymentDispute] => [
      d.orderId,
      {
        status: d.status,
        amountCents: d.amountCents,
        evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
        evidenceSubmitted: d.evidenceSubmittedAt !== null,
        outcome: d.outcome,
      },
    ]),
  );
  return rows.map((row) => ({
    row,
    dispute: disputeOf.get(row.id) ?? null,
    problem: problemOf.get(row.id) ?? null,
    refunds: (refundsOf.get(row.id) ?? []).map((r): PaymentRefund => ({
      id: r.id,
      amountCents: r.amountCents,
      creditCents: r.creditCents,
      state: r.state,
      at: r.createdAt.toISOString(),
    })),
    items: (linesOf.get(row.id) ?? []) as OrderLine[],
    events: (eventsOf.get(row.id) ?? []).map((e): OrderEvent => ({
      state: e.state,
      at: e.createdAt.toISOString(),
      by: e.byRole,
      reason: e.reason,
    })),
    review: reviewOf.get(row.id) ?? null,
    pickup: pickupOf.get(row.id) ?? null,
    tips: (tipsOf.get(row.id) ?? []).map((tip): OrderTip => ({
      ...tip,
      createdAt: tip.createdAt.toISOString(),
    })),
  }));
}

function lifecycle(
  row: OrderRow,
  events: OrderEvent[],
  refunds: PaymentRefund[],
  dispute: PaymentDispute | null,
  problem: ProblemReport | null,
  tips: OrderTip[],
) {
  const delivered = row.state === 'delivered' ? events.findLast((e) => e.state === 'delivered') : undefined;
  return {
    problem,
    tips,
    problemReportUntil: delivered ? reportableUntil(new Date(delivered.at)).toISOString() : null,
    payment: {
      method: row.paymentMethod,
      state: row.paymentState,
      checkoutUrl: row.state === 'awaiting payment' ? row.checkoutUrl : null,
      refunds,
      dispute,
    },
    status: row.status,
    state: row.state,
    readyAt: row.readyAt?.toISOString() ?? null,
    reason: row.endReason,
    deleted: row.archivedAt !== null,
    events,
    fulfilment: row.fulfilment,
    slot:
      row.slotStart && row.slotEnd
        ? { start: row.slotStart.toISOString(), end: row.slotEnd.toISOString() }
        : null,
    note: row.note,
  };
}

/** The states in which a pickup order's customer is told where to collect it: once the kitchen accepted it. */
const PICKUP_TOLD: readonly OrderState[] = ['accepted', 'preparing', 'out for delivery', 'delivered'];

/** Where to collect each accepted pickup order of `rows`, by order id. */
async function pickupPlaces(db: DbOrTx, rows: readonly OrderRow[]): Promise<Map<string, PickupPlace>> {
  const told = rows.filter(
    (row) => row.fulfilment === 'pickup' && PICKUP_TOLD.includes(row.state) && row.kitchenId !== null,
  );
  if (told.length === 0) return new Map();
  const places = await db
    .select({
      uid: kitchens.ownerId,
      address: kitchens.pickupAddress,
      instructions: kitchens.pickupInstructions,
    })
    .from(kitchens)
    .where(inArray(kitchens.ownerId, [...new Set(told.map((row) => row.kitchenId as string))]));
  const byKitchen = new Map(places.map(({ uid, ...place }) => [uid, place]));
  return new Map(
    told.flatMap((row) => {
      const place = byKitchen.get(row.kitchenId as string);
      return place ? [[row.id, place] as const] : [];
    }),
  );
}

function toKitchenOrder({
  row,
  items,
  events,
  refunds,
  dispute,
  problem,
  tips,
}: Awaited<ReturnType<typeof loadOrders>>[number]): KitchenOrder {
  return {
    id: row.id,
    customerEmail: row.customerEmail,
    customerAddress: row.address,
    items,
    totalCents: row.totalCents,
    createdAt: row.createdAt.toISOString(),
    ...lifecycle(row, events, refunds, dispute, problem, tips),
    customerAllergies: row.customerAllergies,
    allergensAcknowledged: row.allergensAcknowledged,
  };
}

export function toCustomerOrder({
  row,
  items,
  events,
  refunds,
  dispute,
  problem,
  review,
  pickup,
  tips,
}: Awaited<ReturnType<typeof loadOrders>>[number]): CustomerOrder {
  return {
    id: row.id,
    kitchenUid: row.kitchenId,
    kitchenName: row.kitchenName,
    address: row.address,
    items,
    itemsCents: row.itemsCents,
    deliveryFeeCents: row.deliveryFeeCents,
    feesAndTaxCents: row.feesAndTaxCents,
    tipCents: row.tipCents,
    totalCents: row.totalCents,
    creditCents: row.creditCents,
    // Only on an order with a code: others are as they were.
    ...(row.discountPaidBy && row.discountCode
      ? { discount: { code: row.discountCode, cents: row.discountCents, paidBy: row.discountPaidBy } }
      : {}),
    createdAt: row.createdAt.toISOString(),
    ...lifecycle(row, events, refunds, dispute, problem, tips),
    review,
    pickup,
  };
}

/** A kitchen's orders in progress ('Active'), or its ended and deleted ones ('Past', the latest 100). */
export async function listKitchenOrders(
  db: DbOrTx,
  kitchenUid: string,
  which: 'active' | 'past',
): Promise<KitchenOrder[]> {
  const where = and(
    eq(orders.kitchenId, kitchenUid),
    kitchenSees,
    which === 'active' ? inProgressOrders : pastOrders,
  );
  return (await loadOrders(db, where, which === 'past' ? PAST_LIMIT : undefined)).map(toKitchenOrder);
}

/** One order of this kitchen, whatever its state. */
export async function findKitchenOrder(db: DbOrTx, kitchenUid: string, id: string) {
  const [order] = await loadOrders(db, and(eq(orders.kitchenId, kitchenUid), kitchenSees, eq(orders.id, id)));
  return order && toKitchenOrder(order);
}

/**
 * The customer's order in progress that comes first (an order for now, else the soonest slot: a weekly plan's order
 * for next week does not hide the one being cooked), or else their latest; null when they never ordered.
 */
export async function findCurrentOrder(db: DbOrTx, customerId: string): Promise<CustomerOrder | null> {
  const mine = and(eq(orders.customerId, customerId), customerSees);
  const [first] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(mine, inProgressOrders))
    .orderBy(isNotNull(orders.slotStart), asc(orders.slotStart), desc(orders.createdAt))
    .limit(1);
  const [current] = first ? await loadOrders(db, eq(orders.id, first.id), 1, true) : [];
  const found = current ?? (await loadOrders(db, mine, 1, true))[0];
  return found ? toCustomerOrder(found) : null;
}

/** 'Your orders': the customer's latest 100 orders, newest first. */
export async function listCustomerOrders(db: DbOrTx, customerId: string): Promise<CustomerOrder[]> {
  const mine = and(eq(orders.customerId, customerId), customerSees);
  return (await loadOrders(db, mine, PAST_LIMIT, true)).map(toCustomerOrder);
}

/** One order of this customer, whatever its state. */
export async function findCustomerOrder(db: DbOrTx, customerId: string, id: string) {
  const [order] = await loadOrders(db, and(eq(orders.customerId, customerId), eq(orders.id, id)), 1, true);
  return order && toCustomerOrder(order);
}
