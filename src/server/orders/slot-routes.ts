import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';
import { availability } from '../../shared/opening-hours.js';
import { KitchenSlots, MAX_DAYS_AHEAD } from '../../shared/ordering.js';
import { kitchenSlots } from '../../shared/slots.js';
import { orderingColumns, toOrdering } from '../data/ordering-queries.js';
import { kitchens } from '../db/schema.js';
import { notFound } from '../lib/errors.js';
import { slotCounts } from './slot-bookings.js';

const DAY_MS = 24 * 60 * 60_000;

/** When a kitchen's order can be for: 'As soon as possible' now, or one of its slots ahead (a plain GET, re-asked). */
export const slotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens/:uid/slots',
    {
      config: {
        doc: {
          summary:
            "When an order at a kitchen can be for: delivery or pickup, 'As soon as possible' now, and its time slots ahead with the places left",
          errors: { 404: 'No such kitchen, or it is suspended' },
        },
      },
      schema: { params: KitchenParams, response: { 200: KitchenSlots } },
    },
    async (request, reply) => {
      const answer = await kitchenSlotsAnswer(app, request.params.uid);
      if (!answer) throw notFound('No kitchen with this id');
      // Suspended by an operator: it takes no order at all (its page says it is unavailable).
      if (answer === 'suspended') throw notFound(KITCHEN_UNAVAILABLE);
      reply.header('cache-control', 'no-store');
      return answer;
    },
  );
};

/**
 * What GET /api/kitchens/:uid/slots answers, now; undefined for no such kitchen, 'suspended' for one an operator
 * suspended (it takes no order).
 */
export async function kitchenSlotsAnswer(
  app: FastifyInstance,
  uid: string,
): Promise<KitchenSlots | 'suspended' | undefined> {
  const now = new Date(app.clock.now());
  // The kitchen and the bookings of every slot it could list (from now to the end of the furthest day ahead: a
  // day is at most 25 hours, and a range may run past midnight), asked at once.
  const [[row], taken] = await Promise.all([
    app.db
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
    slotCounts(app.db, uid, now, new Date(now.getTime() + (MAX_DAYS_AHEAD + 2) * DAY_MS)),
  ]);
  if (!row) return undefined;
  if (row.suspendedAt) return 'suspended';
  const ordering = toOrdering(row);
  const kitchen = { hours: row.hours, timeZone: row.timeZone, ordering };
  const open = availability(
    {
      hours: row.hours,
      timeZone: row.timeZone,
      pausedAt: row.pausedAt?.toISOString() ?? null,
      pausedUntil: row.pausedUntil?.toISOString() ?? null,
    },
    now,
  ).open;
  return {
    offersDelivery: ordering.offersDelivery,
    offersPickup: ordering.offersPickup,
    takesAsap: ordering.takesAsap,
    slotMinutes: ordering.slotMinutes,
    priorNoticeMinutes: ordering.priorNoticeMinutes,
    daysAhead: ordering.daysAhead,
    minimumOrderCents: ordering.minimumOrderCents,
    timeZone: row.timeZone,
    asap: ordering.takesAsap && open,
    slots: kitchenSlots(kitchen, now, taken),
  };
}
