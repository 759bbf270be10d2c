import { asc, desc, eq } from 'drizzle-orm';
import { msg } from '../../shared/i18n/translator.js';
import type { Tx } from '../db/database.js';
import {
  orderDisputes,
  orderEvents,
  orderItems,
  orderMessages,
  orders,
  type LedgerKind,
} from '../db/schema.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { HttpError, notFound } from '../lib/errors.js';
import { writeLedger } from '../payments/ledger.js';
import type { PaymentApp } from './order-payments.js';

/** The dispute has no evidence to take: closed, or not open to a response (409). */
export const DISPUTE_CLOSED = 'DISPUTE_CLOSED';

const DISPUTE_ID = /^du?p_[A-Za-z0-9_-]{1,200}$/;

/** A balance transaction of a dispute (Stripe's API reference, Dispute object, `balance_transactions`). */
interface BalanceMove {
  amount: number;
  fee: number;
}

const asInt = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

/** A dispute object of an event, read: undefined if it is not one. */
function readDispute(object: Record<string, unknown>) {
  if (object.object !== 'dispute' || typeof object.id !== 'string' || !DISPUTE_ID.test(object.id))
    return undefined;
  const details = (object.evidence_details ?? {}) as Record<string, unknown>;
  const moves = (Array.isArray(object.balance_transactions) ? object.balance_transactions : []).map(
    (bt): BalanceMove => {
      const fields = (bt ?? {}) as Record<string, unknown>;
      return { amount: asInt(fields.amount), fee: asInt(fields.fee) };
    },
  );
  const status = typeof object.status === 'string' ? object.status.slice(0, 40) : 'needs_response';
  return {
    id: object.id,
    amount: asInt(object.amount),
    status,
    reason: typeof object.reason === 'string' ? object.reason.slice(0, 60) : '',
    dueBy: typeof details.due_by === 'number' ? new Date(details.due_by * 1000) : null,
    outcome: status === 'won' ? ('won' as const) : status === 'lost' ? ('lost' as const) : null,
    moves,
  };
}

/**
 * The ledger's rows of a dispute, from its balance transactions: the first takes the amount and the fee from the
 * platform's balance (a destination charge's disputes are the platform's), any later one gives back what a won
 * dispute returns. Written once each (entry `dispute:<id>`), so an event repeated or late changes nothing twice.
 */
function disputeMovements(moves: BalanceMove[]): [LedgerKind, number][] {
  // A balance transaction's `amount` is gross and its `fee` Stripe's (API reference, Balance Transaction object:
  // `net` = `amount` - `fee`): the first withdraws the disputed amount and charges the fee; a later one gives the
  // amount back, and a fee given back shows as a negative fee.
  const [first, ...later] = moves;
  const out: [LedgerKind, number][] = [];
  if (first) out.push(['dispute_withdrawn', first.amount], ['dispute_fee', -first.fee]);
  if (later.length > 0) {
    const back = later.reduce((sum, m) => sum + m.amount, 0);
    const fee = later.reduce((sum, m) => sum + m.fee, 0);
    out.push(['dispute_reinstated', back]);
    if (fee !== 0) out.push(['dispute_fee_returned', -fee]);
  }
  return out;
}

/**
 * A `charge.dispute.*` event about an order's payment: the dispute is recorded (or its status moved on; a closed one
 * keeps its outcome whatever comes late), and its money written to the ledger. Both sides' lists hear of it.
 */
export async function disputeChanged(
  tx: Tx,
  record: RecordEvent,
  orderId: string,
  object: Record<string, unknown>,
): Promise<void> {
  const dispute = readDispute(object);
  if (!dispute) return;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) return;
  const [known] = await tx
    .select()
    .from(orderDisputes)
    .where(eq(orderDisputes.providerDisputeId, dispute.id))
    .for('update');
  let rowId: string;
  if (!known) {
    const [row] = await tx
      .insert(orderDisputes)
      .values({
        orderId,
        providerDisputeId: dispute.id,
        amountCents: dispute.amount,
        feeCents: dispute.moves[0]?.fee ?? 0,
        status: dispute.status,
        reason: dispute.reason,
        evidenceDueBy: dispute.dueBy,
        outcome: dispute.outcome,
      })
      .returning({ id: orderDisputes.id });
    if (!row) return;
    rowId = row.id;
  } else {
    rowId = known.id;
    // A closed dispute's outcome stands: an `updated` arriving after the `closed` does not reopen it.
    if (known.outcome === null)
      await tx
        .update(orderDisputes)
        .set({
          status: dispute.status,
          outcome: dispute.outcome,
          evidenceDueBy: dispute.dueBy ?? known.evidenceDueBy,
          feeCents: dispute.moves[0]?.fee ?? known.feeCents,
          updatedAt: new Date(),
        })
        .where(eq(orderDisputes.id, known.id));
  }
  await writeLedger(tx, order, disputeMovements(dispute.moves), `dispute:${rowId}`);
  record({
    type: 'order.payment-changed',
    orderId,
    kitchenUid: order.kitchenId,
    customerId: order.customerId,
    paymentState: order.paymentState,
  });
}

