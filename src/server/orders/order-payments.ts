import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isEnded, type OrderState } from '../../shared/order-states.js';
import { CAPTURE_FAILED_REASON, UNPAID_REASON, type PaymentStateName } from '../../shared/payments.js';
import type { DbOrTx, Tx } from '../db/database.js';
import { kitchens, mealPlanWeeks, orderEvents, orders, type LedgerKind } from '../db/schema.js';
import { msg } from '../../shared/i18n/translator.js';
import { PLAN_CARD_FAILED } from '../../shared/plans.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { recordOrderFigures } from '../data/order-figures.js';
import { CHECKOUT_TIP_ENTRY, writeLedger } from '../payments/ledger.js';
import { creditTransferKey, stepKey, type PaymentState } from '../payments/provider.js';
import { giveBackWhatItTook } from './give-back.js';
import { moveCredit, returnedEntry } from '../payments/credit.js';

export type PaymentApp = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'payments' | 'log' | 'clock'>;
type OrderRow = typeof orders.$inferSelect;

/** The step each pending payment state waits on at the provider. */
const PENDING_STEPS = { capturing: 'capture', releasing: 'release', refunding: 'refund' } as const;
type PendingState = keyof typeof PENDING_STEPS;
type Step = (typeof PENDING_STEPS)[PendingState];
const isPending = (state: PaymentStateName): state is PendingState => state in PENDING_STEPS;

/** The provider's states in which a step has happened. */
const DONE_WHEN: Record<Step, readonly PaymentState[]> = {
  capture: ['captured', 'refunded'],
  release: ['released'],
  refund: ['refunded'],
};

/** The platform's part of an order: its fees and tax, and its commission on the items (rounded half up). */
export function platformFeeOf(
  totals: { itemsCents: number; feesAndTaxCents: number },
  commissionPercent: number,
): number {
  return totals.feesAndTaxCents + Math.round((totals.itemsCents * commissionPercent) / 100);
}

/**
 * How store credit splits an order's money (ADR 29): the card is charged the rest (`card`); the platform's fee at the
 * provider is lowered by the credit (`applicationFee`), the part of the fee the credit stands for is the platform's
 * funding (`feeFunded`), and what the credit is beyond the fee the platform pays the kitchen by a transfer of its own
 * (`topUp`). So the kitchen's part, `total - fee`, is the same whatever the customer paid with.
 */
export function creditSplit(order: SplitOrder) {
  const credit = order.creditCents;
  const fee = order.platformFeeCents;
  // A platform's promotion code is funded as credit is: its fee first (after the credit), then the transfer (ADR 30).
  const platformDiscount = platformDiscountOf(order);
  const funded = credit + platformDiscount;
  return {
    card: order.totalCents - credit,
    applicationFee: Math.max(0, fee - funded),
    feeFunded: Math.min(credit, fee),
    discountFeeFunded: Math.min(platformDiscount, Math.max(0, fee - credit)),
    topUp: Math.max(0, funded - fee),
  };
}

/** What splits an order's money: its total (after any code), the platform's fee, its credit and code. */
export interface SplitOrder {
  totalCents: number;
  platformFeeCents: number;
  creditCents: number;
  discountCents?: number;
  discountPaidBy?: 'platform' | 'kitchen' | null;
}

/** The part of an order's discount the platform pays (its own codes): 0 for a kitchen's code or none. */
export const platformDiscountOf = (order: SplitOrder) =>
  order.discountPaidBy === 'platform' ? (order.discountCents ?? 0) : 0;

/**
 * The kitchen's part of an order (its transfer, less a checkout tip's own): what the customer pays less the
 * platform's fee, and a platform's code on top (the platform pays it, not the kitchen). A kitchen's own code is
 * already out of the total it pays.
 */
export const kitchenPartOf = (order: SplitOrder & { tipCents: number }) =>
  order.totalCents + platformDiscountOf(order) - order.platformFeeCents - order.tipCents;

