import { z } from 'zod';
import { calendarDay } from './fields.js';
import { msg, t, translator, type Translator } from './i18n/translator.js';

/** How a customer pays an order: by card (online, through the payment provider) or in cash to the cook. */
export const PAYMENT_METHODS = ['card', 'cash'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * Where an order's money stands. A card payment is authorised at checkout, captured when the kitchen accepts,
 * released when the order ends before that, refunded when it is cancelled after. The `-ing` states are a step asked
 * of the provider and not yet confirmed: whoever finds one (the step's caller, a webhook, the poll) finishes it.
 */
export const PAYMENT_STATES = [
  'awaiting-payment',
  'authorised',
  'capturing',
  'captured',
  'releasing',
  'released',
  'refunding',
  'refunded',
  /** The customer never completed the payment (declined, abandoned, expired): nothing was ever held. */
  'unpaid',
  /** Cash on delivery, to be paid to the cook. */
  'cash-due',
  'cash-paid',
] as const;
export type PaymentStateName = (typeof PAYMENT_STATES)[number];

/** A refund asked of the provider, done, or refused by it for good. */
export const REFUND_STATES = ['refunding', 'refunded', 'failed'] as const;

/** A part of an order's card payment given back, as both sides see it (`at`: when asked). */
export const PaymentRefund = z.object({
  id: z.string().uuid(),
  amountCents: z.number().int(),
  /** The part of it given as store credit rather than to the card (ADR 29). */
  creditCents: z.number().int(),
  state: z.enum(REFUND_STATES),
  at: z.string(),
});
export type PaymentRefund = z.infer<typeof PaymentRefund>;

/**
 * A cardholder's dispute of the payment, as the provider tells it: its status (Stripe's: `needs_response`,
 * `under_review`, `won`, `lost`, …), the amount, the deadline for evidence, and the outcome once closed.
 */
export const PaymentDispute = z.object({
  status: z.string(),
  amountCents: z.number().int(),
  evidenceDueBy: z.string().nullable(),
  evidenceSubmitted: z.boolean(),
  outcome: z.enum(['won', 'lost']).nullable(),
});
export type PaymentDispute = z.infer<typeof PaymentDispute>;

/** An order's payment as both sides see it. */
export const OrderPayment = z.object({
  method: z.enum(PAYMENT_METHODS),
  state: z.enum(PAYMENT_STATES),
  /** The provider's payment page while the order awaits its payment. */
  checkoutUrl: z.string().nullable(),
  /** The parts of it given back (a delivered order's partial refunds), oldest first. */
  refunds: z.array(PaymentRefund),
  /** The latest dispute of it, if the cardholder disputed it. */
  dispute: PaymentDispute.nullable(),
});
export type OrderPayment = z.infer<typeof OrderPayment>;

/** Why an order ended that was never paid. */
export const UNPAID_REASON = msg('The payment was not completed');
/** Why an order nobody accepted in time was declined. */
export const NO_ANSWER_REASON = msg('The kitchen did not answer in time');
/** Why an order in progress that its kitchen deleted from its list was cancelled. */
export const DELETED_BY_KITCHEN_REASON = msg('The kitchen deleted this order');
/** Why an accepted order whose payment could not be taken was cancelled. */
export const CAPTURE_FAILED_REASON = msg('The payment could not be taken');

/** The error code of a refused payment method (409): the kitchen does not take cards yet, or no cash. */
export const PAYMENT_METHOD_REFUSED = 'PAYMENT_METHOD_REFUSED';
/** The payment provider did not answer (503): nothing was charged, the customer may try again. */
export const PAYMENT_PROVIDER_DOWN = 'PAYMENT_PROVIDER_DOWN';

/** Where a kitchen's payouts stand, as its dashboard says it. */
export const PAYOUT_STATES = ['not-set-up', 'details-needed', 'payouts-on'] as const;
export type PayoutStateName = (typeof PAYOUT_STATES)[number];
export const PAYOUT_STATE_LABELS: Record<PayoutStateName, string> = {
  'not-set-up': msg('Set up payouts'),
  'details-needed': msg('Details needed'),
  'payouts-on': msg('Payouts on'),
};

/** How a kitchen can be paid: what its menu page and checkout offer. */
export const KitchenPayments = z.object({
  card: z.boolean(),
  cash: z.boolean(),
  /** It takes tips (by card: its payouts are on and 'Accept tips' is on). */
  tips: z.boolean(),
});
export type KitchenPayments = z.infer<typeof KitchenPayments>;

/** The cook's 'Get paid' section. */
export const PayoutSettings = z.object({
  /** Whether this marketplace takes cards at all (`PAYMENTS` is not `off`). */
  cardPayments: z.boolean(),
  state: z.enum(PAYOUT_STATES),
  acceptsCash: z.boolean(),
  /** 'Accept tips' (on unless the cook turned it off). */
  acceptsTips: z.boolean(),
});
export type PayoutSettings = z.infer<typeof PayoutSettings>;

/**
 * What selling here costs a cook, shown before they agree (at sign-up and on 'Get paid'): on a card order the platform
 * keeps `commissionPercent` of the dishes' price (and the customer's service fee and tax), and the delivery fee goes
 * to the cook whole; a cash order costs the cook nothing.
 */
export const MarketplaceFees = z.object({
  cardPayments: z.boolean(),
  /** The commission in force today. */
  commissionPercent: z.number(),
  /** A change announced to every cook at least FEE_NOTICE_DAYS ahead, and the day it applies from (null: none). */
  upcoming: z.object({ commissionPercent: z.number(), effectiveOn: z.string() }).nullable(),
});

/** How many days ahead a change of fees is announced to every cook (California H&S Code §114367.6). */
export const FEE_NOTICE_DAYS = 30;

/** `POST /api/operator/fee-changes`: the new commission and the first day (UTC) it applies. */
export const FeeChangeInput = z.object({
  commissionPercent: z.number().min(0).max(50).multipleOf(0.01),
  effectiveOn: z.iso.date(),
});
export type FeeChangeInput = z.infer<typeof FeeChangeInput>;

export const FeeChange = z.object({
  id: z.string().uuid(),
  commissionPercent: z.number(),
  effectiveOn: z.string(),
  operatorEmail: z.string(),
  announcedAt: z.string(),
  /** How many cooks it was announced to (an email each, through the notifications' outbox). */
  cooks: z.number().int(),
});
export type FeeChange = z.infer<typeof FeeChange>;
export type MarketplaceFees = z.infer<typeof MarketplaceFees>;

export const CashSettingInput = z.object({
  acceptsCash: z.boolean({ error: () => t('Accept cash on delivery must be true or false') }),
});

export const TipsSettingInput = z.object({
  acceptsTips: z.boolean({ error: () => t('Accept tips must be true or false') }),
});

export const OnboardingLink = z.object({ url: z.string() });

/** `?from=&to=` of the cook's earnings: days of the kitchen's wall calendar, both included (the last 12 months when left out). */
export const EarningsQuery = z
  .object({ from: calendarDay('from').optional(), to: calendarDay('to').optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: () => t('to must not be before from'),
    path: ['to'],
  });
export type EarningsQuery = z.infer<typeof EarningsQuery>;

/**
 * One paid order on the cook's 'Earnings' page (minor units of `currency`), from the ledger: a card order captured
 * (refunded since or not) or a cash order delivered. What the customer paid, less `refundedCents`, is
 * `platformFeeCents` plus `netCents`.
 */
export const EarningsLine = z.object({
  orderId: z.string().uuid(),
  /** When it was paid (captured, or cash delivered): ISO. */
  at: z.string(),
  /** That moment's day in the kitchen's time zone (YYYY-MM-DD). */
  day: z.string(),
  method: z.enum(PAYMENT_METHODS),
  items: z.array(z.string()),
  itemsCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  /** The platform's part kept (its fee, less what a refund gave back); 0 for cash. */
  platformFeeCents: z.number().int(),
  /** Given back to the customer (positive). */
  refundedCents: z.number().int(),
  /** Tips for the cook (at checkout and after delivery), whole: outside the platform's fee (ADR 25). */
  tipCents: z.number().int(),
  /** The cook's: the kitchen's transfer less its reversal, or the cash collected, and the tips. */
  netCents: z.number().int(),
  /** A promotion code's discount on it and who paid it: the kitchen (out of `netCents`) or the platform (ADR 30). */
  discount: z
    .object({ code: z.string(), cents: z.number().int(), paidBy: z.enum(['platform', 'kitchen']) })
    .nullable()
    .optional(),
});
export type EarningsLine = z.infer<typeof EarningsLine>;

/** The paid orders of one day (`period` YYYY-MM-DD) or month (YYYY-MM) in the kitchen's time zone. */
export const EarningsTotal = z.object({
  period: z.string(),
  orders: z.number().int(),
  platformFeeCents: z.number().int(),
  refundedCents: z.number().int(),
  tipCents: z.number().int(),
  netCents: z.number().int(),
});
export type EarningsTotal = z.infer<typeof EarningsTotal>;

/** The cook's 'Earnings': the paid orders of the days asked (newest first), and their totals. */
export const Earnings = z.object({
  currency: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  lines: z.array(EarningsLine),
  days: z.array(EarningsTotal),
  months: z.array(EarningsTotal),
});
export type Earnings = z.infer<typeof Earnings>;

/**
 * The operator's 'Money' tab: the ledger's card totals (net of refunds: what the platform kept and the kitchens were
 * paid), the differences the reconciliation flagged (newest first), the latest refunds and disputes, and when it
 * last ran.
 */
export const MoneyOverview = z.object({
  currency: z.string(),
  totals: z.object({
    capturedCents: z.number().int(),
    platformFeeCents: z.number().int(),
    kitchenTransferCents: z.number().int(),
    refundedCents: z.number().int(),
    /** Authorised and not yet captured or released. */
    heldCents: z.number().int(),
    /** Store credit (ADR 29): given by refunds, spent on orders (captured), and held in customers' accounts now. */
    creditIssuedCents: z.number().int(),
    creditSpentCents: z.number().int(),
    creditHeldCents: z.number().int(),
  }),
  differences: z.array(z.object({ id: z.string(), at: z.string(), scope: z.string(), detail: z.string() })),
  refunds: z.array(
    z.object({ orderId: z.string(), at: z.string(), kitchenName: z.string(), amountCents: z.number().int() }),
  ),
  lastReconciledAt: z.string().nullable(),
  /** The latest disputes of card payments (newest first): open ones with their deadline for evidence, then decided. */
  disputes: z.array(
    z.object({
      orderId: z.string(),
      kitchenName: z.string(),
      at: z.string(),
      amountCents: z.number().int(),
      feeCents: z.number().int(),
      status: z.string(),
      evidenceDueBy: z.string().nullable(),
      evidenceSubmitted: z.boolean(),
      outcome: z.enum(['won', 'lost']).nullable(),
    }),
  ),
  /**
   * Payment steps (capture, release, refund) that failed and are tried again, backing off, or were given up on
   * (`gaveUpAt`): the provider's last word with each.
   */
  failingSteps: z.array(
    z.object({
      orderId: z.string(),
      kitchenName: z.string(),
      state: z.enum(PAYMENT_STATES),
      failures: z.number().int(),
      error: z.string(),
      nextTryAt: z.string().nullable(),
      gaveUpAt: z.string().nullable(),
    }),
  ),
});
export type MoneyOverview = z.infer<typeof MoneyOverview>;

/** Where an order's money stands, in words, for the customer or for its kitchen. */
/**
 * A payment's dispute as each side reads it: open, with the deadline for the shop's evidence (a day of `timeZone`),
 * or decided. `amount` is formatted by the caller (the deployment's currency).
 */
export function disputeText(
  dispute: PaymentDispute,
  reader: 'customer' | 'kitchen',
  amount: string,
  timeZone: string,
  tr: Translator = translator(),
): string {
  if (dispute.outcome === 'won')
    return reader === 'customer'
      ? tr.t('Your bank decided the dispute of {amount} for the kitchen', { amount })
      : tr.t('The customer’s bank decided the dispute of {amount} for you', { amount });
  if (dispute.outcome === 'lost')
    return reader === 'customer'
      ? tr.t('Your bank decided the dispute of {amount} for you', { amount })
      : tr.t('The customer’s bank decided the dispute of {amount} for the customer', { amount });
  const due = dispute.evidenceDueBy
    ? tr.dateFormat({ dateStyle: 'medium', timeZone }).format(new Date(dispute.evidenceDueBy))
    : null;
  if (reader === 'customer') return tr.t('You disputed {amount} of this payment with your bank', { amount });
  return due
    ? tr.t('Payment disputed by the customer’s bank: {amount}, evidence due by {due}', { amount, due })
    : tr.t('Payment disputed by the customer’s bank: {amount}', { amount });
}

export function paymentText(
  payment: Pick<OrderPayment, 'method' | 'state'>,
  reader: 'customer' | 'kitchen',
  /** A pickup order's cash is paid when it is collected. */
  fulfilment: 'delivery' | 'pickup' = 'delivery',
  tr: Translator = translator(),
): string {
  const customer = reader === 'customer';
  const pickup = fulfilment === 'pickup';
  switch (payment.state) {
    case 'awaiting-payment':
      return tr.t('Awaiting payment');
    case 'authorised':
      return customer
        ? tr.t('Card payment authorised: charged when the kitchen accepts')
        : tr.t('Card payment authorised');
    case 'capturing':
      // Asked of the provider, not confirmed yet: the kitchen hands nothing over on it.
      return customer
        ? tr.t('Card payment being taken')
        : tr.t('Card payment not taken yet: do not hand the order over until it says paid');
    case 'captured':
      return tr.t('Paid by card');
    case 'releasing':
    case 'released':
      return customer ? tr.t('Card payment released: you were not charged') : tr.t('Card payment released');
    case 'refunding':
      return tr.t('Refund under way');
    case 'refunded':
      return customer ? tr.t('Refunded to your card') : tr.t('Refunded to the customer');
    case 'unpaid':
      return tr.t('Not paid');
    case 'cash-due':
      if (pickup) return customer ? tr.t('Cash: pay the cook when you collect it') : tr.t('Cash on pickup');
      return customer ? tr.t('Cash on delivery: pay the cook when it arrives') : tr.t('Cash on delivery');
    case 'cash-paid':
      return tr.t('Paid in cash');
  }
}

/** `GET /api/operator/fee-changes`: the commission in force today, the earliest day a new change may apply, and every change announced (latest day first). */
export const FeeChanges = z.object({
  commissionPercent: z.number(),
  earliestEffectiveOn: z.string(),
  changes: z.array(FeeChange.omit({ cooks: true })),
});
export type FeeChanges = z.infer<typeof FeeChanges>;
