import type { FastifyInstance } from 'fastify';
import { computeTotals } from '../../shared/money.js';
import { INITIAL_ORDER_STATUS, type CustomerOrder, type PlaceOrderInput } from '../../shared/orders.js';
import { uniqueViolation } from '../db/unique-violation.js';
import { findKitchen } from '../kitchens/kitchen-queries.js';
import { HttpError, badRequest, conflict } from '../lib/errors.js';
import { mutate } from '../live/mutate.js';
import { topics } from '../live/topics.js';
import {
  findKitchenMenuItems,
  findOpenOrder,
  findOrderByKey,
  insertOrder,
} from './customer-order-queries.js';

export interface Customer {
  id: string;
  email: string;
}

const alreadyOpen = () =>
  conflict('You already have an order in progress. You can order again once the kitchen has finished it.');

/**
 * Places a customer's order from ids only: names and prices come from the database, the fees and total are
 * computed here. Idempotent per (customer, idempotencyKey): a retry returns the order the first call made
 * (`created: false`), even when both run at once (the unique index decides, and the loser re-reads).
 */
export async function placeOrder(
  app: Pick<FastifyInstance, 'db' | 'hub'>,
  customer: Customer,
  input: PlaceOrderInput,
): Promise<{ order: CustomerOrder; created: boolean }> {
  const earlier = await findOrderByKey(app.db, customer.id, input.idempotencyKey);
  if (earlier) return { order: earlier, created: false };
  try {
    return await mutate(app, async (tx, publish) => {
      // Another call with this key may have committed since the read above.
      const committed = await findOrderByKey(tx, customer.id, input.idempotencyKey);
      if (committed) return { order: committed, created: false };
      const kitchen = await findKitchen(tx, input.kitchenUid);
      if (!kitchen) throw badRequest('This kitchen does not exist', 'kitchenUid');
      const found = new Map(
        (await findKitchenMenuItems(tx, kitchen.uid, input.itemIds)).map((item) => [item.id, item]),
      );
      const lines = input.itemIds.map((id) => found.get(id));
      if (lines.some((line) => !line))
        throw badRequest("Some items are not on this kitchen's menu (any more)", 'itemIds');
      const priced = lines.filter((line) => line !== undefined);
      if (await findOpenOrder(tx, customer.id)) throw alreadyOpen();
      const placed = await insertOrder(tx, {
        kitchenUid: kitchen.uid,
        kitchenName: kitchen.name,
        customerId: customer.id,
        customerEmail: customer.email,
        address: input.address,
        status: INITIAL_ORDER_STATUS,
        idempotencyKey: input.idempotencyKey,
        totals: computeTotals(priced.map((line) => line.priceCents)),
        lines: priced.map((line) => ({ menuItemId: line.id, item: line.item, priceCents: line.priceCents })),
      });
      await publish(topics.kitchenOrders(kitchen.uid));
      await publish(topics.customerOrder(customer.id));
      return { order: placed, created: true };
    });
  } catch (error) {
    // A concurrent call may have won the race: its commit shows up either as the open order our check found
    // (409) or as a unique violation on insert. The same submit (same key) gets that order; another one a 409.
    const constraint = uniqueViolation(error);
    const openFound = error instanceof HttpError && error.statusCode === 409;
    if (constraint === undefined && !openFound) throw error;
    const raced = await findOrderByKey(app.db, customer.id, input.idempotencyKey);
    if (raced) return { order: raced, created: false };
    if (openFound || constraint === 'orders_one_open_per_customer') throw alreadyOpen();
    throw error;
  }
}
