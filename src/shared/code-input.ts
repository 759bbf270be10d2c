import { z } from 'zod';
import { t } from './i18n/translator.js';

// Small on purpose: the order's input (src/shared/orders.ts) takes a code, and the rest of the codes' schemas
// (src/shared/promo-codes.ts) stay out of whatever imports that module.

/**
 * Promotion codes (issue 55, ADR 30). Who pays a code's discount: the platform (an operator's code: its fee first,
 * then a transfer of its own; the kitchen's part is unchanged) or the kitchen (its cook's code lowers its part).
 */
export const CODE_PAYERS = ['platform', 'kitchen'] as const;
export type CodePayer = (typeof CODE_PAYERS)[number];

/** A code as people type it, normalised: case and spaces do not matter ('first10 ' is FIRST10). */
export const normaliseCode = (code: string) => code.trim().toUpperCase().replace(/\s+/g, '');
export const CODE_PATTERN = /^[A-Z0-9-]{3,32}$/;

/** A code as typed at checkout. */
export const CodeInput = z
  .string({ error: () => t('Code must be text') })
  .max(40, { error: () => t('A code has at most 32 letters and digits') })
  .transform(normaliseCode)
  .refine((code) => CODE_PATTERN.test(code), {
    error: () => t('A code has 3 to 32 letters, digits or -'),
  });

/** The cart's line of a code: 'Code FIRST10: −$5.00'. */
export const codeLineText = (code: string, amount: string) => t('Code {code}: −{amount}', { code, amount });
