import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import type { CustomerOrder } from '../../shared/orders.js';
import type { TipStarted } from '../../shared/tips.js';
import { ledgerEntries, orderTips } from '../db/schema.js';
import { TEST_CARDS } from '../payments/local-stripe.js';
import type { paidKitchen } from './payments-world.js';
import { localProvider, placeOrder, sessionOf } from './payments-world.js';
import { signedIn, type TestContext } from './test-app.js';

type Kitchen = Awaited<ReturnType<typeof paidKitchen>>;

/** A kitchen's move of one of its orders, which must be allowed. */
export async function moveOrder(ctx: TestContext, cook: Kitchen['cook'], orderId: string, body: object) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/kitchen/orders/${orderId}/moves`,
    headers: { cookie: cook.cookie },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A new customer's order of `items` at the kitchen: by card, paid on the provider's page (events delivered). */
export async function cardOrder(ctx: TestContext, world: Kitchen, items: MenuItem[]) {
  const customer = await signedIn(ctx, 'customer');
  const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, { payment: 'card' });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<CustomerOrder>();
  await localProvider(ctx).pay(sessionOf(order), TEST_CARDS.pays);
  await localProvider(ctx).settled();
  return order;
}

/** A card order the kitchen accepted: captured. */
export async function capturedOrder(ctx: TestContext, world: Kitchen, items: MenuItem[]) {
  const order = await cardOrder(ctx, world, items);
  await moveOrder(ctx, world.cook, order.id, { move: 'accept', readyInMinutes: 30 });
  return order;
}

/** A card order accepted, then cancelled by the kitchen: captured and refunded in full. */
export async function refundedOrder(ctx: TestContext, world: Kitchen, items: MenuItem[]) {
  const order = await capturedOrder(ctx, world, items);
  await moveOrder(ctx, world.cook, order.id, { move: 'cancel', reason: 'The oven broke' });
  await localProvider(ctx).settled();
  return order;
}

/**
 * A card order of `items` taken to the door, then a tip of `amountCents` after delivery, paid on its own payment page
 * (events delivered): the tip's id and its payment at the provider.
 */
export async function tippedAfterDelivery(
  ctx: TestContext,
  world: Kitchen,
  items: MenuItem[],
  amountCents: number,
) {
  const customer = await signedIn(ctx, 'customer');
  const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, { payment: 'card' });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<CustomerOrder>();
  await localProvider(ctx).pay(sessionOf(order), TEST_CARDS.pays);
  await localProvider(ctx).settled();
  for (const move of ['accept', 'prepare', 'dispatch', 'deliver'])
    await moveOrder(ctx, world.cook, order.id, move === 'accept' ? { move, readyInMinutes: 30 } : { move });
  await localProvider(ctx).settled();
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/orders/${order.id}/tips`,
    headers: { cookie: customer.cookie },
    payload: { amountCents, requestKey: randomUUID() },
  });
  expect(started.statusCode, started.body).toBe(201);
  const { tip, checkoutUrl } = started.json<TipStarted>();
  await localProvider(ctx).pay(
    /\/checkout\/(cs_[0-9a-f]+)/.exec(checkoutUrl ?? '')?.[1] ?? '',
    TEST_CARDS.pays,
  );
  await localProvider(ctx).settled();
  const [row] = await ctx.database.db.select().from(orderTips).where(eq(orderTips.id, tip.id));
  expect(row?.state).toBe('paid');
  return { order, tipId: tip.id, intent: row?.paymentIntentId ?? '' };
}

/** A cash order taken all the way to the customer's door: the cash collected. */
export async function cashDeliveredOrder(ctx: TestContext, world: Kitchen, items: MenuItem[]) {
  const customer = await signedIn(ctx, 'customer');
  const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, items, { payment: 'cash' });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json<CustomerOrder>();
  for (const move of ['accept', 'prepare', 'dispatch', 'deliver'])
    await moveOrder(ctx, world.cook, order.id, move === 'accept' ? { move, readyInMinutes: 30 } : { move });
  return order;
}

/** Moves an order's ledger rows to `at`, as if its money had moved then (the ledger stamps the database's time). */
export async function ledgerAt(ctx: TestContext, orderIds: string[], at: string) {
  await ctx.database.db
    .update(ledgerEntries)
    .set({ createdAt: new Date(at) })
    .where(inArray(ledgerEntries.orderId, orderIds));
}
