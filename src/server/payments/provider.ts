/** Where a kitchen's payouts stand, as its dashboard says it: 'Set up payouts', 'Details needed', 'Payouts on'. */
export type PayoutState = 'not-set-up' | 'details-needed' | 'payouts-on';

/** Where an order's card payment stands at the provider. */
export type PaymentState =
  'awaiting-payment' | 'needs-action' | 'authorised' | 'captured' | 'released' | 'refunded';

/** The card a payment was made with, as its charge says: 'visa' and '4242'. */
export interface PaymentCard {
  brand: string;
  last4: string;
}

/** What the provider holds of one payment, in minor units: for reconciliation. */
export interface PaymentFigures {
  state: PaymentState;
  amount: number;
  captured: number;
  refunded: number;
  /** The platform's fee (`application_fee_amount`) kept: 0 until captured, less what refunds gave back of it. */
  platformFee: number;
  /** Taken back from the kitchen's account by refunds (`reverse_transfer`). */
  transferReversed: number;
}

/**
 * A part of a captured payment to give back. `reverseTransfer`: the kitchen's account gives it back (the transfer is
 * reversed in proportion to the amount); else the platform's balance does. `refundApplicationFee`: the platform's
 * fee on that part goes back to the kitchen's account (in proportion too). Stripe's API reference, Create a refund.
 */
export interface RefundPart {
  amount: number;
  reverseTransfer: boolean;
  refundApplicationFee: boolean;
}

/** A refund the provider made: its id, what it took back from the kitchen's transfer and gave back of the fee. */
export interface RefundDone {
  refundId: string;
  transferReversed: number;
  feeRefunded: number;
}

/**
 * The platform's fee a refund of `amount` gives back with `refund_application_fee`: "an amount proportional to the
 * amount of the charge refunded" (Stripe's API reference, Create a refund), rounded to the nearest minor unit and
 * never more than is left of it. Stripe does not link an application fee's refunds to the refund that made them, so
 * this is computed; the reconciliation compares the fee's `amount_refunded` with the ledger.
 */
export function feeRefundOf(
  fee: number,
  captured: number,
  amount: number,
  feeRefundedBefore: number,
): number {
  if (captured <= 0) return 0;
  return Math.min(fee - feeRefundedBefore, Math.round((fee * amount) / captured));
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
  /**
   * A tip after delivery (ADR 25): its id goes in the metadata, the payment is captured at once
   * (`capture_method=automatic`) and carries no `application_fee_amount`: the whole tip goes to the kitchen's account.
   */
  tipId?: string;
}

/** A transfer of the platform's money to a kitchen's account for one order. */
export interface TransferRequest {
  orderId: string;
  destinationAccount: string;
  amount: number;
  currency: string;
}

/** A page on which a customer saves a card for later payments (Checkout in setup mode), on their provider customer. */
export interface CardSetupRequest {
  /** The customer at the provider (`cus_…`), made once per person (`createCustomer`). */
  customerId: string;
  currency: string;
  /** Ours: what the card is saved for (a weekly plan), kept in the session's and the SetupIntent's metadata. */
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

/** Where a card-saving page stands, and the card it saved (null until saved). */
export interface SavedCard {
  status: 'open' | 'complete' | 'expired';
  paymentMethodId: string | null;
}

/** A payment made without the customer (off-session) with their saved card, authorised for manual capture. */
export interface OffSessionCharge {
  orderId: string;
  amountMinor: number;
  currency: string;
  platformFeeMinor: number;
  destinationAccount: string;
  customerId: string;
  paymentMethodId: string;
  description: string;
}

/**
 * What came of an off-session payment: authorised (held until the kitchen accepts), or refused by the card, either
 * because its holder must confirm it (`authentication_required`: the customer pays on-session) or declined; the
 * PaymentIntent the attempt made, if any, and the provider's words.
 */
export type OffSessionResult =
  | { outcome: 'authorised'; paymentIntentId: string }
  | { outcome: 'needs-customer' | 'declined'; paymentIntentId: string | null; message: string };

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
  /** The card that paid (its charge's brand and last 4 digits, for the receipt); null when none has paid yet. */
  cardOf(paymentIntentId: string): Promise<PaymentCard | null>;
  capture(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  release(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  refund(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  /** Gives back a part of a captured payment (several may be given, never more than was captured in all). */
  refundPart(paymentIntentId: string, part: RefundPart, idempotencyKey: string): Promise<RefundDone>;
  paymentState(paymentIntentId: string): Promise<PaymentState>;
  /**
   * Pays a connected account from the platform's balance (Stripe's Create a transfer): the part of a kitchen's share
   * of an order that store credit paid beyond the platform's fee (ADR 29). Returns the transfer's id.
   */
  transfer(request: TransferRequest, idempotencyKey: string): Promise<string>;
  /** Takes a whole transfer back from its connected account (Stripe's Create a transfer reversal). */
  reverseTransfer(transferId: string, idempotencyKey: string): Promise<void>;
  /** Submits evidence (Stripe's dispute evidence fields) for a dispute, which then goes under review. */
  submitDisputeEvidence(disputeId: string, evidence: Record<string, string>): Promise<void>;
  /** The payment's state and amounts as the provider holds them. */
  figures(paymentIntentId: string): Promise<PaymentFigures>;
  /** A customer at the provider, on whom saved cards are kept; the same person's key makes it once. */
  createCustomer(person: { id: string; email: string }, idempotencyKey: string): Promise<string>;
  /** A hosted page where the customer saves a card for later, off-session payments (Checkout in setup mode). */
  startCardSetup(request: CardSetupRequest, idempotencyKey: string): Promise<Checkout>;
  /** Where a card-saving page stands, and the PaymentMethod it saved. */
  savedCard(sessionId: string): Promise<SavedCard>;
  /**
   * Charges a saved card without the customer (`off_session`, confirmed at once, manual capture, a destination
   * charge as any order's); a card error is an outcome, not a throw. Anything else (the provider away) throws.
   */
  chargeSavedCard(charge: OffSessionCharge, idempotencyKey: string): Promise<OffSessionResult>;
  /** Closes a payment page nobody paid on (the customer went back, or it is too old); false if it was paid first. */
  expireCheckout(sessionId: string): Promise<boolean>;
  /**
   * The event in a webhook's raw body, if its signature (Stripe's scheme, 5 minutes' tolerance) checks out with the
   * platform's endpoint secret or the Connect endpoint's (connected accounts' events, such as `account.updated`).
   */
  readEvent(rawBody: Buffer | string, signature: string | undefined): ProviderEvent;
}

/** The idempotency key of one partial refund of an order. */
export const refundKey = (orderId: string, refundId: string) => `order:${orderId}:refund:${refundId}`;

/** The idempotency key of the payment page of a tip after delivery. */
export const tipKey = (orderId: string, tipId: string) => `order:${orderId}:tip:${tipId}`;

/** The idempotency keys of the transfer that pays a kitchen an order's credit beyond the fee, and of its reversal. */
export const creditTransferKey = (orderId: string, step: 'transfer' | 'reversal') =>
  `order:${orderId}:credit-${step}`;

/** The idempotency key of an order's payment step. */
export const stepKey = (orderId: string, step: 'checkout' | 'capture' | 'release' | 'refund') =>
  `order:${orderId}:${step}`;

/** The idempotency key of a plan's week's off-session payment: one payment per plan and week, whatever the retries. */
export const planWeekPaymentKey = (planId: string, slotDate: string) => `plan:${planId}:${slotDate}:payment`;
