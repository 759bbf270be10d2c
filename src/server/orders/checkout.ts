import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { PAYMENT_PROVIDER_DOWN } from '../../shared/payments.js';
import { kitchens, orders } from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { conflict, HttpError } from '../lib/errors.js';
import { stepKey } from '../payments/provider.js';
import { cardCharge, closeCheckout, paymentAbandoned } from './order-payments.js';
import { msg } from '../../shared/i18n/translator.js';

export { platformFeeOf } from './order-payments.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'payments' | 'config' | 'log' | 'clock'>;

/** How long a payment page stays open at least: Stripe's shortest is 30 minutes from the session's own creation. */
export const CHECKOUT_OPEN_MINUTES = 31;
/** Pages opened within one such step close together, so that a retry then asks the provider the same. */
const EXPIRY_STEP_MS = 5 * 60_000;
/** The latest a payment page opened now can close: `CHECKOUT_OPEN_MINUTES` and up to one step more. */
export const CHECKOUT_CLOSES_WITHIN_MINUTES = CHECKOUT_OPEN_MINUTES + EXPIRY_STEP_MS / 60_000;

/**
 * When a payment page opened at `now` (the world's time, as the provider's clock has it) closes: 31 to 36 minutes on,
 * on a 5-minute step. Its idempotency key names it: a double click within the step opens one page, and a retry
 * minutes later (after a crash) asks for a new one with a new key, which Stripe would refuse under the old key (its
 * parameters differ) or with the old deadline (under 30 minutes away).
 */
export function checkoutExpiry(now: number): Date {
  return new Date(Math.ceil((now + CHECKOUT_OPEN_MINUTES * 60_000) / EXPIRY_STEP_MS) * EXPIRY_STEP_MS);
}

/** Stripe's longest: a session closes at most 24 hours after its creation; a step is kept for the clocks. */
const CHECKOUT_LONGEST_MS = 24 * 3_600_000 - EXPIRY_STEP_MS;

/**
 * When a page that should stay open until `until` (a plan's week that needs its customer: until its slot can no
 * longer take the order) closes: then, on the step before it, but never sooner than `checkoutExpiry` nor later than
 * Stripe allows.
 */
export function checkoutExpiryUntil(now: number, until: number): Date {
  const soonest = checkoutExpiry(now).getTime();
  const latest = Math.floor((now + CHECKOUT_LONGEST_MS) / EXPIRY_STEP_MS) * EXPIRY_STEP_MS;
  const wanted = Math.floor(until / EXPIRY_STEP_MS) * EXPIRY_STEP_MS;
  return new Date(Math.max(soonest, Math.min(wanted, latest)));
}

/** A card order awaiting its payment that has no payment page yet (a crash came between the two). */
export const needsCheckout = (order: CustomerOrder) =>
  order.state === 'awaiting payment' && order.payment.checkoutUrl === null;

/** Where the customer comes back to from the payment page: paid, or gone back. */
export const returnUrls = (publicUrl: string, orderId: string) => ({
  successUrl: `${publicUrl}${paths.shoppingCart.href()}?paid=${orderId}`,
  cancelUrl: `${publicUrl}${paths.shoppingCart.href()}?unpaid=${orderId}`,
});

/**
 * Opens the provider's payment page for a card order: the amount is the order's total as the server computed it,
 * the platform keeps its part, the rest goes to the kitchen's account. The step's idempotency key makes a retry get
 * the same page. A provider that does not answer ends the order unpaid (nothing was held) with a 503 the customer
 * can act on, unless another call of the same submit opened the page meanwhile; a page opened for an order that
 * ended meanwhile is closed. So no answer sends the customer to pay for an order that has ended.
 */
