import { z } from 'zod';
import { optionalText } from './fields.js';
import { msg, t } from './i18n/translator.js';
import { MAX_ORDER_TOTAL_CENTS } from './orders.js';
import { REFUND_STATES } from './payments.js';
import { DishCount } from './dish-count.js';

/** Who gives a refund's money back: the cook (the kitchen's transfer is reversed) or the platform (it is not). */
export const REFUND_PAYERS = ['kitchen', 'platform'] as const;
export type RefundPayer = (typeof REFUND_PAYERS)[number];
export { REFUND_STATES };

/** The order cannot be refunded in part: not paid by card, its payment not captured, or not delivered (409). */
export const NOT_REFUNDABLE = 'NOT_REFUNDABLE';
/** The refunds would add up to more than was captured (409, naming `amountCents`). */
export const REFUND_TOO_LARGE = 'REFUND_TOO_LARGE';
/** The request's key was used for another refund of this order (409, naming `key`). */
export const REFUND_KEY_REUSED = 'REFUND_KEY_REUSED';

const key = z
  .string({ error: () => t('Key is required') })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: () => t('Key must be 8-100 letters, digits, - or _') });
const amountCents = z
  .number({ error: () => t('Amount must be a whole number of cents') })
  .int({ error: () => t('Amount must be a whole number of cents') })
  .min(1, { error: () => t('Amount must be at least 1 cent') })
  .max(MAX_ORDER_TOTAL_CENTS, { error: () => t('Amount is more than any order') });

/** Some of an order's dishes and how many of each, as a refund names them. */
export const RefundDish = DishCount;
export type RefundDish = DishCount;

const refundFields = {
  key,
  /** An amount; or else `dishes`, whose prices as ordered the server adds up. */
  amountCents: amountCents.optional(),
  dishes: z
    .array(RefundDish)
    .min(1, { error: () => t('Choose at least one dish') })
    .max(50)
    .optional(),
  reason: optionalText(msg('Reason'), 300),
};
const amountOrDishes = (input: { amountCents?: number | undefined; dishes?: unknown }) =>
  (input.amountCents === undefined) !== (input.dishes === undefined);
const AMOUNT_OR_DISHES = { error: () => t('Give an amount or the dishes to refund'), path: ['amountCents'] };

/**
 * A cook's refund of part of a delivered card order: an amount (minor units) or some of its dishes, why, and a key
 * of the client's for this refund (a repeat with it gives the same refund, never a second one). The cook pays it.
 */
export const KitchenRefundInput = z.object(refundFields).refine(amountOrDishes, AMOUNT_OR_DISHES);
export type KitchenRefundInput = z.infer<typeof KitchenRefundInput>;

/**
 * An operator's refund: as the cook's, and who pays. `refundPlatformFee` (default: when the cook pays) gives the
 * platform's fee on the refunded part back to the kitchen's account.
 */
export const OperatorRefundInput = z
  .object({
    ...refundFields,
    whoPays: z.enum(REFUND_PAYERS, { error: () => t("Who pays must be 'kitchen' or 'platform'") }),
    refundPlatformFee: z
      .boolean({ error: () => t('Refund the platform fee must be true or false') })
      .optional(),
  })
  .refine(amountOrDishes, AMOUNT_OR_DISHES);
export type OperatorRefundInput = z.infer<typeof OperatorRefundInput>;

/** "Refunded $11.75 to your card": what the customer is told of each part given back. */
export const refundedText = (amount: string) => t('Refunded {amount} to your card', { amount });
/** "Added $9.50 to your store credit": a refund (or its part) given as credit (ADR 29). */
export const creditedText = (amount: string) => t('Added {amount} to your store credit', { amount });

/** One refund of an order, as its kitchen and operators see it (they named the order). */
export const OrderRefund = z.object({
  id: z.string().uuid(),
  amountCents: z.number().int(),
  whoPays: z.enum(REFUND_PAYERS),
  refundPlatformFee: z.boolean(),
  state: z.enum(REFUND_STATES),
  reason: z.string(),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
  /** Taken back from the kitchen's transfer, and the platform's fee given back to it (null until refunded). */
  transferReversedCents: z.number().int().nullable(),
  feeRefundedCents: z.number().int().nullable(),
});
export type OrderRefund = z.infer<typeof OrderRefund>;

/** The evidence submitted for an order's dispute: the names of Stripe's evidence fields filled from the order. */
export const DisputeEvidenceResult = z.object({ submitted: z.literal(true), fields: z.array(z.string()) });
export type DisputeEvidenceResult = z.infer<typeof DisputeEvidenceResult>;
