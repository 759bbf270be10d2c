import Stripe from 'stripe';
import {
  BadWebhook,
  type CardSetupRequest,
  type Checkout,
  type CheckoutPayment,
  type CheckoutRequest,
  type OffSessionCharge,
  type OffSessionResult,
  type SavedCard,
  feeRefundOf,
  type PaymentFigures,
  type PaymentProvider,
  type PaymentState,
  type PayoutState,
  type ProviderEvent,
} from './provider.js';

export interface StripeSettings {
  secretKey: string;
  /** The platform's webhook endpoint's signing secret: events about the platform's own objects (payments). */
  webhookSecret: string;
  /**
   * The Connect webhook endpoint's signing secret: events on connected accounts (`account.updated`). An endpoint is
   * the platform's or Connect's, each with its own secret; both may point at the same URL.
   */
  connectWebhookSecret: string | undefined;
  /** Another server speaking Stripe's API (the local provider, or a test's): `http://127.0.0.1:12111`. */
  apiBase?: string;
}

/** Webhook signatures older than this are refused (Stripe's default tolerance). */
const TOLERANCE_SECONDS = 300;

/**
 * Stripe Connect with Express accounts and destination charges, on Stripe's hosted Checkout, every call made by the
 * official SDK. The PaymentIntent is authorised at checkout (`capture_method=manual`), carries the platform's part
 * as `application_fee_amount` and sends the rest to the kitchen's account (`transfer_data[destination]`).
 */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiBase ? new URL(settings.apiBase) : undefined;
  const stripe = new Stripe(settings.secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    // Retries are ours to decide (each step is retried with its own idempotency key by whoever runs it).
    maxNetworkRetries: 0,
    timeout: 20_000,
    telemetry: false,
  });

  const stateOf = (intent: Stripe.PaymentIntent, refunded: boolean): PaymentState => {
    if (refunded) return 'refunded';
    switch (intent.status) {
      case 'requires_capture':
        return 'authorised';
      case 'succeeded':
        return 'captured';
      case 'canceled':
        return 'released';
      case 'requires_action':
        return 'needs-action';
      default:
        return 'awaiting-payment';
    }
  };

  return {
    async createPayoutAccount(kitchen) {
      const account = await stripe.accounts.create(
        { type: 'express', email: kitchen.email, metadata: { kitchenUid: kitchen.uid } },
        { idempotencyKey: `kitchen:${kitchen.uid}:account` },
      );
      return account.id;
    },
    async findPayoutAccount(kitchenUid) {
      // Stripe lists connected accounts newest first and cannot filter them by metadata: read through the list.
      for await (const account of stripe.accounts.list({ limit: 100 }))
        if (account.metadata?.kitchenUid === kitchenUid) return account.id;
      return undefined;
    },
    async onboardingUrl(accountId, { returnUrl, refreshUrl }) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: 'account_onboarding',
        return_url: returnUrl,
        refresh_url: refreshUrl,
      });
      return link.url;
    },
    async payoutState(accountId): Promise<PayoutState> {
      const account = await stripe.accounts.retrieve(accountId);
      if (account.charges_enabled && account.payouts_enabled) return 'payouts-on';
      return account.details_submitted ? 'details-needed' : 'not-set-up';
    },
    async startCheckout(request: CheckoutRequest, idempotencyKey): Promise<Checkout> {
      const tipMetadata: Record<string, string> = request.tipId ? { tipId: request.tipId } : {};
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: request.orderId,
          metadata: { orderId: request.orderId, ...tipMetadata },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amountMinor,
                product_data: { name: request.description },
              },
            },
          ],
          // A tip is charged at once and whole to the kitchen (no application fee: "Collect fees" of the
          // destination charges guide takes a fee only where `application_fee_amount` is set).
          payment_intent_data: {
            capture_method: request.tipId ? 'automatic' : 'manual',
            ...(request.tipId ? {} : { application_fee_amount: request.platformFeeMinor }),
            transfer_data: { destination: request.destinationAccount },
            metadata: { orderId: request.orderId, ...tipMetadata },
          },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        },
        { idempotencyKey },
      );
      // `url` is null only for an embedded or expired session; `payment_intent` is null until the customer confirms.
      if (!session.url) throw new Error('the checkout session has no page');
      return { sessionId: session.id, url: session.url };
    },
    async createCustomer(person, idempotencyKey) {
      const customer = await stripe.customers.create(
        { email: person.email, metadata: { userId: person.id } },
        { idempotencyKey },
      );
      return customer.id;
    },
    async startCardSetup(request: CardSetupRequest, idempotencyKey): Promise<Checkout> {
      // docs.stripe.com/payments/save-and-reuse?platform=checkout: setup mode, the Customer to save the card on, and
      // `currency` (Checkout's dynamic payment methods need it in setup mode).
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'setup',
          currency: request.currency.toLowerCase(),
          customer: request.customerId,
          metadata: request.metadata,
          setup_intent_data: { metadata: request.metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        },
        { idempotencyKey },
      );
      if (!session.url) throw new Error('the checkout session has no page');
      return { sessionId: session.id, url: session.url };
    },
    async savedCard(sessionId): Promise<SavedCard> {
      const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent'] });
      const setup = session.setup_intent;
      const method =
        setup && typeof setup !== 'string' && setup.status === 'succeeded' ? setup.payment_method : null;
      return {
        status:
          session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
        paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
      };
    },
    async chargeSavedCard(charge: OffSessionCharge, idempotencyKey): Promise<OffSessionResult> {
      try {
        // docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method later": `off_session` and
        // `confirm` together; manual capture and a destination charge, as an order paid on Checkout
        // (docs.stripe.com/connect/destination-charges).
        const intent = await stripe.paymentIntents.create(
          {
            amount: charge.amountMinor,
            currency: charge.currency.toLowerCase(),
            customer: charge.customerId,
            payment_method: charge.paymentMethodId,
            off_session: true,
            confirm: true,
            capture_method: 'manual',
            application_fee_amount: charge.platformFeeMinor,
            transfer_data: { destination: charge.destinationAccount },
            description: charge.description,
            metadata: { orderId: charge.orderId },
          },
          { idempotencyKey },
        );
        if (intent.status === 'requires_capture')
          return { outcome: 'authorised', paymentIntentId: intent.id };
        return {
          outcome: 'needs-customer',
          paymentIntentId: intent.id,
          message: intent.last_payment_error?.message ?? intent.status,
        };
      } catch (error) {
        // A card that needs its holder, or declines: a 402 `card_error` naming the PaymentIntent it left in
        // `requires_payment_method`.
        if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
        const intent = error.payment_intent;
        return {
          outcome: error.code === 'authentication_required' ? 'needs-customer' : 'declined',
          paymentIntentId: intent?.id ?? null,
          message: error.message,
        };
      }
    },
    async checkoutPayment(sessionId): Promise<CheckoutPayment> {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      const intent = session.payment_intent;
      return {
        status:
          session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
        paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
      };
    },
    async captureBefore(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
      const charge = intent.latest_charge;
      if (intent.status !== 'requires_capture' || charge === null || typeof charge === 'string') return null;
      const before = charge.payment_method_details?.card?.capture_before;
      return before === undefined ? null : new Date(before * 1000);
    },
    async cardOf(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
      const card =
        intent.latest_charge && typeof intent.latest_charge !== 'string'
          ? intent.latest_charge.payment_method_details?.card
          : undefined;
      return card?.last4 ? { brand: card.brand ?? 'card', last4: card.last4 } : null;
    },
    async capture(paymentIntentId, idempotencyKey) {
      await stripe.paymentIntents.capture(paymentIntentId, {}, { idempotencyKey });
    },
    async release(paymentIntentId, idempotencyKey) {
      await stripe.paymentIntents.cancel(paymentIntentId, {}, { idempotencyKey });
    },
    async refund(paymentIntentId, idempotencyKey) {
      // The kitchen's transfer and the platform's fee are given back too: the refund is the whole order's.
      await stripe.refunds.create(
        { payment_intent: paymentIntentId, reverse_transfer: true, refund_application_fee: true },
        { idempotencyKey },
      );
    },
    async transfer(request, idempotencyKey) {
      const transfer = await stripe.transfers.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          destination: request.destinationAccount,
          transfer_group: `order:${request.orderId}`,
          metadata: { order_id: request.orderId },
        },
        { idempotencyKey },
      );
      return transfer.id;
    },
    async reverseTransfer(transferId, idempotencyKey) {
      await stripe.transfers.createReversal(transferId, {}, { idempotencyKey });
    },
    async refundPart(paymentIntentId, part, idempotencyKey) {
      // Read before the refund: what the fee had given back already. (A retry whose first answer was lost reads it
      // with this refund's part in it; that matters only to the cap of the last part, and the reconciliation would
      // flag the cent.)
      const charged = await stripe.paymentIntents.retrieve(paymentIntentId, {
        expand: ['latest_charge.application_fee'],
      });
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          amount: part.amount,
          reverse_transfer: part.reverseTransfer,
          refund_application_fee: part.refundApplicationFee,
          expand: ['transfer_reversal'],
        },
        { idempotencyKey },
      );
      const reversal = refund.transfer_reversal;
      const fee = applicationFeeOf(charged);
      return {
        refundId: refund.id,
        transferReversed: reversal && typeof reversal !== 'string' ? reversal.amount : 0,
        feeRefunded: part.refundApplicationFee
          ? feeRefundOf(fee.amount, charged.amount_received, part.amount, fee.amountRefunded)
          : 0,
      };
    },
    async figures(paymentIntentId): Promise<PaymentFigures> {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
        expand: ['latest_charge.application_fee'],
      });
      const refunds = await stripe.refunds.list({
        payment_intent: paymentIntentId,
        limit: 100,
        expand: ['data.transfer_reversal'],
      });
      const succeeded = refunds.data.filter((refund) => refund.status === 'succeeded');
      const refunded = succeeded.reduce((sum, refund) => sum + refund.amount, 0);
      const transferReversed = succeeded.reduce((sum, refund) => {
        const reversal = refund.transfer_reversal;
        return sum + (reversal && typeof reversal !== 'string' ? reversal.amount : 0);
      }, 0);
      const captured = intent.amount_received;
      // The fee is an object of its own once captured (docs.stripe.com/api/application_fees/object): what it
      // collected, less what refunds gave back of it.
      const fee = applicationFeeOf(intent);
      return {
        state: stateOf(intent, captured > 0 && refunded >= captured),
        amount: intent.amount,
        captured,
        refunded,
        platformFee: captured > 0 ? fee.amount - fee.amountRefunded : 0,
        transferReversed,
      };
    },
    async submitDisputeEvidence(disputeId, evidence) {
      // docs.stripe.com/api/disputes/update: `submit=true` sends the evidence to the bank at once.
      await stripe.disputes.update(disputeId, { evidence, submit: true });
    },
    async expireCheckout(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return true;
      } catch (error) {
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        if (session.status === 'expired') return true;
        if (session.status === 'complete') return false;
        throw error;
      }
    },
    async paymentState(paymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      const refunded = intent.status === 'succeeded' && (await isRefunded(intent));
      return stateOf(intent, refunded);
    },
    readEvent(rawBody, signature): ProviderEvent {
      if (!signature) throw new BadWebhook('No Stripe-Signature header');
      let event: Stripe.Event | undefined;
      let fromConnect = false;
      let problem = '';
      for (const [secret, connect] of [
        [settings.webhookSecret, false],
        [settings.connectWebhookSecret, true],
      ] as const) {
        if (!secret || event) continue;
        try {
          event = stripe.webhooks.constructEvent(rawBody, signature, secret, TOLERANCE_SECONDS);
          fromConnect = connect;
        } catch (error) {
          problem ||= (error as Error).message;
        }
      }
      if (!event) throw new BadWebhook(problem);
      // The SDK checks the signature and parses the JSON, nothing more: a signed body that is no event is refused too.
      const parsed: unknown = event;
      const fields = isRecord(parsed) ? parsed : {};
      const object = isRecord(fields.data) ? fields.data.object : undefined;
      if (typeof fields.id !== 'string' || !fields.id || typeof fields.type !== 'string' || !isRecord(object))
        throw new BadWebhook('The body is not an event');
      // Only the Connect endpoint's events are about a connected account; the platform's name none.
      const account = fromConnect && typeof fields.account === 'string' ? fields.account : undefined;
      return { id: fields.id, type: fields.type, object, account };
    },
  };

  function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /** Refunded in full: a payment partly refunded is still captured (the rest is the kitchen's and the platform's). */
  async function isRefunded(intent: Stripe.PaymentIntent): Promise<boolean> {
    const refunds = await stripe.refunds.list({ payment_intent: intent.id, limit: 100 });
    const refunded = refunds.data
      .filter((refund) => refund.status === 'succeeded')
      .reduce((sum, refund) => sum + refund.amount, 0);
    return intent.amount_received > 0 && refunded >= intent.amount_received;
  }

  /** The application fee of an intent read with `expand[]=latest_charge.application_fee`. */
  function applicationFeeOf(intent: Stripe.PaymentIntent) {
    const charge = intent.latest_charge;
    const fee = charge && typeof charge !== 'string' ? charge.application_fee : null;
    const object = fee && typeof fee !== 'string' ? fee : undefined;
    return {
      amount: object?.amount ?? 0,
      amountRefunded: object?.amount_refunded ?? 0,
    };
  }
}
