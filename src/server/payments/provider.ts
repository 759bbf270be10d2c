/** Where a kitchen's payouts stand, as its dashboard says it: 'Set up payouts', 'Details needed', 'Payouts on'. */
export type PayoutState = 'not-set-up' | 'details-needed' | 'payouts-on';

/** Where an order's card payment stands at the provider. */
export type PaymentState =
  'awaiting-payment' | 'needs-action' | 'authorised' | 'captured' | 'released' | 'refunded';

/** What the provider holds of one payment, in minor units: for reconciliation. */
export interface PaymentFigures {
  state: PaymentState;
  amount: number;
  captured: number;
  refunded: number;
  /** The platform's part kept (0 until captured, less what a refund gave back). */
  platformFee: number;
}

/**
 * A hosted payment page for one order: the customer is sent to `url`. It has no payment yet: Stripe creates a Checkout
 * Session's PaymentIntent only when the customer confirms (API 2022-08-01, "Deferred PaymentIntent creation"), so the
 * payment is learnt from the session (`checkoutPayment`, or the `checkout.session.completed` event).
 */
export interface Checkout {
  sessionId: string;
  url: string;
}

/** Where a payment page stands, and the payment made on it once the customer has confirmed (null before). */
export interface CheckoutPayment {
  status: 'open' | 'complete' | 'expired';
  paymentIntentId: string | null;
}

export interface CheckoutRequest {
  orderId: string;
  /** What the customer pays, in minor units of `currency`, computed by the server from the order. */
  amountMinor: number;
  currency: string;
  /** The platform's part, kept from the payment; the rest goes to the kitchen's account. */
  platformFeeMinor: number;
  /** The kitchen's connected account. */
  destinationAccount: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  /** When the page closes unpaid (at least 30 minutes on; fixed per order, so that a retry asks the same). */
  expiresAt: Date;
}

/** An event the provider sent, checked and read: its id (processed once), type and the object it is about. */
export interface ProviderEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
  /** The connected account it happened on (`account`), for an event sent to the Connect endpoint; else undefined. */
  account: string | undefined;
}

/** The signature did not check out, or the body is not an event: answered 400, nothing changes. */
export class BadWebhook extends Error {}

/**
 * A card payment provider, behind one interface (`PAYMENTS`): Stripe (stripe-provider.ts) or our own server speaking
 * Stripe's API on loopback (local-stripe.ts). Every call that changes money carries an idempotency key derived from
 * the order and the step (`order:<id>:capture`), so that a retry never moves money twice.
 */
export interface PaymentProvider {
  createPayoutAccount(kitchen: { uid: string; email: string }): Promise<string>;
  /**
   * The payout account made earlier for a kitchen (by the metadata it was made with), if any: an idempotency key
   * lives 24 hours at Stripe, so an attempt whose answer was lost is looked up, never made again.
   */
  findPayoutAccount(kitchenUid: string): Promise<string | undefined>;
  onboardingUrl(accountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  payoutState(accountId: string): Promise<PayoutState>;
  startCheckout(request: CheckoutRequest, idempotencyKey: string): Promise<Checkout>;
  /** Where a payment page stands and its payment, if the customer has confirmed one. */
  checkoutPayment(sessionId: string): Promise<CheckoutPayment>;
  /**
   * Until when an authorised payment can be captured (the charge's `capture_before`); null when the provider does not
   * say (the payment is not authorised).
   */
  captureBefore(paymentIntentId: string): Promise<Date | null>;
  capture(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  release(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  refund(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  paymentState(paymentIntentId: string): Promise<PaymentState>;
  /** The payment's state and amounts as the provider holds them. */
  figures(paymentIntentId: string): Promise<PaymentFigures>;
  /** Closes a payment page nobody paid on (the customer went back, or it is too old); false if it was paid first. */
  expireCheckout(sessionId: string): Promise<boolean>;
  /**
   * The event in a webhook's raw body, if its signature (Stripe's scheme, 5 minutes' tolerance) checks out with the
   * platform's endpoint secret or the Connect endpoint's (connected accounts' events, such as `account.updated`).
   */
  readEvent(rawBody: Buffer | string, signature: string | undefined): ProviderEvent;
}

/** The idempotency key of an order's payment step. */
export const stepKey = (orderId: string, step: 'checkout' | 'capture' | 'release' | 'refund') =>
  `order:${orderId}:${step}`;
