import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDERING } from '../../shared/ordering.js';
import { orderingSummary } from './ordering-line.js';

describe("a kitchen's ordering line", () => {
  it('says delivery, pickup, how far ahead and the minimum order', () => {
    expect(
      orderingSummary({
        ...DEFAULT_ORDERING,
        offersPickup: true,
        slotMinutes: 30,
        daysAhead: 2,
        minimumOrderCents: 1500,
      }),
    ).toBe('Delivery · Pickup · Orders up to 2 days ahead · Minimum order $15.00');
  });

  it('leaves out what the kitchen does not do', () => {
    expect(orderingSummary(DEFAULT_ORDERING)).toBe('Delivery');
    expect(orderingSummary({ ...DEFAULT_ORDERING, offersDelivery: false, offersPickup: true })).toBe(
      'Pickup',
    );
  });

  it("says 'only' when the kitchen takes no order for now, and 'today' for no days ahead", () => {
    const later = { ...DEFAULT_ORDERING, slotMinutes: 60, takesAsap: false };
    expect(orderingSummary({ ...later, daysAhead: 1 })).toBe('Delivery · Orders up to 1 day ahead only');
    expect(orderingSummary({ ...later, daysAhead: 0 })).toBe('Delivery · Orders for later today only');
    expect(orderingSummary({ ...later, takesAsap: true, daysAhead: 0 })).toBe(
      'Delivery · Orders for later today',
    );
  });
});
