import { describe, expect, it } from 'vitest';
import { messageKey } from './i18n/messages.js';
import { Translator } from './i18n/translator.js';
import {
  cookingSince,
  firstName,
  formatRating,
  ordersDelivered,
  ReplyInput,
  ReviewInput,
} from './reviews.js';

describe('reviews, as the screens show them', () => {
  it("formats a rating as '★ 4.6 (23)', with one decimal", () => {
    expect(formatRating({ average: 4.6, count: 23 })).toBe('★ 4.6 (23)');
    expect(formatRating({ average: 5, count: 1 })).toBe('★ 5.0 (1)');
  });

  it('names a reviewer by first name only', () => {
    expect(firstName('Amira Haddad')).toBe('Amira');
    expect(firstName('  Li  ')).toBe('Li');
    expect(firstName('')).toBe('A customer');
  });

  it("says since when a kitchen cooks, in the kitchen's time zone", () => {
    // 1 March 2026 at 02:00 UTC is still February in New York.
    expect(cookingSince('2026-03-01T02:00:00Z', 'America/New_York')).toBe('Cooking here since February 2026');
    expect(cookingSince('2026-03-01T02:00:00Z', 'Europe/Paris')).toBe('Cooking here since March 2026');
    expect(cookingSince('2026-03-01T02:00:00Z', 'Not/AZone')).toBe('Cooking here since March 2026');
  });

  it('counts orders delivered', () => {
    // The English plural, compiled as the catalogues compile it (a translator without catalogues shows a
    // plural's bare number).
    const message = '{count, plural, one {# order delivered} other {# orders delivered}}';
    const english = new Translator({
      locale: 'en',
      currency: 'USD',
      messages: {
        [messageKey(message)]: [
          [3, 'count', 0, { one: [[0], ' order delivered'], other: [[0], ' orders delivered'] }],
        ],
      },
    });
    expect(ordersDelivered(1, english)).toBe('1 order delivered');
    expect(ordersDelivered(23, english)).toBe('23 orders delivered');
    expect(ordersDelivered(1000, english)).toBe('1,000 orders delivered');
  });

  it('takes multi-line texts but no other control characters', () => {
    expect(ReviewInput.safeParse({ stars: 5, text: 'a\nb' }).success).toBe(true);
    expect(ReviewInput.safeParse({ stars: 5, text: 'a\r\nb' }).success).toBe(false);
    expect(ReplyInput.safeParse({ reply: '  ' }).success).toBe(false);
  });
});
