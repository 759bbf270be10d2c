import { eq, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { kitchens, orders, paymentEvents } from '../db/schema.js';
import type { Tx } from '../db/database.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { badRequest, notFound } from '../lib/errors.js';
import { BadWebhook, type ProviderEvent } from '../payments/provider.js';
import { PAYOUT_STATES, type PayoutStateName } from '../../shared/payments.js';
import {
  attachPayment,
  paymentAbandoned,
  paymentAuthorised,
  rememberHold,
  settleSoon,
  stepConfirmed,
} from './order-payments.js';
import { disputeChanged } from './order-disputes.js';
import { tipExpired, tipPaid } from './order-tips.js';

/** What a provider's object id looks like (`pi_…`, `acct_…`): anything else names nothing of ours. */
const PROVIDER_ID = /^[a-z]{2,8}_[A-Za-z0-9_-]{1,200}$/;
/** What an event's id and type look like (`evt_…`, `payment_intent.succeeded`). */
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,200}$/;
const EVENT_TYPE = /^[A-Za-z0-9_.]{1,500}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The PaymentIntent an event's object names: itself, or the one a Checkout Session made once its customer confirmed,
 * or a Charge's.
 */
function intentOf(object: Record<string, unknown>): string | undefined {
  const intent = object.object === 'payment_intent' ? object.id : object.payment_intent;
  return typeof intent === 'string' && PROVIDER_ID.test(intent) ? intent : undefined;
}

/** The order an event is about: by the id we put in its metadata, or by its payment intent. */
async function orderOf(tx: Tx, object: Record<string, unknown>): Promise<string | undefined> {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  const byMetadata = typeof metadata.orderId === 'string' ? metadata.orderId : undefined;
  const intent = intentOf(object);
  const conditions = [
    ...(byMetadata && UUID.test(byMetadata) ? [eq(orders.id, byMetadata)] : []),
    ...(intent ? [eq(orders.paymentIntentId, intent)] : []),
  ];
  if (conditions.length === 0) return undefined;
  const [row] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(or(...conditions))
    .limit(1);
  return row?.id;
}

/** A connected account's state as the cook's dashboard says it. */
function payoutStateOf(account: Record<string, unknown>): PayoutStateName {
  if (account.charges_enabled === true && account.payouts_enabled === true) return 'payouts-on';
  return account.details_submitted === true ? 'details-needed' : 'not-set-up';
}

/** What an event leaves to do after its commit: a provider step that waits, a hold whose deadline to learn. */
interface AfterEvent {
  settle?: string;
  hold?: string;
}

/**
 * What an event changes, in the transaction that records its id. Every change is guarded by the state it moves
 * from, so an event repeated or out of order changes nothing twice. Unknown types are acknowledged and ignored.
 */
