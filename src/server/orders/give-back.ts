import type { DbOrTx } from '../db/database.js';
import { givePortionsBack } from './portions.js';
import { giveSlotBack } from './slot-bookings.js';

/**
 * What an order that ended early (declined, cancelled, never paid) took gives back, in its transaction: its dishes'
 * counted portions to their day, and its place in a pre-order's slot. Whether portions were given back.
 */
export async function giveBackWhatItTook(
  tx: DbOrTx,
  order: { id: string; kitchenId: string | null; portionsDay: string | null; slotStart: Date | null },
): Promise<boolean> {
  if (order.slotStart !== null && order.kitchenId !== null)
    await giveSlotBack(tx, order.kitchenId, order.slotStart);
  if (order.portionsDay === null) return false;
  await givePortionsBack(tx, order.id, order.portionsDay);
  return true;
}
