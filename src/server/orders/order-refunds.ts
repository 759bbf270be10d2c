import { and, asc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { recordOrderFigures } from '../data/order-figures.js';
import { msg } from '../../shared/i18n/translator.js';
import { formatMoney } from '../../shared/money.js';
import {
  NOT_REFUNDABLE,
  REFUND_KEY_REUSED,
  REFUND_TOO_LARGE,
  type OrderRefund,
  type RefundDish,
  type RefundPayer,
} from '../../shared/refunds.js';
import type { Tx } from '../db/database.js';
import { orderItems, orderRefunds, orders, type LedgerKind } from '../db/schema.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { HttpError, notFound } from '../lib/errors.js';
import { writeLedger } from '../payments/ledger.js';
import { creditRefundEntry, moveCredit } from '../payments/credit.js';
import { refundKey, type RefundDone } from '../payments/provider.js';
import { retryDelayMs, type PaymentApp } from './order-payments.js';
import { resolveProblemReports } from './problem-reports.js';

type RefundRow = typeof orderRefunds.$inferSelect;

/** Who asks: the order's cook (who pays), or an operator (who chooses who pays). */
export type RefundAsker =
  { role: 'kitchen'; userId: string; kitchenUid: string } | { role: 'operator'; userId: string };

export interface RefundRequest {
  key: string;
  /** An amount; or else `dishes`, priced as the order has them. */
  amountCents?: number | undefined;
  dishes?: RefundDish[] | undefined;
  whoPays: RefundPayer;
  refundPlatformFee: boolean;
  reason: string;
}

/**
 * The refund's lines and amount from the dishes asked, as the order has them (its lines' names and prices): a dish
 * it does not have, or more of one than it has, is refused naming `dishes`.
 */
async function priceDishes(tx: Tx, orderId: string, dishes: RefundDish[]) {
  const ordered = await tx
    .select({ item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const lines = dishes.map((dish) => {
    const has = ordered.filter((o) => o.item === dish.item && o.priceCents === dish.priceCents).length;
    const asked = dishes
      .filter((d) => d.item === dish.item && d.priceCents === dish.priceCents)
      .reduce((n, d) => n + d.quantity, 0);
    if (asked > has)
      throw new HttpError(
        409,
        NOT_REFUNDABLE,
        msg('This order has {count, plural, one {# {dish}} other {# × {dish}}}'),
        'dishes',
        undefined,
        { count: has, dish: dish.item },
      );
    return { name: dish.item, quantity: dish.quantity, cents: dish.priceCents * dish.quantity };
  });
  return { lines, amountCents: lines.reduce((sum, line) => sum + line.cents, 0) };
}

/** The ledger's entry of one refund: its rows are one of each kind, beside the order's own. */
export const refundEntry = (refundId: string) => `refund:${refundId}`;

/**
 * The ledger's movements of a refund done, from what the provider did: the customer is given `amount` back; the
 * kitchen's part moves by what its transfer gave back less the fee given back to it; the platform's by the rest.
 * Both parts add up to the refund, so an order's ledger stays balanced whoever pays.
 */
export function refundMovements(
  amount: number,
  done: Pick<RefundDone, 'transferReversed' | 'feeRefunded'>,
): [LedgerKind, number][] {
  const kitchen = done.transferReversed - done.feeRefunded;
  return [
    ['refunded', -amount],
    ['kitchen_transfer_reversed', -kitchen],
    ['platform_fee_refunded', -(amount - kitchen)],
  ];
}

export const toOrderRefund = (row: RefundRow): OrderRefund => ({
  id: row.id,
  amountCents: row.amountCents,
  whoPays: row.whoPays,
  refundPlatformFee: row.refundPlatformFee,
  state: row.state,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  refundedAt: row.refundedAt?.toISOString() ?? null,
  transferReversedCents: row.transferReversedCents,
  feeRefundedCents: row.feeRefundedCents,
});

/**
 * Asks for a part of a delivered card order's captured payment back, in one transaction under the order's lock:
 * the refunds asked so far (but those the provider refused) and this one may not add up to more than was captured.
 * A request repeated with its key answers the refund it made. The provider is asked after the commit
 * (`settleRefund`): whoever finds the refund still `refunding` (this call, the poll) asks again with its own key.
 */
export async function askRefund(app: PaymentApp, by: RefundAsker, orderId: string, request: RefundRequest) {
  const refund = await mutate(app, async (tx, record) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(
        and(eq(orders.id, orderId), by.role === 'kitchen' ? eq(orders.kitchenId, by.kitchenUid) : undefined),
      )
      .for('update');
    if (!order) throw notFound(msg('No such order'));
    const { lines, amountCents } = request.dishes
      ? await priceDishes(tx, orderId, request.dishes)
      : { lines: [], amountCents: request.amountCents ?? 0 };
    const [again] = await tx
      .select()
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.requestKey, request.key)));
    if (again) {
      if (again.amountCents !== amountCents || again.whoPays !== request.whoPays)
        throw new HttpError(
          409,
          REFUND_KEY_REUSED,
          msg('This key was used for another refund of this order'),
          'key',
        );
      return again;
    }
    if (order.paymentMethod !== 'card' || order.paymentState !== 'captured' || order.state !== 'delivered')
      throw new HttpError(
        409,
        NOT_REFUNDABLE,
        msg('Only a delivered order paid by card can be refunded in part'),
      );
    const left = order.totalCents - (await askedSoFar(tx, orderId));
    if (amountCents > left)
      throw new HttpError(
        409,
        REFUND_TOO_LARGE,
        msg('At most {left} of this order can still be refunded'),
        'amountCents',
        undefined,
        { left: formatMoney(left, order.currency) },
      );
    // It answers the customer's open report of a problem with the order, if any, as they asked to be paid back.
    const refundAs = await resolveProblemReports(tx, orderId);
    const creditCents =
      refundAs === 'credit'
        ? amountCents
        : // An order paid partly with credit: the card gives back its part first, the rest goes back as credit.
          Math.max(
            0,
            amountCents - (order.totalCents - order.creditCents - (await cardAskedSoFar(tx, orderId))),
          );
    const [row] = await tx
      .insert(orderRefunds)
      .values({
        orderId,
        requestKey: request.key,
        amountCents,
        creditCents,
        whoPays: request.whoPays,
        refundPlatformFee: request.refundPlatformFee,
        reason: request.reason,
        lines,
        byRole: by.role,
        byUserId: by.userId,
      })
      .returning();
    if (!row) throw new Error('the refund was not written');
    record({
      type: 'order.refund-changed',
      orderId,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      refundId: row.id,
      state: 'refunding',
    });
    // All of it as credit: nothing to ask of the provider, it is given now (ADR 29).
    if (creditCents === amountCents) {
      await endRefund(tx, record, row.id, { done: { refundId: '', transferReversed: 0, feeRefunded: 0 } });
      return { ...row, state: 'refunded' as const };
    }
    return row;
  });
  if (refund.state === 'refunding') await settleRefundSoon(app, refund.id);
  const [now] = await app.db.select().from(orderRefunds).where(eq(orderRefunds.id, refund.id));
  return toOrderRefund(now ?? refund);
}

