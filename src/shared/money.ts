import { minorDigitsOf, translator, type Translator } from './i18n/translator.js';

/** Money is integer cents everywhere; these are the spec's fixed fees (section 9). */
export const DELIVERY_FEE_CENTS = 299;
export const FEES_AND_TAX_CENTS = 746;

const PRICE_PATTERN = /^\d{1,6}(\.\d{1,2})?$/;

/** Parses a decimal amount such as "12", "12.5" or "12.50" into cents; null when it is not one. */
export function parsePriceToCents(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '');
  if (!PRICE_PATTERN.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** An amount in cents of the deployment's currency, in the current language: '$2.99' in English. */
export function formatCents(cents: number, tr: Translator = translator()): string {
  if (tr.intl !== 'en-US' || tr.currency !== 'USD') return tr.money(cents);
  // The spec's English: no thousands separator ('$10000.00').
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export interface OrderTotals {
  itemsCents: number;
  deliveryFeeCents: number;
  feesAndTaxCents: number;
  totalCents: number;
}

/**
 * Total = sum of item prices plus both fixed fees (so an empty cart totals $10.45); the 'Delivery fee' applies to
 * delivery only: a pickup order has none.
 */
export function computeTotals(
  itemPricesCents: readonly number[],
  fulfilment: 'delivery' | 'pickup' = 'delivery',
): OrderTotals {
  const itemsCents = itemPricesCents.reduce((sum, c) => sum + c, 0);
  const deliveryFeeCents = fulfilment === 'delivery' ? DELIVERY_FEE_CENTS : 0;
  return {
    itemsCents,
    deliveryFeeCents,
    feesAndTaxCents: FEES_AND_TAX_CENTS,
    totalCents: itemsCents + deliveryFeeCents + FEES_AND_TAX_CENTS,
  };
}

/** How many minor units a currency has after its decimal point (USD 2, JPY 0), as ISO 4217 says. */
export function minorDigits(currency: string): number {
  return minorDigitsOf(currency);
}

/** An amount in minor units of `currency`, for people, in the current language (or `tr`'s): "$32.45", "¥3,245". */
export function formatMoney(minor: number, currency: string, tr: Translator = translator()): string {
  return tr.money(minor, currency);
}
