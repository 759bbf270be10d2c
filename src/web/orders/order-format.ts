import type { OrderLine } from '../../shared/orders.js';

/** An order's dishes with counts, in the order first added: 'Dal × 2', 'Rice'. */
export function itemCounts(lines: readonly OrderLine[]): string[] {
  const counts = new Map<string, number>();
  for (const { item } of lines) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, n]) => (n > 1 ? `${item} × ${n}` : item));
}

/** A time of day as people read it here, in the browser's time zone: '7:45 PM'. */
export const timeOfDay = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });

/** A date and time for a list of past orders: 'Nov 23, 7:45 PM'. */
export const dateAndTime = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  });
