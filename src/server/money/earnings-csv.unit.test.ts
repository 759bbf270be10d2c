import { describe, expect, it } from 'vitest';
import { decimalAmount, textCell } from './earnings-csv.js';

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
    expect(textCell('Dal')).toBe('Dal');
    expect(textCell('Dal - spicy')).toBe('Dal - spicy');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(textCell('Rice, spiced')).toBe('"Rice, spiced"');
    expect(textCell('The "best" dal')).toBe('"The ""best"" dal"');
    expect(textCell('=A1,"x"')).toBe(`"'=A1,""x"""`);
    expect(textCell('two\nlines')).toBe('"two\nlines"');
  });
});
