import type { DbOrTx } from '../db/database.js';
import { givePortionsBack } from './portions.js';
import { giveSlotBack } from './slot-bookings.js';
import { giveMealsBack } from './meal-caps.js';
import { giveCodeBack } from '../payments/promo-codes.js';

/**
 * What an order that ended early (declined, cancelled, never paid) took gives back, in its transaction: its dishes'
 * counted portions to their day, its place in a pre-order's slot, and its meals and gross to its caps' counts. Whether portions were given back.
 */
export async function giveBackWhatItTook(
  tx: DbOrTx,
  order: {
    id: string;
    kitchenId: string | null;
    portionsDay: string | null;
    slotStart: Date | null;
    capsDay: string | null;
    capsMeals: number;
    itemsCents: number;
  },
): Promise<boolean> {
  if (order.slotStart !== null && order.kitchenId !== null)
    await giveSlotBack(tx, order.kitchenId, order.slotStart);
  await giveMealsBack(tx, order);
  // Its promotion code's use counts no more (ADR 30).
  await giveCodeBack(tx, order.id);
  if (order.portionsDay === null) return false;
  await givePortionsBack(tx, order.id, order.portionsDay);
  return true;
}
