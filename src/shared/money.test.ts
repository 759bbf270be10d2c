import { describe, expect, it } from 'vitest';
import { Translator } from './i18n/translator.js';
import { computeTotals, decimalAmount, formatCents, parsePriceToCents } from './money.js';

describe('money', () => {
  it('parses decimal prices into cents', () => {
    expect(parsePriceToCents('12')).toBe(1200);
    expect(parsePriceToCents('12.5')).toBe(1250);
    expect(parsePriceToCents('$0.99')).toBe(99);
    expect(parsePriceToCents(' 7.05 ')).toBe(705);
  });
  it('refuses what is not a decimal amount >= 0 with at most two decimals', () => {
    for (const bad of ['', '-1', '1.234', 'abc', '1e3', '1,50', '.5', 'NaN', '9999999']) {
      expect(parsePriceToCents(bad)).toBeNull();
    }
  });
  it('formats cents as dollars', () => {
    expect(formatCents(1045)).toBe('$10.45');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(0)).toBe('$0.00');
  });
  it('adds the fixed fees to the items', () => {
    expect(computeTotals([]).totalCents).toBe(1045);
    expect(computeTotals([1000, 250])).toEqual({
      itemsCents: 1250,
      deliveryFeeCents: 299,
      feesAndTaxCents: 746,
      totalCents: 2295,
    });
  });

  it('parses and writes prices in the minor units of the currency: yen have none, dinars three', () => {
    expect(parsePriceToCents('500', 'JPY')).toBe(500);
    expect(parsePriceToCents('999999', 'JPY')).toBe(999999);
    for (const bad of ['5.50', '5.', '1.0', '-1', '']) expect(parsePriceToCents(bad, 'JPY'), bad).toBeNull();
    expect(parsePriceToCents('12.50', 'USD')).toBe(1250);
    expect(parsePriceToCents('1.234', 'KWD')).toBe(1234);
    expect(parsePriceToCents('1.5', 'KWD')).toBe(1500);
    expect(decimalAmount(500, 'JPY')).toBe('500');
    expect(decimalAmount(1250, 'USD')).toBe('12.50');
    expect(parsePriceToCents(decimalAmount(1234, 'KWD'), 'KWD')).toBe(1234);
  });
  it('formats yen as yen: 500 is ¥500', () => {
    const yen = new Translator({ locale: 'en', messages: {}, currency: 'JPY' });
    expect(formatCents(500, yen)).toBe('¥500');
    expect(formatCents(1545, yen)).toBe('¥1,545');
  });
});
