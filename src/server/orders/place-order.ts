import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { computeTotals, formatCents } from '../../shared/money.js';
import {
  IDEMPOTENCY_KEY_REUSED,
  MAX_ORDER_TOTAL_CENTS,
  type CustomerOrder,
  type PlaceOrderInput,
} from '../../shared/orders.js';
import { foreignKeyViolation, uniqueViolation } from '../db/unique-violation.js';
import { badRequest, conflict, HttpError } from '../lib/errors.js';
import { mutateInOneStatement } from '../live/mutate.js';
import { publishOrderChange } from './order-topics.js';
import { refuseOutsideDeliveryArea } from './delivery-area.js';
import { findKitchenAndItems, findOrderByKey, insertOrder } from './customer-order-queries.js';

export interface Customer {
  id: string;
  email: string;
}

const alreadyOpen = () =>
  conflict('You already have an order in progress. You can order again once the kitchen has finished it.');
const itemGone = () =>
  conflict('An item in your cart is no longer on the menu. Please remove it and order again.', 'itemIds');
const keyReused = () =>
  new HttpError(
    422,
    IDEMPOTENCY_KEY_REUSED,
    'This order key was already used for a different order. Please submit the order again.',
    'idempotencyKey',
  );

/** What a submit asks for, so that a retry with the same key can be told from a different order. */
const requestHashOf = ({ kitchenUid, itemIds, address }: PlaceOrderInput) =>
  createHash('sha256')
    .update(JSON.stringify([kitchenUid, itemIds, address]))
    .digest('base64url');

/**
 * Places a customer's order from ids only: names and prices come from the database, the fees and total are
 * computed here. Idempotent per (customer, idempotencyKey): a retry returns the order the first call made
 * (`created: false`), even when both run at once (the unique index decides, and the loser re-reads); the same key
 * with a different cart or address is refused (422).
 */
export async function placeOrder(
  app: Pick<FastifyInstance, 'db' | 'bus'>,
  customer: Customer,
  input: PlaceOrderInput,
): Promise<{ order: CustomerOrder; created: boolean }> {
  const requestHash = requestHashOf(input);
  const menu = await findKitchenAndItems(app.db, input.kitchenUid, input.itemIds);
  if (!menu) throw badRequest('This kitchen does not exist', 'kitchenUid');
  const { kitchen } = menu;
  refuseOutsideDeliveryArea(kitchen, input.location);
  const found = new Map(menu.items.map((item) => [item.id, item]));
  const lines = input.itemIds.map((id) => found.get(id));
  if (lines.some((line) => !line))
    throw badRequest("Some items are not on this kitchen's menu (any more)", 'itemIds');
  const priced = lines.filter((line) => line !== undefined);
  const totals = computeTotals(priced.map((line) => line.priceCents));
  if (totals.totalCents > MAX_ORDER_TOTAL_CENTS)
    throw badRequest(`An order may total at most ${formatCents(MAX_ORDER_TOTAL_CENTS)}`, 'itemIds');
  try {
    // One statement, so no transaction: the unique indexes decide the rest in it (one open order per customer, one
    // order per (customer, idempotency key)), with no read-then-insert window; the change notices commit with it.
    const order = await mutateInOneStatement(
      app,
      (publish) => publishOrderChange(publish, kitchen.uid, customer.id),
      (sending) =>
        insertOrder(
          app.db,
          {
            kitchenUid: kitchen.uid,
            kitchenName: kitchen.name,
            customerId: customer.id,
            customerEmail: customer.email,
            address: input.address,
            idempotencyKey: input.idempotencyKey,
            requestHash,
            totals,
            lines: priced.map((line) => ({
              menuItemId: line.id,
              item: line.item,
              priceCents: line.priceCents,
            })),
          },
          sending,
        ),
    );
    return { order, created: true };
  } catch (error) {
    // A dish deleted while this order was being placed: it is no longer on the menu (never a 500).
    if (foreignKeyViolation(error)) throw itemGone();
    // A unique index refused the insert: this submit was made before (a retry or a double click: answer with
    // that order), or the customer has another order in progress (409).
    const constraint = uniqueViolation(error);
    if (constraint === undefined) throw error;
    const earlier = await findOrderByKey(app.db, customer.id, input.idempotencyKey);
    if (earlier) {
      if (earlier.requestHash !== null && earlier.requestHash !== requestHash) throw keyReused();
      return { order: earlier.order, created: false };
    }
    if (constraint === 'orders_one_in_progress_per_customer') throw alreadyOpen();
    throw error;
  }
}