/** What the provider's payment page charges the card, and the platform's fee kept from it. */
export function cardCharge(order: SplitOrder) {
  const split = creditSplit(order);
  return { amountMinor: split.card, platformFeeMinor: split.applicationFee };
}

/** An order its store credit pays whole: no card payment, its steps need no provider (but the kitchen's transfer). */
export const paidByCredit = (order: Pick<OrderRow, 'paymentMethod' | 'creditCents' | 'totalCents'>) =>
  order.paymentMethod === 'card' && order.creditCents > 0 && order.creditCents === order.totalCents;

/**
 * The ledger's movements of a step done: the money taken and split, or given back. A tip chosen at checkout is in
 * the order's charge and outside the platform's fee: its part of the kitchen's transfer is its own entry. With
 * store credit the card moves only its part, and the platform's fee kept from it is lowered by the credit.
 */
function movementsOf(order: OrderRow, to: PaymentStateName): [LedgerKind, number][] {
  const total = order.totalCents;
  const kitchenPart = kitchenPartOf(order);
  const { card, applicationFee } = creditSplit(order);
  const moves = ((): [LedgerKind, number][] => {
    switch (to) {
      case 'authorised':
        return [['authorised', card]];
      case 'captured':
        return [
          ['captured', card],
          ['platform_fee', applicationFee],
          ['kitchen_transfer', kitchenPart],
        ];
      case 'released':
        return [['released', -card]];
      case 'refunded':
        return [
          ['refunded', -card],
          ['platform_fee_refunded', -applicationFee],
          ['kitchen_transfer_reversed', -kitchenPart],
        ];
      case 'cash-paid':
        return [['cash_collected', total]];
      default:
        return [];
    }
  })();
  // An order without credit writes its rows as it always did; one with credit leaves out the card's empty ones.
  return order.creditCents > 0 || order.discountCents > 0
    ? moves.filter(([, amount]) => amount !== 0)
    : moves;
}

/** The ledger's entry of an order's promotion code (ADR 30). */
export const DISCOUNT_ENTRY = 'discount';

/**
 * An order's promotion code in the ledger, once the order is paid (captured, or cash paid on delivery): what the
 * customer did not pay, and who pays it: the platform (the part of its fee the code stands for; what is beyond the
 * fee is in the platform's transfer to the kitchen, `credit_transfer`) or the kitchen (its transfer is lower by it).
 * Reversed when the whole order is refunded.
 */
async function discountFollows(tx: Tx, order: OrderRow, step: PaymentStateName): Promise<void> {
  const discount = order.discountCents;
  if (discount === 0) return;
  const funded: [LedgerKind, number] =
    order.discountPaidBy === 'platform'
      ? ['discount_fee_funded', creditSplit(order).discountFeeFunded]
      : ['discount_kitchen_funded', discount];
  if (step === 'captured' || step === 'cash-paid')
    await writeLedger(
      tx,
      order,
      [['discount_given', discount], funded].filter(([, amount]) => amount !== 0) as [LedgerKind, number][],
      DISCOUNT_ENTRY,
    );
  if (step === 'refunded')
    await writeLedger(
      tx,
      order,
      [
        ['discount_given_reversed', -discount],
        [`${funded[0]}_reversed` as LedgerKind, -funded[1]],
      ].filter(([, amount]) => amount !== 0) as [LedgerKind, number][],
      DISCOUNT_ENTRY,
    );
}

/** The ledger's entry of an order's store credit (ADR 29). */
export const CREDIT_ENTRY = 'credit';

/**
 * An order's store credit follows its payment: paid with it when captured (the platform funding its share);
 * given back to the customer's account when the order ends unpaid or released, or is refunded whole.
 */
