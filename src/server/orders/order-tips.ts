import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { msg } from '../../shared/i18n/translator.js';
import { paths } from '../../shared/paths.js';
import { PAYMENT_PROVIDER_DOWN } from '../../shared/payments.js';
import {
  TIP_CLOSED,
  TIPS_REFUSED,
  type OrderTip,
  type TipInput,
  type TipStarted,
} from '../../shared/tips.js';
import type { Tx } from '../db/database.js';
import { kitchens, orders, orderTips } from '../db/schema.js';
import { inAfterSaleWindow } from '../data/problem-report-queries.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import type { User } from '../identity/users.js';
import { HttpError, notFound } from '../lib/errors.js';
import { tipEntry, writeLedger } from '../payments/ledger.js';
import { tipKey } from '../payments/provider.js';
import { checkoutExpiry } from './checkout.js';

type TipApp = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'payments' | 'config' | 'log' | 'clock'>;
type TipRow = typeof orderTips.$inferSelect;

const toOrderTip = (row: TipRow): OrderTip => ({
  id: row.id,
  amountCents: row.amountCents,
  state: row.state,
  createdAt: row.createdAt.toISOString(),
});

const tipsRefused = (name: string) =>
  new HttpError(409, TIPS_REFUSED, msg('{name} does not take tips.'), 'amountCents', undefined, { name });

/**
 * 'Tip the cook' after delivery (ADR 25): within the 48 hours a problem may be reported (by `app.clock`), the
 * customer's tip is written `paying` and a payment page of its own is opened at the provider: a destination charge
 * captured at once, without an application fee, so the kitchen gets it whole. 404 for an order not theirs (or no
 * card payments here), 409 TIP_CLOSED out of that time, 409 TIPS_REFUSED where the kitchen does not take tips (or
 * cannot take cards). A repeat of the request key gives the same tip and page.
 */
export async function startTip(
  app: TipApp,
  customer: User,
  orderId: string,
  input: TipInput,
): Promise<TipStarted> {
  const provider = app.payments.provider;
  if (!provider) throw notFound(msg('Card payments are off on this marketplace'));
  const { tip, account, kitchenName } = await mutate(app, async (tx, record) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customer.id)))
      .for('update');
    if (!order) throw notFound(msg('You have no order with this id'));
    const [earlier] = await tx
      .select()
      .from(orderTips)
      .where(and(eq(orderTips.orderId, orderId), eq(orderTips.requestKey, input.requestKey)));
    const [kitchen] = order.kitchenId
      ? await tx
          .select({
            acceptsTips: kitchens.acceptsTips,
            account: kitchens.payoutAccountId,
            state: kitchens.payoutState,
          })
          .from(kitchens)
          .where(eq(kitchens.ownerId, order.kitchenId))
      : [];
    const account = kitchen?.state === 'payouts-on' ? kitchen.account : null;
    if (earlier) return { tip: earlier, account, kitchenName: order.kitchenName };
    await inAfterSaleWindow(tx, order, app.clock.now(), TIP_CLOSED, {
      notYet: msg('A tip can be given once the order is delivered or collected'),
      over: msg('A tip can be given within 48 hours of delivery'),
    });
    if (!kitchen?.acceptsTips || !account) throw tipsRefused(order.kitchenName);
    const [row] = await tx
      .insert(orderTips)
      .values({
        orderId,
        customerId: customer.id,
        requestKey: input.requestKey,
        amountCents: input.amountCents,
        currency: order.currency,
      })
      .returning();
    if (!row) throw new Error('the tip was not written');
    record({
      type: 'order.tip-changed',
      orderId,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      tipId: row.id,
      state: 'paying',
    });
    return { tip: row, account, kitchenName: order.kitchenName };
  });
  if (tip.state !== 'paying' || tip.checkoutUrl)
    return { tip: toOrderTip(tip), checkoutUrl: tip.checkoutUrl };
  if (!account) throw tipsRefused(kitchenName);
  try {
    const expiresAt = checkoutExpiry(Date.now());
    const back = `${app.config.publicUrl}${paths.customerOrders.href()}`;
    const checkout = await provider.startCheckout(
      {
        orderId,
        tipId: tip.id,
        amountMinor: tip.amountCents,
        currency: tip.currency,
        platformFeeMinor: 0,
        destinationAccount: account,
        description: `Tip for ${kitchenName}`,
        successUrl: `${back}?tipped=${tip.id}`,
        cancelUrl: back,
        expiresAt,
      },
      `${tipKey(orderId, tip.id)}:${expiresAt.getTime() / 1000}`,
    );
    await app.db
      .update(orderTips)
      .set({ checkoutSessionId: checkout.sessionId, checkoutUrl: checkout.url })
      .where(and(eq(orderTips.id, tip.id), eq(orderTips.state, 'paying')));
    const [now] = await app.db.select().from(orderTips).where(eq(orderTips.id, tip.id));
    return { tip: toOrderTip(now ?? tip), checkoutUrl: now?.checkoutUrl ?? checkout.url };
  } catch (error) {
    app.log.warn({ err: error, tipId: tip.id }, 'could not open a payment page for a tip');
    throw new HttpError(
      503,
      PAYMENT_PROVIDER_DOWN,
      msg('The payment service did not answer. Nothing was charged: please try again.'),
    );
  }
}