export async function startCheckout(
  app: App,
  order: CustomerOrder,
  /** A repeat of a submit whose first call may still be opening the page (Stripe refuses a key in use: 409). */
  {
    repeat = false,
    openUntil,
  }: {
    repeat?: boolean;
    /** Keep the page open until then where the provider allows (a plan's week waiting for its customer). */
    openUntil?: Date;
  } = {},
): Promise<CustomerOrder> {
  const provider = app.payments.provider;
  if (!provider || order.kitchenUid === null) return order;
  const [row] = await app.db
    .select({
      totalCents: orders.totalCents,
      platformFeeCents: orders.platformFeeCents,
      creditCents: orders.creditCents,
      discountCents: orders.discountCents,
      discountPaidBy: orders.discountPaidBy,
      currency: orders.currency,
      account: kitchens.payoutAccountId,
    })
    .from(orders)
    .innerJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(eq(orders.id, order.id));
  try {
    if (!row?.account) throw new Error('the kitchen has no payout account');
    const expiresAt = openUntil
      ? checkoutExpiryUntil(Date.now(), openUntil.getTime())
      : checkoutExpiry(Date.now());
    const checkout = await provider.startCheckout(
      {
        orderId: order.id,
        // Store credit lowers what the card is charged and the platform's fee with it: the kitchen's part is
        // unchanged (ADR 29; what the fee cannot carry is the platform's transfer at capture).
        ...cardCharge(row),
        currency: row.currency,
        destinationAccount: row.account,
        description: `${order.kitchenName}: ${order.items.length} item${order.items.length === 1 ? '' : 's'}`,
        ...returnUrls(app.config.publicUrl, order.id),
        expiresAt,
      },
      `${stepKey(order.id, 'checkout')}:${expiresAt.getTime() / 1000}`,
    );
    await app.db
      .update(orders)
      .set({
        checkoutSessionId: checkout.sessionId,
        checkoutUrl: checkout.url,
        checkoutExpiresAt: expiresAt,
      })
      .where(and(eq(orders.id, order.id), isNull(orders.checkoutUrl)));
    // Ended unpaid while its page was being opened (another call of the same submit failed, or the customer went
    // back): the page is closed (a payment made on it first is released) and the customer told nothing was charged.
    const [now] = await app.db
      .select({
        paymentState: orders.paymentState,
        sessionId: orders.checkoutSessionId,
        url: orders.checkoutUrl,
      })
      .from(orders)
      .where(eq(orders.id, order.id));
    if (now?.paymentState === 'unpaid') {
      await closeCheckout(app, order.id);
      throw new Error('the order ended while its payment page was being opened');
    }
    // Another call of the same submit stored its page first (a step apart): that one is the order's, ours is closed.
    if (now?.sessionId !== checkout.sessionId && now?.url) {
      await provider.expireCheckout(checkout.sessionId).catch(() => false);
      return { ...order, payment: { ...order.payment, checkoutUrl: now.url } };
    }
    return { ...order, payment: { ...order.payment, checkoutUrl: checkout.url } };
  } catch (error) {
    app.log.warn({ err: error, orderId: order.id }, 'could not open a payment page');
    // A repeat leaves the order's fate to the first call: it waits a moment for its page.
    if (repeat) return waitForPage(app, order);
    // Another call of the same submit (a retry, a second click) may have opened the page meanwhile: the order goes
    // on with it. Otherwise it ends unpaid, its row locked, so that a page stored after this finds it ended.
    const opened = await mutate(app, async (tx, record) => {
      const [now] = await tx
        .select({ url: orders.checkoutUrl, paymentState: orders.paymentState })
        .from(orders)
        .where(eq(orders.id, order.id))
        .for('update');
      if (now?.url && now.paymentState !== 'unpaid') return now.url;
      await paymentAbandoned(tx, record, order.id);
      return null;
    });
    if (opened) return { ...order, payment: { ...order.payment, checkoutUrl: opened } };
    throw providerDown();
  }
}

const providerDown = () =>
  new HttpError(
    503,
    PAYMENT_PROVIDER_DOWN,
    msg('The payment service did not answer. Nothing was charged: please submit your order again.'),
  );

/** The page the first call of a submit opens, within a few seconds; 409 while it is still being opened. */
async function waitForPage(app: App, order: CustomerOrder): Promise<CustomerOrder> {
  for (let waited = 0; waited <= 3000; waited += 50) {
    const [now] = await app.db
      .select({ url: orders.checkoutUrl, paymentState: orders.paymentState })
      .from(orders)
      .where(eq(orders.id, order.id));
    if (now?.paymentState === 'unpaid') throw providerDown();
    if (now?.url) return { ...order, payment: { ...order.payment, checkoutUrl: now.url } };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw conflict('Your order is still on its way to the payment page. Please try again in a moment.');
}
