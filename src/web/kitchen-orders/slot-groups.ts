import { isEnded } from '../../shared/order-states.js';
import type { OrderSlot } from '../../shared/ordering.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { slotLabel } from '../../shared/slots.js';
import { msg, t } from '../i18n.js';

/** The kitchen's open orders of one slot, or those for 'As soon as possible'. */
export interface OrderGroup {
  /** 'asap', or the slot's start (ms since the epoch, as text). */
  key: string;
  /** 'As soon as possible', or the slot in the kitchen's time: 'Tomorrow 6:00–6:30 PM'. */
  heading: string;
  /** Null for 'As soon as possible'. */
  slot: OrderSlot | null;
  /** In the order given (newest first). */
  orders: KitchenOrder[];
  /** What to cook for them: 'Biryani × 7', 'Dal × 2', the most first, then by name. */
  prep: string[];
}

export const ASAP_HEADING = msg('As soon as possible');

/** Each dish of the orders counted across them ('Biryani × 7'), the most first, then by name; ended ones left out. */
export function prepList(orders: readonly KitchenOrder[]): string[] {
  const counts = new Map<string, number>();
  for (const order of orders) {
    if (isEnded(order.state)) continue;
    for (const { item } of order.items) counts.set(item, (counts.get(item) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .map(([item, n]) => t('{item} × {quantity}', { item, quantity: n }));
}

/**
 * The kitchen's orders by when they are for: those for 'As soon as possible' first (they are for now), then one
 * group per slot in time order, headed by the slot in the kitchen's time zone as seen `now` ('Today 6:00–6:30 PM').
 */
export function slotGroups(orders: readonly KitchenOrder[], timeZone: string, now: Date): OrderGroup[] {
  const asap: KitchenOrder[] = [];
  const bySlot = new Map<number, { slot: OrderSlot; orders: KitchenOrder[] }>();
  for (const order of orders) {
    if (!order.slot) {
      asap.push(order);
      continue;
    }
    const start = Date.parse(order.slot.start);
    const group = bySlot.get(start);
    if (group) group.orders.push(order);
    else bySlot.set(start, { slot: order.slot, orders: [order] });
  }
  const groups: OrderGroup[] = [];
  if (asap.length > 0)
    groups.push({ key: 'asap', heading: ASAP_HEADING, slot: null, orders: asap, prep: prepList(asap) });
  for (const [start, group] of [...bySlot].sort(([a], [b]) => a - b))
    groups.push({
      key: String(start),
      heading: slotLabel(group.slot, timeZone, now),
      slot: group.slot,
      orders: group.orders,
      prep: prepList(group.orders),
    });
  return groups;
}

/** Whether any order is for a slot: only then are the orders shown by when they are for. */
export const hasPreOrders = (orders: readonly KitchenOrder[] | undefined) =>
  orders?.some((order) => order.slot !== null) ?? false;