/** What the order's refunds ask back of the card, but those the provider refused. */
async function cardAskedSoFar(tx: Tx, orderId: string): Promise<number> {
  const [sum] = await tx
    .select({
      cents:
        sql<number>`coalesce(sum(${orderRefunds.amountCents} - ${orderRefunds.creditCents}), 0)::int`.mapWith(
          Number,
        ),
    })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), ne(orderRefunds.state, 'failed')));
  return sum?.cents ?? 0;
}

/** What the order's refunds ask back, but those the provider refused. */
async function askedSoFar(tx: Tx, orderId: string): Promise<number> {
  const [sum] = await tx
    .select({ cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::int`.mapWith(Number) })
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), ne(orderRefunds.state, 'failed')));
  return sum?.cents ?? 0;
}

/** For tests: runs between the provider's answer and our commit of it (a crash there is recovered by the poll). */
export const refundHooks: { afterProviderAnswer?: (refundId: string) => void } = {};

/**
 * Gives a refund asked (`refunding`) back at the provider with its own idempotency key, and records it once with its
 * ledger rows. Safe to run any number of times: the key makes the provider refund once, the state records it once.
 * The provider refusing the request itself (more than is left, a disputed charge) ends it `failed`; anything else
 * leaves it for the poll, backing off.
 */
export async function settleRefund(app: PaymentApp, refundId: string): Promise<void> {
  const provider = app.payments.provider;
  const [found] = await app.db
    .select({ refund: orderRefunds, intent: orders.paymentIntentId })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(eq(orderRefunds.id, refundId));
  if (!provider || !found?.intent || found.refund.state !== 'refunding') return;
  const { refund, intent } = found;
  // The card's part: a part given as credit is the platform's, and never reaches the provider (ADR 29).
  let done: RefundDone;
  try {
    done = await provider.refundPart(
      intent,
      {
        amount: refund.amountCents - refund.creditCents,
        reverseTransfer: refund.whoPays === 'kitchen',
        refundApplicationFee: refund.refundPlatformFee,
      },
      refundKey(refund.orderId, refund.id),
    );
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await mutate(app, (tx, record) => endRefund(tx, record, refundId, { failed: errorText(error) }));
    return;
  }
  refundHooks.afterProviderAnswer?.(refundId);
  await mutate(app, (tx, record) => endRefund(tx, record, refundId, { done }));
}

/** A request the provider refused as such (Stripe's `invalid_request_error`): asking again gives the same answer. */
const isRefusal = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'type' in error &&
  error.type === 'StripeInvalidRequestError';
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** Records a refund's outcome, from `refunding` only. */
async function endRefund(
  tx: Tx,
  record: RecordEvent,
  refundId: string,
  outcome: { done: RefundDone } | { failed: string },
): Promise<void> {
  const [refund] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId)).for('update');
  if (refund?.state !== 'refunding') return;
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId));
  if (!order) return;
  if ('failed' in outcome) {
    await tx
      .update(orderRefunds)
      .set({ state: 'failed', error: outcome.failed, retryAt: null })
      .where(eq(orderRefunds.id, refundId));
  } else {
    const { done } = outcome;
    await tx
      .update(orderRefunds)
      .set({
        state: 'refunded',
        providerRefundId: done.refundId || null,
        transferReversedCents: done.transferReversed,
        feeRefundedCents: done.feeRefunded,
        refundedAt: sql`now()`,
        error: null,
        retryAt: null,
      })
      .where(eq(orderRefunds.id, refundId));
    const card = refund.amountCents - refund.creditCents;
    await writeLedger(
      tx,
      order,
      [
        ...(card > 0 ? refundMovements(card, done) : []),
        // Given as store credit: the customer's account gets it, and the platform pays it (ADR 29).
        ...(refund.creditCents > 0
          ? ([
              ['credit_issued', -refund.creditCents],
              ['credit_platform_funded', -refund.creditCents],
            ] as [LedgerKind, number][])
          : []),
      ],
      refundEntry(refundId),
    );
    if (refund.creditCents > 0 && order.customerId)
      await moveCredit(tx, {
        customerId: order.customerId,
        kind: 'refund',
        amountCents: refund.creditCents,
        currency: order.currency,
        entry: creditRefundEntry(refundId),
        orderId: order.id,
      });
    // The kitchen's figures (Insights) follow the ledger's refunds, in the same transaction.
    await recordOrderFigures(tx, order.id);
    // Parts that add up to the whole: the payment is refunded, as the provider then says (its movements are the
    // parts' own, so none are written for the state).
    const [given] = await tx
      .select({ cents: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::int`.mapWith(Number) })
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.state, 'refunded')));
    if ((given?.cents ?? 0) >= order.totalCents && order.paymentState === 'captured') {
      await tx
        .update(orders)
        .set({ paymentState: 'refunded', paymentUpdatedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(orders.id, order.id));
      record({
        type: 'order.payment-changed',
        orderId: order.id,
        kitchenUid: order.kitchenId,
        customerId: order.customerId,
        paymentState: 'refunded',
      });
    }
  }
  record({
    type: 'order.refund-changed',
    orderId: order.id,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    refundId,
    state: 'failed' in outcome ? 'failed' : 'refunded',
  });
}

