import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { ledgerEntries, orders } from '../db/schema.js';
import { TEST_CARDS, type LocalStripe } from '../payments/local-stripe.js';
import { buildKitchen, buildMenuItem } from './builders.js';
import { signedIn, type TestContext } from './test-app.js';

/**
 * The local provider of a test app built with `PAYMENTS: 'local'`, or the server a `PAYMENTS: 'stripe'` app talks to
 * (src/server/test/stripe-world.ts).
 */
export function localProvider(ctx: TestContext & { local?: LocalStripe }) {
  const local = ctx.local ?? ctx.app.payments.local;
  if (!local) throw new Error('this test app has no local payment provider (PAYMENTS=local)');
  return local;
}

/** A kitchen whose cook went through onboarding ('Set up payouts', 'Activate payouts'), and a dish of it. */
export async function paidKitchen(
  ctx: TestContext,
  options: { acceptsCash?: boolean; /** The dish's, '9.50' unless said. */ price?: string } = {},
) {
  const cook = await buildKitchen(ctx, { name: `Lola ${randomUUID().slice(0, 6)}` });
  const dal = await buildMenuItem(ctx, cook.kitchen, { item: 'Dal', price: options.price ?? '9.50' });
  const link = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/payouts/onboarding',
    headers: { cookie: cook.cookie },
  });
  expect(link.statusCode).toBe(200);
  const account = /\/onboard\/(acct_[0-9a-f]+)/.exec(link.json<{ url: string }>().url)?.[1] ?? '';
  await localProvider(ctx).completeOnboarding(account);
  await localProvider(ctx).settled();
  const refreshed = await ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/payouts/refresh',
    headers: { cookie: cook.cookie },
  });
  expect(refreshed.json()).toMatchObject({ state: 'payouts-on' });
  if (options.acceptsCash)
    await ctx.app.inject({
      method: 'PUT',
      url: '/api/kitchen/payouts/cash',
      headers: { cookie: cook.cookie },
      payload: { acceptsCash: true },
    });
  return { cook, dal, account };
}

export const placeOrder = (
  ctx: TestContext,
  cookie: string,
  kitchenUid: string,
  items: MenuItem[],
  extra: Record<string, unknown> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { cookie },
    payload: {
      kitchenUid,
      itemIds: items.map((i) => i.id),
      address: '4 Lane',
      idempotencyKey: randomUUID(),
      ...extra,
    },
  });

/** The checkout session id in an order's payment page address. */
export const sessionOf = (order: CustomerOrder) =>
  /\/checkout\/(cs_[0-9a-f]+)/.exec(order.payment.checkoutUrl ?? '')?.[1] ?? '';

/** A customer's card order at a kitchen with payouts on, paid with `card` on its payment page, events delivered. */
export async function paidOrder(ctx: TestContext, card: string = TEST_CARDS.pays) {
  const world = await paidKitchen(ctx);
  const customer = await signedIn(ctx, 'customer');
  const placed = await placeOrder(ctx, customer.cookie, world.cook.kitchen.uid, [world.dal, world.dal]);
  expect(placed.statusCode).toBe(201);
  const order = placed.json<CustomerOrder>();
  const local = localProvider(ctx);
  await local.pay(sessionOf(order), card);
  await local.settled();
  return { ...world, customer, order };
}

/**
 * The PaymentIntent of an order: as we stored it, or else as the provider holds it on the order's page (a session
 * has one once its customer confirmed, which we learn from its events or by asking).
 */
export async function intentOfOrder(ctx: TestContext & { local?: LocalStripe }, orderId: string) {
  const { row } = await money(ctx, orderId);
  if (row?.paymentIntentId) return row.paymentIntentId;
  const session = row?.checkoutSessionId ? localProvider(ctx).objects.get(row.checkoutSessionId) : undefined;
  return typeof session?.payment_intent === 'string' ? session.payment_intent : '';
}

/** An order's row and its ledger, by kind. */
export async function money(ctx: TestContext, orderId: string) {
  const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, orderId));
  const rows = await ctx.database.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.orderId, orderId))
    .orderBy(asc(ledgerEntries.createdAt));
  // Summed by kind: an order's refunds are entries of their own, one row of each kind apiece.
  const ledger: Record<string, number> = {};
  for (const r of rows) ledger[r.kind] = (ledger[r.kind] ?? 0) + r.amountCents;
  // A tip paid with the order is in its charge: its entry's part of the kitchen's transfer (ADR 25).
  const checkoutTip = rows
    .filter((r) => r.entry === 'tip:checkout')
    .reduce((sum, r) => sum + r.amountCents, 0);
  // Store credit beyond the fee reaches the kitchen by a transfer of its own, outside the order's payment (ADR 29).
  const creditTransfer = (ledger.credit_transfer ?? 0) + (ledger.credit_transfer_reversed ?? 0);
  return { row, ledger, entries: rows.length, checkoutTip, creditTransfer };
}

/** The order routes payment tests drive: the kitchen's moves and the customer's 'Cancel order'. */
export function orderCalls(get: () => TestContext) {
  const move = (cookie: string, id: string, body: object) =>
    get().app.inject({
      method: 'POST',
      url: `/api/kitchen/orders/${id}/moves`,
      headers: { cookie },
      payload: body,
    });
  return {
    move,
    accept: (cookie: string, id: string) => move(cookie, id, { move: 'accept', readyInMinutes: 30 }),
    cancelAsCustomer: (cookie: string, id: string) =>
      get().app.inject({ method: 'POST', url: `/api/orders/${id}/cancel`, headers: { cookie }, payload: {} }),
  };
}

/** The kitchen's moves of an accepted order to its door: accept (the payment captured), prepare, dispatch, deliver. */
export const TO_THE_DOOR = [
  { move: 'accept', readyInMinutes: 30 },
  { move: 'prepare' },
  { move: 'dispatch' },
  { move: 'deliver' },
] as const;

/** A card order (2 × Dal) paid, then taken by its kitchen to the door: captured and delivered. */
export async function deliveredCardOrder(ctx: TestContext) {
  const paid = await paidOrder(ctx);
  const { move } = orderCalls(() => ctx);
  for (const body of TO_THE_DOOR) {
    const res = await move(paid.cook.cookie, paid.order.id, body);
    expect(res.statusCode, res.body).toBe(200);
  }
  await localProvider(ctx).settled();
  return paid;
}

/** The object a provider event is about. */
export const objectOf = (event: Record<string, unknown>) =>
  (event.data as { object: Record<string, unknown> }).object;
