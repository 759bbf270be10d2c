import type { KitchenOrder } from '../../shared/orders.js';

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
const dayIn = (at: Date, timeZone: string | undefined) =>
  at.toLocaleDateString('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * Today's orders and takings for the line above the kitchen's orders: every order placed today (in `timeZone`,
 * the cook's), and the total of those not declined or cancelled.
 */
export function todaySummary(
  orders: readonly KitchenOrder[],
  now: Date,
  timeZone?: string,
): { count: number; takingsCents: number } {
  const today = dayIn(now, timeZone);
  const todays = orders.filter((o) => dayIn(new Date(o.createdAt), timeZone) === today);
  const taken = todays.filter((o) => o.state !== 'declined' && o.state !== 'cancelled');
  return { count: todays.length, takingsCents: taken.reduce((sum, o) => sum + o.totalCents, 0) };
}