/** Settles without failing the caller: a refund the provider did not answer about is the poll's, later. */
export async function settleRefundSoon(app: PaymentApp, refundId: string): Promise<void> {
  try {
    await settleRefund(app, refundId);
  } catch (error) {
    app.log.warn({ err: error, refundId }, 'a refund failed; the poll will retry it');
    const now = app.clock.now();
    const failed = async () => {
      const [row] = await app.db
        .select({ failures: orderRefunds.failures })
        .from(orderRefunds)
        .where(eq(orderRefunds.id, refundId));
      const failures = (row?.failures ?? 0) + 1;
      await app.db
        .update(orderRefunds)
        .set({ failures, retryAt: new Date(now + retryDelayMs(failures)), error: errorText(error) })
        .where(and(eq(orderRefunds.id, refundId), eq(orderRefunds.state, 'refunding')));
    };
    await failed().catch((failure: unknown) =>
      app.log.error({ err: failure, refundId }, 'could not record a failed refund'),
    );
  }
}

/** The refunds the poll carries out: asked at least `graceMs` ago and not answered, whose turn has come. */
export async function pendingRefunds(app: PaymentApp, graceEnd: Date, limit: number): Promise<string[]> {
  const rows = await app.db
    .select({ id: orderRefunds.id })
    .from(orderRefunds)
    .where(
      and(
        eq(orderRefunds.state, 'refunding'),
        lt(orderRefunds.createdAt, graceEnd),
        or(isNull(orderRefunds.retryAt), lt(orderRefunds.retryAt, new Date(app.clock.now()))),
      ),
    )
    .orderBy(asc(orderRefunds.createdAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** An order's refunds, oldest first. */
export async function refundsOf(app: Pick<PaymentApp, 'db'>, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  const rows = await app.db
    .select()
    .from(orderRefunds)
    .where(inArray(orderRefunds.orderId, orderIds))
    .orderBy(asc(orderRefunds.createdAt), asc(orderRefunds.id));
  return rows.map(toOrderRefund);
}
