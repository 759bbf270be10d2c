import { z } from 'zod';
import { t } from './i18n/translator.js';
import { CODE_PAYERS, CodeInput } from './code-input.js';

export { CODE_PAYERS, CODE_PATTERN, CodeInput, normaliseCode, type CodePayer } from './code-input.js';

/** A code refused at checkout (4xx naming `code`), with the reason in its message. */
export const CODE_REFUSED = 'CODE_REFUSED';

/** The letters of generated codes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, so that a code read aloud or copied is not misread. */
export const CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';
export const GENERATED_CODE_LENGTH = 10;
export const MAX_PERCENT = 100;
export const MAX_CODE_AMOUNT_CENTS = 100_000;
export const MAX_CODE_USES = 1_000_000;

const cents = (field: string) =>
  z
    .number({ error: () => t('{field} must be a number of cents', { field }) })
    .int({ error: () => t('{field} must be a whole number of cents', { field }) })
    .min(1, { error: () => t('{field} must be more than zero', { field }) })
    .max(MAX_CODE_AMOUNT_CENTS, {
      error: () => t('{field} may be at most {max} cents', { field, max: String(MAX_CODE_AMOUNT_CENTS) }),
    });
const uses = (field: string) =>
  z
    .number({ error: () => t('{field} must be a number', { field }) })
    .int({ error: () => t('{field} must be a whole number', { field }) })
    .min(1, { error: () => t('{field} must be at least 1', { field }) })
    .max(MAX_CODE_USES, { error: () => t('{field} is too large', { field }) });
const yesNo = (field: string) => z.boolean({ error: () => t('{field} must be true or false', { field }) });
const kitchenId = z
  .string({ error: () => t('Kitchen must be a kitchen id') })
  .uuid({ error: () => t('Kitchen must be a kitchen id') });
const when = (field: string) =>
  z.string().datetime({ offset: true, error: () => t('{field} must be a date and time', { field }) });

/**
 * A new code, by an operator (for any kitchen, or one: `kitchenUid`) or a cook (their kitchen's). Either `code` (a
 * word customers can type: FIRST10) or none, and the server generates an unguessable one.
 */
export const NewCodeInput = z
  .object({
    code: CodeInput.optional(),
    amountOffCents: cents('amountOffCents').optional(),
    percentOff: uses('percentOff')
      .max(MAX_PERCENT, { error: () => t('{field} is too large', { field: 'percentOff' }) })
      .optional(),
    maxDiscountCents: cents('maxDiscountCents').optional(),
    minOrderCents: z
      .number({ error: () => t('{field} must be a number of cents', { field: 'minOrderCents' }) })
      .int({ error: () => t('{field} must be a whole number of cents', { field: 'minOrderCents' }) })
      .min(0, { error: () => t('{field} must not be negative', { field: 'minOrderCents' }) })
      .max(MAX_CODE_AMOUNT_CENTS, { error: () => t('{field} is too large', { field: 'minOrderCents' }) })
      .optional(),
    startsAt: when('startsAt').optional(),
    endsAt: when('endsAt').optional(),
    maxUses: uses('maxUses').optional(),
    maxUsesPerCustomer: uses('maxUsesPerCustomer').optional(),
    firstOrderOnly: yesNo('firstOrderOnly').optional(),
    /** An operator's code for one kitchen only (a cook's code is always for their own). */
    kitchenUid: kitchenId.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.amountOffCents === undefined) === (input.percentOff === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['amountOffCents'],
        message: t('Give either amountOffCents or percentOff'),
      });
    if (input.maxDiscountCents !== undefined && input.percentOff === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['maxDiscountCents'],
        message: t('maxDiscountCents is the cap of a percentage'),
      });
    if (input.startsAt && input.endsAt && Date.parse(input.endsAt) <= Date.parse(input.startsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: t('endsAt must be after startsAt') });
  });
export type NewCodeInput = z.infer<typeof NewCodeInput>;

export const CodeParams = z.object({ id: z.string().uuid({ error: () => t('Code id must be a uuid') }) });
export const CodeChange = z.object({ active: yesNo('active') }).strict();

/** A code as its owner (an operator, or the cook) sees it, with its uses. */
export const PromoCode = z.object({
  id: z.string().uuid(),
  code: z.string(),
  paidBy: z.enum(CODE_PAYERS),
  kitchenUid: z.string().uuid().nullable(),
  kitchenName: z.string().nullable(),
  amountOffCents: z.number().int().nullable(),
  percentOff: z.number().int().nullable(),
  maxDiscountCents: z.number().int().nullable(),
  minOrderCents: z.number().int(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  maxUsesPerCustomer: z.number().int().nullable(),
  firstOrderOnly: z.boolean(),
  active: z.boolean(),
  /** Uses that count (orders not ended early), and the discount they gave. */
  uses: z.number().int(),
  discountCents: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
});
export type PromoCode = z.infer<typeof PromoCode>;
export const PromoCodeList = z.object({ codes: z.array(PromoCode) });
export type PromoCodeList = z.infer<typeof PromoCodeList>;

/** What a code takes off a cart now (the cart's 'Apply'): the same arithmetic as placing the order. */
export const CodeQuote = z.object({
  code: z.string(),
  discountCents: z.number().int(),
  paidBy: z.enum(CODE_PAYERS),
});
export type CodeQuote = z.infer<typeof CodeQuote>;
export const CodeQuoteInput = z
  .object({
    code: CodeInput,
    kitchenUid: kitchenId,
    itemIds: z
      .array(z.string().uuid({ error: () => t('Each item must be a menu item id') }))
      .min(1, { error: () => t('Your cart is empty') })
      .max(100, { error: () => t('At most {max} items per order', { max: '100' }) }),
  })
  .strict();