/**
 * A tip's payment succeeded (its event, or the poll asking): the tip is `paid` and its ledger entry `tip:<id>`
 * written in this transaction, once: what the customer paid (`tip`) and all of it to the kitchen (`tip_transfer`),
 * no platform fee. Anything but a tip `paying` changes nothing.
 */
export async function tipPaid(tx: Tx, record: RecordEvent, tipId: string, paymentIntentId: string) {
  const [tip] = await tx.select().from(orderTips).where(eq(orderTips.id, tipId)).for('update');
  if (!tip || tip.state !== 'paying') return;
  const [order] = await tx
    .select({ kitchenId: orders.kitchenId, customerId: orders.customerId })
    .from(orders)
    .where(eq(orders.id, tip.orderId));
  if (!order) return;
  await tx
    .update(orderTips)
    .set({ state: 'paid', paymentIntentId, paidAt: sql`now()` })
    .where(eq(orderTips.id, tipId));
  await writeLedger(
    tx,
    { id: tip.orderId, kitchenId: order.kitchenId, currency: tip.currency, paymentIntentId },
    [
      ['tip', tip.amountCents],
      ['tip_transfer', tip.amountCents],
    ],
    tipEntry(tipId),
  );
  record({
    type: 'order.tip-changed',
    orderId: tip.orderId,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    tipId,
    state: 'paid',
  });
}

/** A tip's payment page closed unpaid: the tip is `expired` (nothing was charged). */
export async function tipExpired(tx: Tx, record: RecordEvent, tipId: string) {
  const [tip] = await tx
    .update(orderTips)
    .set({ state: 'expired' })
    .where(and(eq(orderTips.id, tipId), eq(orderTips.state, 'paying')))
    .returning();
  if (!tip) return;
  const [order] = await tx
    .select({ kitchenId: orders.kitchenId, customerId: orders.customerId })
    .from(orders)
    .where(eq(orders.id, tip.orderId));
  record({
    type: 'order.tip-changed',
    orderId: tip.orderId,
    kitchenUid: order?.kitchenId ?? null,
    customerId: order?.customerId ?? null,
    tipId,
    state: 'expired',
  });
}

/**
 * Asks the provider where a tip's payment page stands and catches up (a webhook that never came): paid, or closed
 * unpaid (a page left open too long is closed first).
 */
export async function catchUpTip(app: TipApp, tipId: string): Promise<void> {
  const provider = app.payments.provider;
  const [tip] = await app.db.select().from(orderTips).where(eq(orderTips.id, tipId));
  if (!provider || !tip || tip.state !== 'paying') return;
  if (!tip.checkoutSessionId) {
    // Its page was never opened (the provider did not answer): nothing can be paid on it.
    await mutate(app, (tx, record) => tipExpired(tx, record, tipId));
    return;
  }
  const page = await provider.checkoutPayment(tip.checkoutSessionId);
  const intent = page.paymentIntentId;
  if (intent && (await provider.paymentState(intent)) === 'captured') {
    await mutate(app, (tx, record) => tipPaid(tx, record, tipId, intent));
    return;
  }
  if (page.status === 'expired') await mutate(app, (tx, record) => tipExpired(tx, record, tipId));
}

/** Tips whose payment page has been open longer than `olderThan` (the poll asks the provider about them). */
export async function payingTips(app: Pick<FastifyInstance, 'db'>, olderThan: Date, limit: number) {
  const rows = await app.db
    .select({ id: orderTips.id })
    .from(orderTips)
    .where(and(eq(orderTips.state, 'paying'), lt(orderTips.createdAt, olderThan)))
    .orderBy(asc(orderTips.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}