async function creditFollows(tx: Tx, order: OrderRow, step: PaymentStateName): Promise<void> {
  const credit = order.creditCents;
  if (credit === 0) return;
  const { feeFunded } = creditSplit(order);
  if (step === 'captured')
    await writeLedger(
      tx,
      order,
      [
        ['credit_spent', credit],
        ['credit_fee_funded', feeFunded],
      ].filter(([, amount]) => amount !== 0) as [LedgerKind, number][],
      CREDIT_ENTRY,
    );
  if (step === 'refunded')
    await writeLedger(
      tx,
      order,
      [
        ['credit_returned', -credit],
        ['credit_fee_funded_reversed', -feeFunded],
      ].filter(([, amount]) => amount !== 0) as [LedgerKind, number][],
      CREDIT_ENTRY,
    );
  if ((step === 'refunded' || step === 'released' || step === 'unpaid') && order.customerId)
    await moveCredit(tx, {
      customerId: order.customerId,
      kind: 'returned',
      amountCents: credit,
      currency: order.currency,
      entry: returnedEntry(order.id),
      orderId: order.id,
    });
}

/**
 * Sets an order's payment state and writes the ledger's movements of it, in the transaction at hand; both sides'
 * lists hear of it.
 */
export async function setPaymentState(
  tx: Tx,
  record: RecordEvent,
  order: OrderRow,
  to: PaymentStateName,
  extra: Partial<typeof orders.$inferInsert> = {},
): Promise<void> {
  await tx
    .update(orders)
    .set({
      paymentState: to,
      paymentUpdatedAt: sql`now()`,
      updatedAt: sql`now()`,
      // A step done, or a new one asked: its failures are over.
      paymentFailures: 0,
      paymentRetryAt: null,
      paymentError: null,
      paymentGaveUpAt: null,
      ...extra,
    })
    .where(eq(orders.id, order.id));
  // A capture that finds its order cancelled goes on to refund it: the capture's own movements are written first.
  const captured = order.paymentState === 'capturing' && to === 'refunding';
  const step = captured ? 'captured' : to;
  await writeLedger(tx, order, movementsOf(order, step));
  await creditFollows(tx, order, step);
  await discountFollows(tx, order, step);
  if (order.tipCents > 0 && (step === 'captured' || step === 'refunded'))
    await writeLedger(
      tx,
      order,
      [
        [
          step === 'captured' ? 'tip_transfer' : 'tip_reversed',
          step === 'captured' ? order.tipCents : -order.tipCents,
        ],
      ],
      CHECKOUT_TIP_ENTRY,
    );
  // The figures follow the order's state and its refunds (src/server/data/order-figures.ts).
  await recordOrderFigures(tx, order.id);
  record({
    type: 'order.payment-changed',
    orderId: order.id,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    paymentState: to,
  });
}

/** Where a card order's money goes when its state moves: the step the move asks of the provider, if any. */
export function paymentAfterMove(order: OrderRow, to: OrderState): PaymentStateName | undefined {
  if (order.paymentMethod === 'cash') return to === 'delivered' ? 'cash-paid' : undefined;
  const payment = order.paymentState;
  // Paid whole with store credit: nothing to ask of the card's provider, each step is done at once.
  if (paidByCredit(order)) {
    if (to === 'accepted' && payment === 'authorised') return 'captured';
    if ((to === 'declined' || to === 'cancelled') && payment === 'authorised') return 'released';
    if (to === 'cancelled' && payment === 'captured') return 'refunded';
    return undefined;
  }
  if (to === 'accepted' && payment === 'authorised') return 'capturing';
  if ((to === 'declined' || to === 'cancelled') && payment === 'authorised') return 'releasing';
  if (to === 'cancelled' && payment === 'captured') return 'refunding';
  // Cancelled before it was paid: the payment page is closed (see `closeCheckout`).
  if (to === 'cancelled' && payment === 'awaiting-payment') return 'unpaid';
  // A capture under way when the kitchen cancels: it goes on to a refund once it is confirmed.
  return undefined;
}

