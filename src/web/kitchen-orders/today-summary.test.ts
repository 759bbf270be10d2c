import { describe, expect, it } from 'vitest';
import type { KitchenOrder } from '../../shared/orders.js';
import { todaySummary } from './today-summary.js';

const order = (createdAt: string, totalCents: number, state: KitchenOrder['state'] = 'recieved') =>
  ({ createdAt, totalCents, state }) as KitchenOrder;

describe("today's orders and takings", () => {
  // 23 Nov 2026, 01:30 in Kolkata (UTC+5:30) is still 22 Nov in Los Angeles (UTC-8).
  const now = new Date('2026-11-22T20:00:00Z');
  const orders = [
    order('2026-11-22T19:00:00Z', 1000), // 00:30 on the 23rd in Kolkata; 11:00 on the 22nd in Los Angeles
    order('2026-11-22T10:00:00Z', 2000, 'delivered'), // 15:30 on the 22nd in Kolkata; 02:00 on the 22nd in LA
    order('2026-11-22T18:00:00Z', 500, 'declined'), // 23:30 on the 22nd in Kolkata
    order('2026-11-21T23:00:00Z', 700), // 15:00 on the 21st in LA
  ];

  it('counts by the day in the time zone on the east of UTC', () => {
    expect(todaySummary(orders, now, 'Asia/Kolkata')).toEqual({ count: 1, takingsCents: 1000 });
  });

  it('counts by the day in the time zone on the west of UTC, leaving declined orders out of the takings', () => {
    expect(todaySummary(orders, now, 'America/Los_Angeles')).toEqual({ count: 3, takingsCents: 3000 });
  });

  it('is zero on a day without orders', () => {
    expect(todaySummary(orders, new Date('2026-12-25T12:00:00Z'), 'UTC')).toEqual({
      count: 0,
      takingsCents: 0,
    });
  });
});
