import { describe, expect, it } from 'vitest';
import { computeTotals, formatCents, parsePriceToCents } from './money.js';

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
});