/** Reads an order for a change, locked. */
async function lockOrder(tx: DbOrTx, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

/**
 * Cancels an order for a reason of its payment (never paid; or its payment could not be taken), recording the step
 * and giving back its counted portions and its slot's place, as any cancel does.
 */
async function cancelForPayment(
  tx: Tx,
  record: RecordEvent,
  order: OrderRow,
  reason: string,
  byRole: 'customer' | 'kitchen',
): Promise<void> {
  await tx
    .update(orders)
    .set({ state: 'cancelled', status: 'cancelled', endReason: reason })
    .where(eq(orders.id, order.id));
  await tx.insert(orderEvents).values({ orderId: order.id, state: 'cancelled', byRole, reason });
  const portionsReturned = await giveBackWhatItTook(tx, order);
  record({
    type: 'order.cancelled',
    orderId: order.id,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    from: order.state,
    to: 'cancelled',
    // The customer went back from the payment page; or the marketplace, when a payment could not be taken.
    by: byRole === 'customer' ? 'customer' : 'system',
    portionsReturned,
  });
}

/** Ends an order that was never paid (declined card, page abandoned or expired): nothing was held. */
async function endUnpaid(tx: Tx, record: RecordEvent, order: OrderRow): Promise<void> {
  await cancelForPayment(tx, record, order, UNPAID_REASON, 'customer');
  await setPaymentState(tx, record, order, 'unpaid');
}

/**
 * The payment of an order is authorised (the provider said so: an event, or the poll asking): the order reaches its
 * kitchen as `recieved`. An order that ended unpaid meanwhile (the customer went back, then paid in another tab)
 * has its hold released. Anything else (a repeat, an event out of order) changes nothing. Returns whether a
 * provider step now waits (`settlePayment`).
 */
export async function paymentAuthorised(tx: Tx, record: RecordEvent, orderId: string): Promise<boolean> {
  const order = await lockOrder(tx, orderId);
  if (!order || order.paymentMethod !== 'card') return false;
  if (order.state === 'awaiting payment' && order.paymentState === 'awaiting-payment') {
    await tx
      .update(orders)
      .set({ state: 'recieved', status: 'recieved', authorisedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await tx
      .insert(orderEvents)
      .values({ orderId: order.id, state: 'recieved', byRole: 'customer', byUserId: order.customerId });
    await setPaymentState(tx, record, order, 'authorised');
    record({
      type: 'order.placed',
      orderId: order.id,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      countsPortions: false,
    });
    return false;
  }
  if (order.paymentState === 'unpaid') {
    await writeLedger(tx, order, movementsOf(order, 'authorised'));
    await setPaymentState(tx, record, { ...order, paymentState: 'authorised' }, 'releasing');
    return true;
  }
  return false;
}

/** The payment page of an order awaiting payment expired or was given up: the order ends unpaid. */
export async function paymentAbandoned(tx: Tx, record: RecordEvent, orderId: string): Promise<void> {
  const order = await lockOrder(tx, orderId);
  if (order?.state === 'awaiting payment' && order.paymentState === 'awaiting-payment') {
    await endUnpaid(tx, record, order);
    await planWeekUnpaid(tx, record, order);
  }
}

/**
 * A plan's week whose order was left for its customer to pay (the saved card needed them) and was not paid before
 * its page closed: the week is skipped with the reason, and the customer told (the plan goes on).
 */
async function planWeekUnpaid(tx: Tx, record: RecordEvent, order: OrderRow): Promise<void> {
  const [week] = await tx
    .update(mealPlanWeeks)
    .set({
      state: 'failed',
      reasonCode: PLAN_CARD_FAILED,
      reason: msg("This week's payment was not confirmed in time, so this week was skipped."),
      updatedAt: sql`now()`,
    })
    .where(and(eq(mealPlanWeeks.orderId, order.id), eq(mealPlanWeeks.state, 'placed')))
    .returning({ id: mealPlanWeeks.id, planId: mealPlanWeeks.planId });
  if (week && order.kitchenId && order.customerId)
    record({
      type: 'plan.week-failed',
      planId: week.planId,
      weekId: week.id,
      customerId: order.customerId,
      kitchenUid: order.kitchenId,
    });
}

/**
 * The provider confirmed a step (an event, or the poll): the pending state the step was asked in is finished, its
 * movements written. Anything else changes nothing. Returns whether another step now waits.
 */
export async function stepConfirmed(
  tx: Tx,
  record: RecordEvent,
  orderId: string,
  reached: PaymentState,
): Promise<boolean> {
  const order = await lockOrder(tx, orderId);
  if (!order || !isPending(order.paymentState)) return false;
  const step = PENDING_STEPS[order.paymentState];
  if (!DONE_WHEN[step].includes(reached)) return false;
  if (step === 'capture') {
    // Cancelled by the kitchen while the capture was under way: refunded next.
    const next = order.state === 'cancelled' ? 'refunding' : 'captured';
    await setPaymentState(tx, record, order, next);
    return next === 'refunding';
  }
  await setPaymentState(tx, record, order, step === 'release' ? 'released' : 'refunded');
  return false;
}

/** A capture the provider refused for good (the hold was gone): the order is cancelled, nothing was taken. */
async function captureFailed(tx: Tx, record: RecordEvent, orderId: string): Promise<void> {
  const order = await lockOrder(tx, orderId);
  if (!order || order.paymentState !== 'capturing') return;
  if (!isEnded(order.state)) await cancelForPayment(tx, record, order, CAPTURE_FAILED_REASON, 'kitchen');
  await setPaymentState(tx, record, order, 'released');
}

/** For tests: runs between the provider's answer and our commit of it (a crash there is recovered by the poll). */
export const settleHooks: { afterProviderAnswer?: (orderId: string) => void } = {};

/**
 * Carries out the step an order's payment waits on (capture, release, refund) at the provider, with the step's
 * idempotency key, and records its outcome. Safe to run any number of times, from anywhere (the move that asked for
 * it, an event, the poll): the key makes the provider do the step once, and the pending state makes us record it
 * once. A provider that does not answer leaves the step pending for the poll; the provider's own state decides
 * what an error meant.
 */
export async function settlePayment(app: PaymentApp, orderId: string): Promise<void> {
  const provider = app.payments.provider;
  if (!provider) return;
  for (let round = 0; round < 3; round++) {
    const [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
    if (!order?.paymentIntentId || !isPending(order.paymentState)) return;
    const step = PENDING_STEPS[order.paymentState];
    const intent = order.paymentIntentId;
    let reached: PaymentState;
    try {
      await provider[step](intent, stepKey(order.id, step));
      reached = DONE_WHEN[step][0] as PaymentState;
    } catch (error) {
      // The error may be that the step was done already (by an earlier call whose answer was lost): ask.
      reached = await provider.paymentState(intent);
      if (!DONE_WHEN[step].includes(reached)) {
        if (step === 'capture' && reached === 'released') {
          await mutate(app, (tx, record) => captureFailed(tx, record, order.id));
          return;
        }
        throw error;
      }
    }
    settleHooks.afterProviderAnswer?.(order.id);
    const more = await mutate(app, (tx, record) => stepConfirmed(tx, record, order.id, reached));
    if (!more) return;
  }
}

/** Tries of a step that keeps failing (a refund of a disputed charge) before it is left to the operator. */
export const MAX_STEP_TRIES = 12;
/** The poll's wait before the next try: 20 s, doubling, at most 6 hours (the twelfth try comes about 11 hours on). */
export const retryDelayMs = (failures: number) => Math.min(20_000 * 2 ** (failures - 1), 6 * 3600_000);

/**
 * A pending step failed: the poll tries it again later, backing off, and after MAX_STEP_TRIES leaves it to the
 * operator, whose 'Money' tab lists it with the provider's last word.
 */
async function stepFailed(app: PaymentApp, orderId: string, error: unknown) {
  const now = app.clock.now();
  const why = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  await mutate(app, async (tx, record) => {
    const order = await lockOrder(tx, orderId);
    if (!order || !isPending(order.paymentState)) return;
    const failures = order.paymentFailures + 1;
    const gaveUp = failures >= MAX_STEP_TRIES;
    await tx
      .update(orders)
      .set({
        paymentFailures: failures,
        paymentRetryAt: new Date(now + retryDelayMs(failures)),
        paymentError: why,
        paymentGaveUpAt: gaveUp ? new Date(now) : null,
        updatedAt: sql`now()`,
      })
      .where(eq(orders.id, orderId));
    record({
      type: 'order.payment-changed',
      orderId,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      paymentState: order.paymentState,
    });
  });
}

/**
 * Pays the kitchen what an order's store credit paid beyond the platform's fee (ADR 29), by a transfer from the
 * platform's balance once the order is captured; takes it back when the whole order is refunded. Each with its own
 * idempotency key, recorded once (the transfer's id; a memo row in the ledger). A transfer never made by the time the
 * order is refunded is not made. Safe to run any number of times (the poll does, for one left undone).
 */
export async function settleCreditTransfer(app: PaymentApp, orderId: string): Promise<void> {
  const provider = app.payments.provider;
  if (!provider) return;
  const [found] = await app.db
    .select({ order: orders, account: kitchens.payoutAccountId })
    .from(orders)
    .leftJoin(kitchens, eq(kitchens.ownerId, orders.kitchenId))
    .where(eq(orders.id, orderId));
  if (!found) return;
  const { order, account } = found;
  const { topUp } = creditSplit(order);
  if (topUp === 0) return;
  if (order.paymentState === 'captured' && order.creditTransferId === null) {
    if (!account) throw new Error('the kitchen has no payout account');
    const transferId = await provider.transfer(
      { orderId, destinationAccount: account, amount: topUp, currency: order.currency },
      creditTransferKey(orderId, 'transfer'),
    );
    await mutate(app, async (tx) => {
      const now = await lockOrder(tx, orderId);
      if (!now || now.creditTransferId !== null) return;
      await tx.update(orders).set({ creditTransferId: transferId }).where(eq(orders.id, orderId));
      await writeLedger(
        tx,
        { ...now, paymentIntentId: transferId },
        [['credit_transfer', topUp]],
        CREDIT_ENTRY,
      );
    });
    return;
  }
  // Refunded whole by its cancel (partial refunds of a delivered order give back their own parts, not this).
  if (
    order.paymentState === 'refunded' &&
    order.state === 'cancelled' &&
    order.creditTransferId !== null &&
    !order.creditTransferReversed
  ) {
    await provider.reverseTransfer(order.creditTransferId, creditTransferKey(orderId, 'reversal'));
    await mutate(app, async (tx) => {
      const now = await lockOrder(tx, orderId);
      if (!now || now.creditTransferReversed) return;
      await tx.update(orders).set({ creditTransferReversed: true }).where(eq(orders.id, orderId));
      await writeLedger(
        tx,
        { ...now, paymentIntentId: now.creditTransferId },
        [['credit_transfer_reversed', -topUp]],
        CREDIT_ENTRY,
      );
    });
  }
}

/** Settles without failing the caller: the move is done; a step the provider did not take is the poll's. */
export async function settleSoon(app: PaymentApp, orderId: string): Promise<void> {
  try {
    await settlePayment(app, orderId);
    await settleCreditTransfer(app, orderId);
  } catch (error) {
    app.log.warn({ err: error, orderId }, 'a payment step failed; the poll will retry it');
    await stepFailed(app, orderId, error).catch((failed: unknown) =>
      app.log.error({ err: failed, orderId }, 'could not record a failed payment step'),
    );
  }
}

/**
 * Closes the payment page of an order that ended before it was paid. A payment made first (in another tab) is
 * released: found by asking the provider now, since its event may never come and the poll does not look at ended
 * orders; a payment made later is released when its event arrives.
 */
export async function closeCheckout(app: PaymentApp, orderId: string): Promise<void> {
  const provider = app.payments.provider;
  const [order] = await app.db
    .select({ sessionId: orders.checkoutSessionId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.paymentState, 'unpaid')));
  if (!provider || !order?.sessionId) return;
  try {
    if (!(await provider.expireCheckout(order.sessionId))) await catchUpWithProvider(app, orderId);
  } catch (error) {
    app.log.warn({ err: error, orderId }, 'could not close a payment page; it expires by itself');
  }
}

/**
 * Records the payment an order's page made (a Checkout Session has none until its customer confirms), in the
 * transaction at hand. An order keeps the first it learns: a session makes one PaymentIntent.
 */
export async function attachPayment(tx: DbOrTx, orderId: string, paymentIntentId: string): Promise<void> {
  await tx
    .update(orders)
    .set({ paymentIntentId })
    .where(and(eq(orders.id, orderId), isNull(orders.paymentIntentId)));
}

/**
 * Learns until when an order's authorised payment can be captured (its charge's `capture_before`): the poll declines
 * an order nobody accepted before then. Learns too the card that paid (brand and last 4, for its receipt). Left for
 * the poll when the provider does not answer.
 */
export async function rememberHold(app: PaymentApp, orderId: string): Promise<void> {
  const provider = app.payments.provider;
  const [order] = await app.db
    .select({
      intent: orders.paymentIntentId,
      state: orders.paymentState,
      holdUntil: orders.holdUntil,
      cardLast4: orders.cardLast4,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!provider || !order?.intent || order.state !== 'authorised') return;
  try {
    if (!order.cardLast4) {
      const card = await provider.cardOf(order.intent);
      if (card)
        await app.db
          .update(orders)
          .set({ cardBrand: card.brand, cardLast4: card.last4 })
          .where(and(eq(orders.id, orderId), isNull(orders.cardLast4)));
    }
    if (order.holdUntil) return;
    const before = await provider.captureBefore(order.intent);
    if (before)
      await app.db
        .update(orders)
        .set({ holdUntil: before })
        .where(and(eq(orders.id, orderId), isNull(orders.holdUntil)));
  } catch (error) {
    app.log.warn(
      { err: error, orderId },
      "could not learn a payment's card or capture deadline; the poll asks again",
    );
  }
}

/**
 * Asks the provider where an order's payment stands and catches up with it: what recovers a webhook that never came
 * (the poll, and the customer's return from the payment page). An order whose payment is not known yet learns it
 * from its page first.
 */
export async function catchUpWithProvider(app: PaymentApp, orderId: string): Promise<void> {
  const provider = app.payments.provider;
  let [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
  if (!provider || !order) return;
  if (!order.paymentIntentId && order.checkoutSessionId) {
    const page = await provider.checkoutPayment(order.checkoutSessionId);
    if (page.paymentIntentId) {
      await attachPayment(app.db, orderId, page.paymentIntentId);
      [order] = await app.db.select().from(orders).where(eq(orders.id, orderId));
    } else if (page.status === 'expired')
      return void (await mutate(app, (tx, record) => paymentAbandoned(tx, record, orderId)));
  }
  if (!order?.paymentIntentId) return;
  if (isPending(order.paymentState)) return settlePayment(app, orderId);
  if (order.paymentState !== 'awaiting-payment' && order.paymentState !== 'unpaid') return;
  const state = await provider.paymentState(order.paymentIntentId);
  if (state === 'authorised') {
    const settle = await mutate(app, (tx, record) => paymentAuthorised(tx, record, orderId));
    if (settle) await settlePayment(app, orderId);
    else await rememberHold(app, orderId);
  } else if (state === 'released') await mutate(app, (tx, record) => paymentAbandoned(tx, record, orderId));
}
