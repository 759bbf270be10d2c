import { describe, expect, it } from 'vitest';
import type { Earnings } from '../../shared/payments.js';
import { decimalAmount } from '../../shared/money.js';
import { earningsCsv, textCell } from './earnings-csv.js';

describe('earnings as CSV cells', () => {
  it('writes amounts as plain decimals of the currency', () => {
    expect(decimalAmount(2945, 'USD')).toBe('29.45');
    expect(decimalAmount(5, 'USD')).toBe('0.05');
    expect(decimalAmount(-50, 'EUR')).toBe('-0.50');
    expect(decimalAmount(0, 'USD')).toBe('0.00');
    expect(decimalAmount(3245, 'JPY')).toBe('3245');
    expect(decimalAmount(1234, 'KWD')).toBe('1.234');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])
      expect(textCell(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(textCell('Dal')).toBe('"Dal"');
    expect(textCell('Dal - spicy')).toBe('"Dal - spicy"');
  });

  it('quotes a cell, doubling its quotes', () => {
    expect(textCell('Rice, spiced')).toBe('"Rice, spiced"');
    expect(textCell('The "best" dal')).toBe('"The ""best"" dal"');
    expect(textCell('=A1,"x"')).toBe(`"'=A1,""x"""`);
    expect(textCell('two\nlines')).toBe('"two\nlines"');
    expect(textCell('two\n=lines')).toBe(`"two\n'=lines"`);
  });

  it('neutralises each part a semicolon splits off, and quotes every text cell (a semicolon-locale spreadsheet)', () => {
    expect(textCell('Dal')).toBe('"Dal"');
    expect(textCell('a;=2+2')).toBe(`"a;'=2+2"`);
    expect(textCell('a; =2+2')).toBe(`"a; '=2+2"`);
    expect(textCell('a;\t@SUM(A1)')).toBe(`"a;'\t@SUM(A1)"`);
    expect(textCell('Rice; spiced - hot')).toBe('"Rice; spiced - hot"');
    const earnings: Earnings = {
      currency: 'USD',
      timeZone: 'UTC',
      from: '2026-03-01',
      to: '2026-03-31',
      lines: [
        {
          orderId: '00000000-0000-4000-8000-000000000001',
          at: '2026-03-10T09:00:00.000Z',
          day: '2026-03-10',
          method: 'card',
          items: ['a;=2+2', '-1', 'Dal'],
          itemsCents: 950,
          deliveryFeeCents: 299,
          platformFeeCents: 746,
          refundedCents: 0,
          tipCents: 300,
          netCents: 1549,
        },
      ],
      days: [],
      months: [],
    };
    const [, row] = earningsCsv(earnings).slice(1).trimEnd().split('\r\n');
    expect(row).toBe(
      `"2026-03-10","2026-03-10T09:00:00.000Z","00000000-0000-4000-8000-000000000001","card",` +
        `"a;'=2+2; '-1; Dal",9.50,2.99,7.46,0.00,3.00,15.49,"USD"`,
    );
  });
});
