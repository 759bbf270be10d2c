import { eq } from 'drizzle-orm';
import { KitchenParams } from '../../shared/kitchens.js';
import { availability, DEFAULT_HOURS, nextChange } from '../../shared/opening-hours.js';
import { MAX_DAYS_AHEAD, type KitchenSlots } from '../../shared/ordering.js';
import { kitchenSlots, slotsChangeAt } from '../../shared/slots.js';
import { orderingColumns, toOrdering } from '../data/ordering-queries.js';
import type { Db } from '../db/database.js';
import { kitchens } from '../db/schema.js';
import { defineTopic } from '../live/topic.js';
import { slotCounts } from './slot-bookings.js';

const DAY_MS = 24 * 60 * 60_000;
/** Computed again after at most this long whatever happens (as a rendered page is: src/server/pages/page-routes.ts). */
const MAX_ANSWER_AGE_MS = 60_000;

/** A kitchen's slots as the hub keeps them: the answer, and until when it holds (bookings and settings aside). */
export type SlotsState =
  | { state: 'ok'; answer: KitchenSlots; from: number; until: number }
  | { state: 'missing' }
  | { state: 'suspended' };

/**
 * A kitchen's slots, computed once per change of the kitchen or its orders (src/server/reactions.ts names this
 * topic for both) and once more when time moves them (`until`), not per request: the extreme kitchen of the bench
 * lays out and counts about 570 slots. Not a stream: the order form re-asks it.
 */
export const slotsTopic = defineTopic<string, SlotsState>({
  key: (uid) => `slots:${uid}`,
  load: (db, uid, clock) => loadSlots(db, uid, new Date(clock.now())),
  access: async (request) => ({ params: KitchenParams.parse(request.params).uid }),
});

/** The slots answer at `now`, with the moment it stops holding by time alone. */
async function loadSlots(db: Db, uid: string, now: Date): Promise<SlotsState> {
  // The kitchen and the bookings of every slot it could list (from now to the end of the furthest day ahead: a
  // day is at most 25 hours, and a range may run past midnight), asked at once.
  const [[row], taken] = await Promise.all([
    db
      .select({
        timeZone: kitchens.timeZone,
        hours: kitchens.openingHours,
        pausedAt: kitchens.pausedAt,
        pausedUntil: kitchens.pausedUntil,
        suspendedAt: kitchens.suspendedAt,
        ...orderingColumns,
      })
      .from(kitchens)
      .where(eq(kitchens.ownerId, uid)),
    slotCounts(db, uid, now, new Date(now.getTime() + (MAX_DAYS_AHEAD + 2) * DAY_MS)),
  ]);
  if (!row) return { state: 'missing' };
  if (row.suspendedAt) return { state: 'suspended' };
  const ordering = toOrdering(row);
  const kitchen = { hours: row.hours, timeZone: row.timeZone, ordering };
  const pausedUntil = row.pausedUntil?.toISOString() ?? null;
  const open = availability(
    { hours: row.hours, timeZone: row.timeZone, pausedAt: row.pausedAt?.toISOString() ?? null, pausedUntil },
    now,
  ).open;
  const slots = kitchenSlots(kitchen, now, taken);
  // 'As soon as possible' follows opening and closing, and the end of a pause; the slots follow the clock.
  let until = Math.min(now.getTime() + MAX_ANSWER_AGE_MS, slotsChangeAt(kitchen, now, slots));
  const change = nextChange(row.hours ?? DEFAULT_HOURS, row.timeZone, now);
  if (change) until = Math.min(until, change.getTime());
  if (row.pausedUntil && row.pausedUntil.getTime() > now.getTime())
    until = Math.min(until, row.pausedUntil.getTime());
  return {
    state: 'ok',
    from: now.getTime(),
    until,
    answer: {
      offersDelivery: ordering.offersDelivery,
      offersPickup: ordering.offersPickup,
      takesAsap: ordering.takesAsap,
      slotMinutes: ordering.slotMinutes,
      priorNoticeMinutes: ordering.priorNoticeMinutes,
      daysAhead: ordering.daysAhead,
      minimumOrderCents: ordering.minimumOrderCents,
      timeZone: row.timeZone,
      asap: ordering.takesAsap && open,
      slots,
    },
  };
}
