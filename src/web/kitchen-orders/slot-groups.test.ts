import { describe, expect, it } from 'vitest';
import type { KitchenOrder } from '../../shared/orders.js';
import { hasPreOrders, prepList, slotGroups } from './slot-groups.js';

let next = 0;
const order = (
  dishes: string[],
  slot: { start: string; end: string } | null = null,
  state: KitchenOrder['state'] = 'recieved',
) =>
  ({
    id: `order-${++next}`,
    items: dishes.map((item) => ({ item, priceCents: 1000 })),
    slot,
    state,
  }) as KitchenOrder;

// 10:00 AM on Sunday 22 Nov 2026 in New York (UTC-5).
const now = new Date('2026-11-22T15:00:00Z');
const zone = 'America/New_York';
const todayAt6 = { start: '2026-11-22T23:00:00.000Z', end: '2026-11-22T23:30:00.000Z' };
const tomorrowAt6 = { start: '2026-11-23T23:00:00Z', end: '2026-11-23T23:30:00Z' };
const tomorrowAt630 = { start: '2026-11-23T23:30:00Z', end: '2026-11-24T00:00:00Z' };

describe("the kitchen's orders by slot", () => {
  it("lists 'As soon as possible' first, then each slot in time order, headed in the kitchen's time", () => {
    const asap1 = order(['Dal']);
    const late = order(['Rice'], tomorrowAt630);
    const tomorrow = order(['Biryani'], tomorrowAt6);
    const today = order(['Biryani', 'Biryani'], todayAt6);
    const asap2 = order(['Rice']);
    // The same instant spelt another way is the same slot.
    const todayAgain = order(['Dal'], { start: '2026-11-22T23:00:00Z', end: '2026-11-22T23:30:00Z' });
    const groups = slotGroups([asap1, late, tomorrow, today, asap2, todayAgain], zone, now);
    expect(groups.map((g) => [g.heading, g.orders.map((o) => o.id)])).toEqual([
      ['As soon as possible', [asap1.id, asap2.id]],
      ['Today 6:00–6:30 PM', [today.id, todayAgain.id]],
      ['Tomorrow 6:00–6:30 PM', [tomorrow.id]],
      ['Tomorrow 6:30–7:00 PM', [late.id]],
    ]);
    expect(groups[0]?.slot).toBeNull();
    expect(groups[1]?.slot).toEqual(todayAt6);
    expect(groups[1]?.prep).toEqual(['Biryani × 2', 'Dal × 1']);
    // Seen from Kolkata's clock the same slot is on another day and hour.
    expect(slotGroups([today], 'Asia/Kolkata', now)[0]?.heading).toBe('Tomorrow 4:30–5:00 AM');
  });

  it('has no group for "As soon as possible" when every order is for a slot, and none at all without orders', () => {
    expect(slotGroups([order(['Dal'], todayAt6)], zone, now).map((g) => g.heading)).toEqual([
      'Today 6:00–6:30 PM',
    ]);
    expect(slotGroups([], zone, now)).toEqual([]);
  });

  it("sums each dish across the slot's orders, the most first, then by name, leaving ended orders out", () => {
    expect(
      prepList([
        order(['Biryani', 'Raita', 'Biryani']),
        order(['Biryani', 'Aloo', 'Raita']),
        order(['Zucchini', 'Biryani']),
        order(['Biryani', 'Biryani', 'Biryani']),
        order(['Cake', 'Cake', 'Cake'], null, 'cancelled'),
      ]),
    ).toEqual(['Biryani × 7', 'Raita × 2', 'Aloo × 1', 'Zucchini × 1']);
  });

  it('tells whether any order is for a slot', () => {
    expect(hasPreOrders(undefined)).toBe(false);
    expect(hasPreOrders([order(['Dal'])])).toBe(false);
    expect(hasPreOrders([order(['Dal']), order(['Dal'], todayAt6)])).toBe(true);
  });
});