async function applyEvent(
  app: FastifyInstance,
  tx: Tx,
  record: RecordEvent,
  event: ProviderEvent,
): Promise<AfterEvent> {
  const object = event.object;
  if (event.type === 'account.updated') {
    const state = payoutStateOf(object);
    // A connected account's own event, as the Connect endpoint receives it (its `account` is the account itself): the
    // platform endpoint's `account.updated` is about the platform's account.
    if (
      typeof object.id === 'string' &&
      PROVIDER_ID.test(object.id) &&
      event.account === object.id &&
      PAYOUT_STATES.includes(state)
    ) {
      const [kitchen] = await tx
        .update(kitchens)
        .set({ payoutState: state })
        .where(eq(kitchens.payoutAccountId, object.id))
        .returning({ uid: kitchens.ownerId });
      if (kitchen) record({ type: 'kitchen.updated', kitchenUid: kitchen.uid, zoneChanged: false });
    }
    return {};
  }
  const handled = [
    'checkout.session.completed',
    'payment_intent.amount_capturable_updated',
    'checkout.session.expired',
    'payment_intent.canceled',
    'payment_intent.succeeded',
    'charge.refunded',
    'charge.dispute.created',
    'charge.dispute.updated',
    'charge.dispute.closed',
  ];
  if (!handled.includes(event.type)) return {};
  // A tip after delivery is a payment of its own (ADR 25): its events name the tip, never the order's payment.
  const tipId = ((object.metadata ?? {}) as Record<string, unknown>).tipId;
  if (typeof tipId === 'string') {
    const tipIntent = intentOf(object);
    if (!UUID.test(tipId)) return {};
    if (event.type === 'checkout.session.expired') await tipExpired(tx, record, tipId);
    const paid =
      (event.type === 'checkout.session.completed' && object.payment_status === 'paid') ||
      (event.type === 'payment_intent.succeeded' && object.status === 'succeeded');
    if (paid && tipIntent) await tipPaid(tx, record, tipId, tipIntent);
    return {};
  }
  const orderId = await orderOf(tx, object);
  if (!orderId) {
    app.log.warn({ eventId: event.id, type: event.type }, 'a payment event names no order of ours');
    return {};
  }
  // The payment a page made, learnt from the first event that names it (the session's has it once completed).
  const intent = intentOf(object);
  if (intent) await attachPayment(tx, orderId, intent);
  switch (event.type) {
    case 'checkout.session.completed':
      // With manual capture the session completes `unpaid`: the card is authorised, not charged.
      if (object.status !== 'complete' || !intent) return {};
      return (await paymentAuthorised(tx, record, orderId)) ? { settle: orderId } : { hold: orderId };
    case 'payment_intent.amount_capturable_updated':
      if (object.status !== 'requires_capture') return {};
      return (await paymentAuthorised(tx, record, orderId)) ? { settle: orderId } : { hold: orderId };
    case 'checkout.session.expired':
      await paymentAbandoned(tx, record, orderId);
      return {};
    case 'payment_intent.canceled':
      await paymentAbandoned(tx, record, orderId);
      await stepConfirmed(tx, record, orderId, 'released');
      return {};
    case 'payment_intent.succeeded':
      return (await stepConfirmed(tx, record, orderId, 'captured')) ? { settle: orderId } : {};
    case 'charge.refunded':
      await stepConfirmed(tx, record, orderId, 'refunded');
      return {};
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      await disputeChanged(tx, record, orderId, object);
      return {};
  }
  return {};
}

/**
 * The payment provider's webhook: the raw body's signature is checked (Stripe's scheme, 5 minutes' tolerance), each
 * event id is processed once (its row is written in the transaction of its effect), and a step it leaves waiting
 * is carried out after the commit.
 */
export const paymentWebhookRoutes: FastifyPluginAsync = async (app) => {
  // The signature is over the bytes as sent: this scope keeps JSON bodies raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/api/payments/webhook',
    {
      config: {
        doc: {
          summary:
            "The payment provider's events (Stripe's webhook: signed, each processed once; unknown types ignored)",
          responses: { 200: { description: 'Received', type: 'application/json' } },
          errors: { 404: 'Card payments are off' },
        },
      },
    },
    async (request) => {
      const provider = app.payments.provider;
      if (!provider) throw notFound('Card payments are off');
      if (!Buffer.isBuffer(request.body)) throw badRequest('The body must be a JSON event', 'body');
      const signature = request.headers['stripe-signature'];
      let event: ProviderEvent;
      try {
        event = provider.readEvent(request.body, typeof signature === 'string' ? signature : undefined);
      } catch (error) {
        if (error instanceof BadWebhook)
          throw badRequest('The signature does not check out: {problem}', 'stripe-signature', {
            problem: error.message,
          });
        throw error;
      }
      // Signed, but not what an event's id and type look like: nothing of it is stored.
      if (!EVENT_ID.test(event.id) || !EVENT_TYPE.test(event.type))
        throw badRequest('The body is not an event (its id or type)', 'body');
      const outcome = await mutate(app, async (tx, record) => {
        const [first] = await tx
          .insert(paymentEvents)
          .values({ eventId: event.id, type: event.type })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.eventId });
        if (!first) return { duplicate: true, after: {} as AfterEvent };
        return { duplicate: false, after: await applyEvent(app, tx, record, event) };
      });
      if (outcome.after.settle) await settleSoon(app, outcome.after.settle);
      if (outcome.after.hold) await rememberHold(app, outcome.after.hold);
      return { received: true, duplicate: outcome.duplicate };
    },
  );
};
