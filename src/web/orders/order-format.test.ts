import { describe, expect, it } from 'vitest';
import { setTranslator, Translator } from '../../shared/i18n/translator.js';
import { dateAndTime, itemCounts, listOf, timeOfDay } from './order-format.js';

describe('order formatting', () => {
  it('counts repeated dishes, keeping the order they were first added in', () => {
    const line = (item: string) => ({ item, priceCents: 100 });
    expect(itemCounts([line('Dal'), line('Rice'), line('Dal'), line('Dal')])).toEqual(['Dal × 3', 'Rice']);
    expect(itemCounts([])).toEqual([]);
  });

  it('shows times in the given time zone, on both sides of UTC', () => {
    const at = '2026-11-23T19:45:00Z';
    expect(timeOfDay(at, 'UTC')).toBe('7:45 PM');
    expect(timeOfDay(at, 'Asia/Kolkata')).toBe('1:15 AM');
    expect(timeOfDay(at, 'America/Los_Angeles')).toBe('11:45 AM');
    expect(dateAndTime(at, 'Asia/Kolkata')).toBe('Nov 24, 1:15 AM');
  });

  it('lists dishes as the page reads them', () => {
    expect(listOf(['Dal × 3', 'Rice', 'Naan'])).toBe('Dal × 3, Rice, Naan');
    expect(listOf(['Dal'])).toBe('Dal');
  });

  it('writes times in the language of the page', () => {
    const previous = setTranslator(new Translator({ locale: 'fr', messages: {}, currency: 'USD' }));
    try {
      expect(timeOfDay('2026-11-23T19:45:00Z', 'UTC')).toBe('19:45');
    } finally {
      setTranslator(previous);
    }
  });
});
