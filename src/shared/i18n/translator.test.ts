import { describe, expect, it } from 'vitest';
import { Translator } from './translator.js';

describe("English numbers and plurals without building Intl's formatters (issue 32)", () => {
  const english = new Translator({ locale: 'en', messages: {}, currency: 'USD' });
  const pseudo = new Translator({ locale: 'en-XA', messages: {}, currency: 'USD' });
  const numbers = new Intl.NumberFormat('en-US');
  const plurals = new Intl.PluralRules('en-US');

  it('writes every whole number as Intl does, in the fast range and past it', () => {
    for (const n of [...Array.from({ length: 1200 }, (_, i) => i), 12_345, 1_000_000, -1, -999, 2.5, 0.1]) {
      expect(english.number(n)).toBe(numbers.format(n));
      expect(pseudo.number(n)).toBe(numbers.format(n));
    }
    expect(english.number(1234)).toBe('1,234');
  });

  it("picks the plural case Intl picks ('one' for 1 only), ordinals from Intl", () => {
    for (const n of [...Array.from({ length: 1200 }, (_, i) => i), 1_000_000, -1, 1.5])
      expect(english.plural(n, false)).toBe(plurals.select(n));
    expect(english.plural(2, true)).toBe('two');
    expect(english.plural(3, true)).toBe('few');
  });

  it('leaves other languages to Intl', () => {
    const arabic = new Translator({ locale: 'ar', messages: {}, currency: 'USD' });
    const arabicNumbers = new Intl.NumberFormat('ar');
    for (const n of [0, 1, 2, 3, 11, 100, 999]) {
      expect(arabic.number(n)).toBe(arabicNumbers.format(n));
      expect(arabic.plural(n, false)).toBe(new Intl.PluralRules('ar').select(n));
    }
    const french = new Translator({ locale: 'fr', messages: {}, currency: 'USD' });
    expect(french.plural(0, false)).toBe('one');
  });
});