/**
 * The evidence of an order, assembled from what we hold of it (Stripe's dispute evidence fields): what was ordered,
 * when it was placed and delivered, where to, and its conversation, for the operator to submit.
 */
async function evidenceOf(tx: Tx, orderId: string): Promise<Record<string, string>> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return {};
  const [items, events, messages] = await Promise.all([
    tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.position)),
    tx.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.createdAt)),
    tx
      .select()
      .from(orderMessages)
      .where(eq(orderMessages.orderId, orderId))
      .orderBy(asc(orderMessages.createdAt))
      .limit(100),
  ]);
  const delivered = events.find((e) => e.state === 'delivered');
  const money = (cents: number) => `${(cents / 100).toFixed(2)} ${order.currency}`;
  return {
    product_description: `Home-cooked food from ${order.kitchenName}: ${items
      .map((i) => `${i.item} (${money(i.priceCents)})`)
      .join(', ')}; total ${money(order.totalCents)}.`,
    customer_email_address: order.customerEmail,
    ...(order.fulfilment === 'delivery' ? { shipping_address: order.address } : {}),
    ...(delivered ? { shipping_date: delivered.createdAt.toISOString().slice(0, 10) } : {}),
    service_date: order.createdAt.toISOString().slice(0, 10),
    uncategorized_text: [
      `Order ${order.id}, placed ${order.createdAt.toISOString()} (${order.fulfilment}).`,
      ...events.map(
        (e) => `${e.createdAt.toISOString()} ${e.state} by the ${e.byRole}${e.reason ? `: ${e.reason}` : ''}`,
      ),
      ...messages.map((m) => `${m.createdAt.toISOString()} the ${m.authorRole} wrote: ${m.text}`),
    ]
      .join('\n')
      .slice(0, 20_000),
  };
}

/**
 * The operator submits the evidence assembled from an order to the provider for its open dispute. Refused (409
 * DISPUTE_CLOSED) when the order has no open dispute; the provider's answer moves its status (an event follows).
 */
export async function submitDisputeEvidence(app: PaymentApp, orderId: string) {
  const provider = app.payments.provider;
  const { dispute, evidence } = await app.db.transaction(async (tx) => {
    const [open] = await tx
      .select()
      .from(orderDisputes)
      .where(eq(orderDisputes.orderId, orderId))
      .orderBy(desc(orderDisputes.createdAt))
      .limit(1);
    return { dispute: open, evidence: await evidenceOf(tx, orderId) };
  });
  const [exists] = await app.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  if (!exists) throw notFound(msg('No such order'));
  const closed = () => new HttpError(409, DISPUTE_CLOSED, msg('This order has no open dispute'));
  if (!provider || !dispute || dispute.outcome !== null || dispute.evidenceSubmittedAt !== null)
    throw closed();
  try {
    await provider.submitDisputeEvidence(dispute.providerDisputeId, evidence);
  } catch (error) {
    // The provider takes no evidence for it any more (closed, or under review already).
    if (
      typeof error === 'object' &&
      error !== null &&
      'type' in error &&
      error.type === 'StripeInvalidRequestError'
    )
      throw closed();
    throw error;
  }
  await mutate(app, async (tx, record) => {
    await tx
      .update(orderDisputes)
      .set({ evidenceSubmittedAt: new Date(), updatedAt: new Date() })
      .where(eq(orderDisputes.id, dispute.id));
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    if (order)
      record({
        type: 'order.payment-changed',
        orderId,
        kitchenUid: order.kitchenId,
        customerId: order.customerId,
        paymentState: order.paymentState,
      });
  });
  return { submitted: true as const, fields: Object.keys(evidence) };
}
