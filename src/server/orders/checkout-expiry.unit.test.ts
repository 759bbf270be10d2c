import { describe, expect, it } from 'vitest';
import { checkoutExpiry, checkoutExpiryUntil } from './checkout.js';

const NOW = Date.parse('2026-11-29T12:02:00Z');
const HOUR = 3_600_000;

describe("a payment page kept open until a plan's week can no longer take its order", () => {
  it('closes then, on the 5-minute step before it', () => {
    expect(checkoutExpiryUntil(NOW, NOW + 10 * HOUR + 3 * 60_000).toISOString()).toBe(
      '2026-11-29T22:05:00.000Z',
    );
  });
  it("never later than Stripe's 24 hours from the page's creation", () => {
    const closes = checkoutExpiryUntil(NOW, NOW + 48 * HOUR).getTime();
    expect(closes).toBeLessThanOrEqual(NOW + 24 * HOUR);
    expect(closes).toBeGreaterThan(NOW + 23 * HOUR);
  });
  it('never sooner than any payment page (a deadline already near or past)', () => {
    expect(checkoutExpiryUntil(NOW, NOW + 10 * 60_000)).toEqual(checkoutExpiry(NOW));
    expect(checkoutExpiryUntil(NOW, NOW - HOUR)).toEqual(checkoutExpiry(NOW));
  });
});
