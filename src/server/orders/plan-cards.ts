import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { msg } from '../../shared/i18n/translator.js';
import type { CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import { PLAN_CARD_FAILED } from '../../shared/plans.js';
import { kitchens, mealPlans, orders, users } from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { HttpError } from '../lib/errors.js';
import { planWeekPaymentKey } from '../payments/provider.js';
import { startCheckout } from './checkout.js';
import {
  attachPayment,
  paymentAbandoned,
  paymentAuthorised,
  rememberHold,
  settlePayment,
  type PaymentApp,
} from './order-payments.js';

type App = Pick<FastifyInstance, 'db' | 'payments' | 'config' | 'log'>;
type PlanRow = typeof mealPlans.$inferSelect;

/** How long a card-saving page stays open: Stripe's longest is 24 hours from the session's creation. */
const CARD_SETUP_OPEN_MS = 23 * 3_600_000;

/** The idempotency key of a person's customer at the provider: one per person, whatever the retries. */
export const customerKey = (userId: string) => `user:${userId}:customer`;
/** The idempotency key of a plan's card-saving page. */
export const planCardKey = (planId: string) => `plan:${planId}:card`;

/**
 * A person's customer at the provider, made the first time they save a card (its key makes a retry, or a second
 * call at once, answer the same customer) and kept on their row.
 */
export async function providerCustomerOf(app: App, person: { id: string }): Promise<string> {
  const provider = app.payments.provider;
  if (!provider) throw new Error('no payment provider');
  const [user] = await app.db
    .select({ email: users.email, customerId: users.paymentCustomerId })
    .from(users)
    .where(eq(users.id, person.id));
  if (!user) throw new Error('no such user');
  if (user.customerId) return user.customerId;
  const made = await provider.createCustomer({ id: person.id, email: user.email }, customerKey(person.id));
  await app.db
    .update(users)
    .set({ paymentCustomerId: made })
    .where(and(eq(users.id, person.id), isNull(users.paymentCustomerId)));
  const [kept] = await app.db
    .select({ customerId: users.paymentCustomerId })
    .from(users)
    .where(eq(users.id, person.id));
  return kept?.customerId ?? made;
}

/**
 * Opens the provider's page on which the customer saves the card of a plan about to be made (Checkout in setup
 * mode, on their provider customer); the plan's id names it, and the customer comes back to 'Your plans'.
 */
export async function startPlanCard(
  app: App,
  customer: { id: string },
  planId: string,
  key: string = planCardKey(planId),
): Promise<{ sessionId: string; url: string }> {
  const provider = app.payments.provider;
  if (!provider) throw new Error('no payment provider');
  const customerId = await providerCustomerOf(app, customer);
  const back = `${app.config.publicUrl}${paths.customerOrders.href()}`;
  return provider.startCardSetup(
    {
      customerId,
      currency: app.payments.config.currency,
      metadata: { planId },
      successUrl: `${back}?card=${planId}#plans`,
      cancelUrl: `${back}#plans`,
      expiresAt: new Date(Math.floor((Date.now() + CARD_SETUP_OPEN_MS) / 1000) * 1000),
    },
    key,
  );
}

/**
 * The card a plan's customer saved, learnt from the provider's page while one is open (the customer's return to
 * 'Your plans', and each placement, ask): the card saved on it replaces the plan's (a 'Change card'), else the plan
 * keeps the card it has (null while none is saved). A provider that does not answer is asked again next time.
 */
export async function planCard(
  app: App,
  plan: Pick<PlanRow, 'id' | 'paymentMethod' | 'cardSetupSessionId' | 'cardSetupUrl' | 'cardPaymentMethodId'>,
): Promise<string | null> {
  if (plan.paymentMethod !== 'card') return null;
  if (plan.cardPaymentMethodId && !plan.cardSetupUrl) return plan.cardPaymentMethodId;
  const provider = app.payments.provider;
  const session = plan.cardSetupSessionId;
  if (!provider || !session) return plan.cardPaymentMethodId;
  try {
    const saved = await provider.savedCard(session);
    if (saved.status !== 'complete' || !saved.paymentMethodId) return plan.cardPaymentMethodId;
    await app.db
      .update(mealPlans)
      .set({ cardPaymentMethodId: saved.paymentMethodId, cardSetupUrl: null, updatedAt: new Date() })
      .where(and(eq(mealPlans.id, plan.id), eq(mealPlans.cardSetupSessionId, session)));
    return saved.paymentMethodId;
  } catch (error) {
    app.log.warn({ err: error, planId: plan.id }, 'could not learn whether a plan’s card was saved');
    return plan.cardPaymentMethodId;
  }
}

/**
 * A card plan's page to save a card on: the one open if it still is, else a fresh one ('Change card', or the first
 * page expired before the card was saved). The plan keeps charging its card until a new one is saved there. The
 * fresh page's key names the page it follows, so a second press at once gets the same page.
 */
export async function openPlanCardPage(
  app: App,
  customer: { id: string },
  plan: Pick<PlanRow, 'id' | 'paymentMethod' | 'cardSetupSessionId' | 'cardSetupUrl' | 'cardPaymentMethodId'>,
): Promise<void> {
  const provider = app.payments.provider;
  if (plan.paymentMethod !== 'card' || !provider)
    throw new HttpError(409, PLAN_CARD_FAILED, msg('This plan is not paid by card.'), 'action');
  const previous = plan.cardSetupSessionId;
  if (previous && plan.cardSetupUrl) {
    const page = await provider.savedCard(previous);
    if (page.status === 'open') return;
    // Saved on it meanwhile: kept, and a fresh page follows it.
    if (page.status === 'complete') await planCard(app, plan);
  }
  const page = await startPlanCard(
    app,
    customer,
    plan.id,
    previous ? `${planCardKey(plan.id)}:after:${previous}` : planCardKey(plan.id),
  );
  await app.db
    .update(mealPlans)
    .set({ cardSetupSessionId: page.sessionId, cardSetupUrl: page.url, updatedAt: new Date() })
    .where(
      and(
        eq(mealPlans.id, plan.id),
        previous ? eq(mealPlans.cardSetupSessionId, previous) : isNull(mealPlans.cardSetupSessionId),
      ),
    );
}

/** For tests: runs between the provider's answer to a week's charge and our record of it (a crash there). */
export const planChargeHooks: { afterCharge?: (orderId: string) => void } = {};

/**
 * Charges a card plan's week's order to its saved card without the customer, with the week's key (a retry after a
 * crash answers the same PaymentIntent), and records what came of it as the payment page's return would: authorised,
 * the order reaches its kitchen (its ledger row in the same transaction, `paymentAuthorised`); declined, the order
 * ends unpaid and the week fails with the card's refusal (thrown); the card needs its holder, the order's own
 * payment page is opened and the customer told ('Your card needs you'), the week failing if it is not paid before
 * that page closes (`paymentAbandoned`). Returns what came of it.
 */
export async function chargePlanWeek(
  app: PaymentApp & Pick<FastifyInstance, 'config'>,
  plan: Pick<PlanRow, 'id' | 'cardPaymentMethodId'>,
  week: string,
  order: CustomerOrder,
): Promise<'authorised' | 'needs-customer'> {
  const provider = app.payments.provider;
  if (!provider || !plan.cardPaymentMethodId)
    throw new Error('a card plan’s week without a provider or a card');
  const [row] = await app.db
    .select({
      paymentState: orders.paymentState,
      checkoutUrl: orders.checkoutUrl,
      totalCents: orders.totalCents,
      platformFeeCents: orders.platformFeeCents,
      currency: orders.currency,
      account: kitchens.payoutAccountId,
      priorNoticeMinutes: kitchens.priorNoticeMinutes,
      customerId: users.paymentCustomerId,
    })
    .from(orders)
    .innerJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .innerJoin(users, eq(users.id, orders.customerId))
    .where(eq(orders.id, order.id));
  if (!row) throw new Error('the week’s order is gone');
  // Settled by a run that died before recording the week: nothing more to ask.
  if (row.paymentState !== 'awaiting-payment' && row.paymentState !== 'unpaid') return 'authorised';
  if (!row.account || !row.customerId) throw new Error('no payout account, or no provider customer');
  const result = await provider.chargeSavedCard(
    {
      orderId: order.id,
      amountMinor: row.totalCents,
      currency: row.currency,
      platformFeeMinor: row.platformFeeCents,
      destinationAccount: row.account,
      customerId: row.customerId,
      paymentMethodId: plan.cardPaymentMethodId,
      description: `${order.kitchenName}: weekly plan, ${week}`,
    },
    planWeekPaymentKey(plan.id, week),
  );
  planChargeHooks.afterCharge?.(order.id);
  if (result.outcome === 'authorised') {
    const settle = await mutate(app, async (tx, record) => {
      await attachPayment(tx, order.id, result.paymentIntentId);
      return paymentAuthorised(tx, record, order.id);
    });
    if (settle) await settlePayment(app, order.id);
    else await rememberHold(app, order.id);
    return 'authorised';
  }
  if (result.outcome === 'declined') {
    await mutate(app, (tx, record) => paymentAbandoned(tx, record, order.id));
    throw new HttpError(
      402,
      PLAN_CARD_FAILED,
      msg('Your card was declined, so this week was not ordered.'),
      'payment',
    );
  }
  // The card needs its holder: the week's order is paid on its own page, as any card order, open until the slot
  // can no longer take the order (its prior notice before it) where the provider allows, not only half an hour.
  const slotStart = order.slot ? Date.parse(order.slot.start) : Number.NaN;
  const openUntil = Number.isFinite(slotStart)
    ? new Date(slotStart - row.priorNoticeMinutes * 60_000)
    : undefined;
  if (!row.checkoutUrl) await startCheckout(app, order, openUntil ? { openUntil } : {});
  return 'needs-customer';
}
