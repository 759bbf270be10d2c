import { z } from 'zod';
import { msg, t } from './i18n/translator.js';

/**
 * How a customer wants a refund: back to their card, or as store credit that spends on any kitchen's order (ADR 29).
 */
export const REFUND_AS = ['card', 'credit'] as const;
export type RefundAs = (typeof REFUND_AS)[number];

/**
 * The kinds of a credit account's movements: a refund given as credit, credit spent on an order, and credit given
 * back (an order that ended unpaid or was refunded). Issue 55's referral credit and gift cards are kinds to add.
 */
export const CREDIT_KINDS = ['refund', 'spent', 'returned'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

/** What a movement of the account is called on the customer's account page: a message, t() it. */
export const CREDIT_KIND_NAMES: Record<CreditKind, string> = {
  refund: msg('Refund as store credit'),
  spent: msg('Spent on an order'),
  returned: msg('Given back from an order'),
};

/** The customer has less store credit than the order would take (409, naming `useCredit`): another spent it. */
export const CREDIT_TOO_LOW = 'CREDIT_TOO_LOW';

/** One movement of a credit account, newest first on the account page. */
export const CreditEntry = z.object({
  id: z.string().uuid(),
  kind: z.enum(CREDIT_KINDS),
  /** Signed minor units: credit given is positive, spent negative. */
  amountCents: z.number().int(),
  orderId: z.string().uuid().nullable(),
  kitchenName: z.string().nullable(),
  at: z.string(),
});
export type CreditEntry = z.infer<typeof CreditEntry>;

/** `GET /api/customer/credit`: the balance and its movements, newest first. */
export const CreditAccount = z.object({
  currency: z.string(),
  balanceCents: z.number().int(),
  entries: z.array(CreditEntry),
});
export type CreditAccount = z.infer<typeof CreditAccount>;

/** "Store credit: −$5.00": the line of the cart, the order and the receipt. */
export const creditLineText = (amount: string) => t('Store credit: −{amount}', { amount });
