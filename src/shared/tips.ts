import { z } from 'zod';
import { t } from './i18n/translator.js';

/** The smallest tip (Stripe's smallest charge in USD is $0.50) and the largest, in minor units. */
export const MIN_TIP_CENTS = 50;
export const MAX_TIP_CENTS = 50_000;
/** What the tip picker suggests, as shares of the dishes' price (rounded to whole units). */
export const SUGGESTED_TIP_PERCENTS = [10, 15, 20] as const;
/** After delivery: the amounts suggested, in minor units. */
export const SUGGESTED_TIPS_AFTER = [200, 500, 1000] as const;

/** The kitchen does not take tips (409, naming `amountCents` or `tipCents`). */
export const TIPS_REFUSED = 'TIPS_REFUSED';
/** The order cannot be tipped (not delivered, or delivered over 48 hours ago): 409. */
export const TIP_CLOSED = 'TIP_CLOSED';

/** A tip's amount in minor units, checked for the field named `field`. */
export const tipAmount = (field: string) =>
  z
    .number({ error: () => t('{field} must be a number of cents', { field }) })
    .int({ error: () => t('{field} must be a whole number of cents', { field }) })
    .min(0, { error: () => t('{field} must not be negative', { field }) })
    .max(MAX_TIP_CENTS, {
      error: () => t('A tip may be at most {max} cents', { max: String(MAX_TIP_CENTS) }),
    });

/** Suggested tips at checkout: shares of the dishes' price, at least the smallest tip, distinct. */
export function suggestedTips(itemsCents: number, minorPerUnit = 100): number[] {
  const amounts = SUGGESTED_TIP_PERCENTS.map((percent) =>
    Math.max(MIN_TIP_CENTS, Math.round((itemsCents * percent) / 100 / minorPerUnit) * minorPerUnit),
  );
  return [...new Set(amounts)];
}

/** A tip after delivery, as the order shows it. */
export const OrderTip = z.object({
  id: z.string().uuid(),
  amountCents: z.number().int(),
  state: z.enum(['paying', 'paid', 'expired']),
  createdAt: z.string(),
});
export type OrderTip = z.infer<typeof OrderTip>;

/** 'Tip the cook' after delivery: an amount and the client's key (a repeat gives the same tip and page). */
export const TipInput = z.object({
  amountCents: tipAmount('amountCents').refine((amount) => amount >= MIN_TIP_CENTS, {
    error: () => t('A tip must be at least {min} cents', { min: String(MIN_TIP_CENTS) }),
  }),
  requestKey: z
    .string({ error: () => t('Request key is required') })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: () => t('Request key must be 8-100 letters, digits, - or _') }),
});
export type TipInput = z.infer<typeof TipInput>;

/** The answer to 'Tip the cook': the tip, and the payment page to send the customer to (null once paid). */
export const TipStarted = z.object({ tip: OrderTip, checkoutUrl: z.string().nullable() });
export type TipStarted = z.infer<typeof TipStarted>;
