import { eq } from 'drizzle-orm';
import type { OrderingSettings } from '../../shared/ordering.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens } from '../db/schema.js';

/** The columns of a kitchen's ordering options, to select beside others. */
export const orderingColumns = {
  offersDelivery: kitchens.offersDelivery,
  offersPickup: kitchens.offersPickup,
  pickupAddress: kitchens.pickupAddress,
  pickupInstructions: kitchens.pickupInstructions,
  takesAsap: kitchens.takesAsap,
  slotMinutes: kitchens.slotMinutes,
  priorNoticeMinutes: kitchens.priorNoticeMinutes,
  daysAhead: kitchens.daysAhead,
  sameDayCutoff: kitchens.sameDayCutoff,
  ordersPerSlot: kitchens.ordersPerSlot,
  minimumOrderCents: kitchens.minimumOrderCents,
};

/** A kitchen's ordering options from a row holding `orderingColumns`. */
export const toOrdering = (row: OrderingSettings): OrderingSettings => ({
  offersDelivery: row.offersDelivery,
  offersPickup: row.offersPickup,
  pickupAddress: row.pickupAddress,
  pickupInstructions: row.pickupInstructions,
  takesAsap: row.takesAsap,
  slotMinutes: row.slotMinutes,
  priorNoticeMinutes: row.priorNoticeMinutes,
  daysAhead: row.daysAhead,
  sameDayCutoff: row.sameDayCutoff,
  ordersPerSlot: row.ordersPerSlot,
  minimumOrderCents: row.minimumOrderCents,
});

/** A kitchen's ordering options; undefined when there is no such kitchen. */
export async function findOrdering(db: DbOrTx, kitchenUid: string): Promise<OrderingSettings | undefined> {
  const [row] = await db.select(orderingColumns).from(kitchens).where(eq(kitchens.ownerId, kitchenUid));
  return row && toOrdering(row);
}
