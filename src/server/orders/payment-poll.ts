import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { NO_ANSWER_REASON } from '../../shared/payments.js';
import { orders } from '../db/schema.js';
import { mutate } from '../events/mutate.js';
import { registerPeriodicTask } from '../lib/periodic.js';
import { CHECKOUT_OPEN_MINUTES } from './checkout.js';
import { moveOrder } from './order-moves.js';
import { pendingRefunds, settleRefundSoon } from './order-refunds.js';
import { catchUpTip, payingTips } from './order-tips.js';
import {
  catchUpWithProvider,
  paymentAbandoned,
  rememberHold,
  settleCreditTransfer,
  settleSoon,
} from './order-payments.js';

/** How long a step may wait for its own caller or event before the poll takes it over. */
const STEP_GRACE_MS = 30_000;
const BATCH = 50;
/** An order is declined this long before its card hold ends (its charge's `capture_before`): never left to lapse. */
export const HOLD_MARGIN_MS = 60 * 60_000;

/**
 * One round of the poll, which keeps every order's money moving whatever was lost on the way (a webhook, an answer,
 * a process):
 * - a step asked of the provider and not confirmed (capturing, releasing, refunding) is carried out again, with its
 *   own idempotency key: done once at the provider, recorded once here;
 * - an order awaiting payment asks the provider: authorised reaches the kitchen, and a page open too long is closed
 *   (the order ends unpaid);
 * - an order nobody accepted within `ACCEPT_WITHIN_MINUTES` (a pre-order: before its slot's prior notice began), or
 *   by an hour before its card hold ends (the charge's `capture_before`, as the provider said), is declined ('The
 *   kitchen did not answer in time') and its hold released, so that no authorisation is ever left to expire;
 * - an authorised payment whose hold's end is not known yet asks the provider for it;
 * - a partial refund asked and not answered is asked again with its own idempotency key.
 */
export async function pollPayments(app: FastifyInstance): Promise<void> {
  const now = app.clock.now();
  const graceEnd = new Date(now - STEP_GRACE_MS);
  const stuck = await app.db
    .select({
      id: orders.id,
      state: orders.paymentState,
      createdAt: orders.createdAt,
      closesAt: orders.checkoutExpiresAt,
      url: orders.checkoutUrl,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.paymentState, ['capturing', 'releasing', 'refunding', 'awaiting-payment']),
        lt(orders.paymentUpdatedAt, graceEnd),
        // A step that failed waits its turn (backing off); one given up on is the operator's.
        or(isNull(orders.paymentRetryAt), lt(orders.paymentRetryAt, new Date(now))),
        isNull(orders.paymentGaveUpAt),
      ),
    )
    .orderBy(asc(orders.paymentUpdatedAt))
    .limit(BATCH);
  for (const order of stuck) {
    if (order.state !== 'awaiting-payment') {
      await settleSoon(app, order.id);
      continue;
    }
    try {
      await catchUpWithProvider(app, order.id);
      // Its page closed (or, never opened, would have by now).
      const tooOld =
        (order.closesAt?.getTime() ?? order.createdAt.getTime() + CHECKOUT_OPEN_MINUTES * 60_000) < now;
      const [still] = await app.db
        .select({ sessionId: orders.checkoutSessionId, state: orders.paymentState })
        .from(orders)
        .where(eq(orders.id, order.id));
      if (!tooOld || still?.state !== 'awaiting-payment') continue;
      const closed = still.sessionId ? await app.payments.provider?.expireCheckout(still.sessionId) : true;
      if (closed) await mutate(app, (tx, record) => paymentAbandoned(tx, record, order.id));
      else await catchUpWithProvider(app, order.id);
    } catch (error) {
      app.log.warn({ err: error, orderId: order.id }, 'could not ask the provider about a payment');
    }
  }
  // Store credit beyond an order's fee: the kitchen's transfer not made yet, or one to take back (ADR 29).
  const creditTransfers = await app.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        // With a platform's promotion code, which the platform funds the same way (ADR 30).
        sql`${orders.creditCents} + (case when ${orders.discountPaidBy} = 'platform' then ${orders.discountCents} else 0 end) > ${orders.platformFeeCents}`,
        lt(orders.paymentUpdatedAt, graceEnd),
        or(
          and(eq(orders.paymentState, 'captured'), isNull(orders.creditTransferId)),
          and(
            eq(orders.paymentState, 'refunded'),
            eq(orders.state, 'cancelled'),
            isNotNull(orders.creditTransferId),
            eq(orders.creditTransferReversed, false),
          ),
        ),
      ),
    )
    .limit(BATCH);
  for (const { id } of creditTransfers)
    await settleCreditTransfer(app, id).catch((error: unknown) =>
      app.log.warn({ err: error, orderId: id }, "could not make a kitchen's credit transfer"),
    );
  // Partial refunds asked and not answered (each with its own key, so asking again refunds once).
  for (const id of await pendingRefunds(app, graceEnd, BATCH)) await settleRefundSoon(app, id);
  // Tips after delivery whose payment was not heard of (paid, or the page closed unpaid).
  for (const id of await payingTips(app, graceEnd, BATCH))
    await catchUpTip(app, id).catch((error: unknown) =>
      app.log.warn({ err: error, tipId: id }, 'could not ask the provider about a tip'),
    );
  const unknownHolds = await app.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.paymentState, 'authorised'),
        isNull(orders.holdUntil),
        isNotNull(orders.paymentIntentId),
        lt(orders.paymentUpdatedAt, graceEnd),
      ),
    )
    .limit(BATCH);
  for (const { id } of unknownHolds) await rememberHold(app, id);
  const answerBy = new Date(now - app.payments.config.acceptWithinMinutes * 60_000);
  const unanswered = await app.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.state, 'recieved'),
        isNull(orders.archivedAt),
        or(
          // The card hold ends soon.
          lt(orders.holdUntil, new Date(now + HOLD_MARGIN_MS)),
          // A pre-order: until its slot's prior notice begins.
          lt(orders.answerBy, new Date(now)),
          and(
            isNull(orders.answerBy),
            or(
              lt(orders.authorisedAt, answerBy),
              and(isNull(orders.authorisedAt), lt(orders.createdAt, answerBy)),
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(BATCH);
  for (const { id } of unanswered)
    await moveOrder(app, { role: 'system' }, id, { move: 'decline', reason: NO_ANSWER_REASON }, 'recieved');
}

/** The poll, every `PAYMENT_POLL_SECONDS` on every instance (each change is guarded by the state it moves from). */
export function registerPaymentPoll(app: FastifyInstance): void {
  const seconds = app.payments.config.pollSeconds;
  if (seconds === 0) return;
  registerPeriodicTask(app, {
    everyMs: seconds * 1000,
    atStart: true,
    failure: 'the payment poll failed; it runs again',
    run: () => pollPayments(app),
  });
}
