import { minorDigitsOf, translator, type Translator } from './i18n/translator.js';

/**
 * Money is integer minor units of the deployment's `CURRENCY` everywhere (cents of USD, yen of JPY: `minorDigits`);
 * these are the spec's fixed fees (section 9), in those units.
 */
export const DELIVERY_FEE_CENTS = 299;
export const FEES_AND_TAX_CENTS = 746;

/** The most a price's whole part may have of digits: up to 999,999 of the currency. */
const MAX_WHOLE_DIGITS = 6;

/**
 * Parses a decimal amount such as "12", "12.5" or "12.50" into minor units of `currency` (the current language's:
 * the deployment's), as many decimals as the currency has at most: "12.50" is 1250 in USD, "500" is 500 in JPY, where
 * "5.50" is no amount; null when it is not one.
 */
export function parsePriceToCents(text: string, currency: string = translator().currency): number | null {
  const digits = minorDigits(currency);
  const trimmed = text.trim().replace(/^\$/, '');
  const pattern = new RegExp(`^\\d{1,${MAX_WHOLE_DIGITS}}${digits > 0 ? `(\\.\\d{1,${digits}})?` : ''}$`);
  if (!pattern.test(trimmed)) return null;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/**
 * An amount in minor units as a plain decimal, as a form shows it and `parsePriceToCents` reads it back (no
 * currency sign, no separators): 2945 USD → "29.45", -50 → "-0.50", JPY 300 → "300", KWD 1234 → "1.234".
 */
export function decimalAmount(minor: number, currency: string = translator().currency): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, '0')}`;
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

/** An amount in whole units of `currency`, cents dropped (a cap's figure: "$61,240 of $100,000"). */
export function formatWholeMoney(minor: number, currency: string, tr: Translator = translator()): string {
  const unit = 10 ** minorDigits(currency);
  return tr
    .numberFormat({ style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 0 })
    .format(Math.floor(minor / unit));
}
