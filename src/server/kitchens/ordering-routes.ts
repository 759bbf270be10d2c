import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderingSettings, OrderingSettingsInput } from '../../shared/ordering.js';
import { kitchens } from '../db/schema.js';
import { findOrdering, orderingColumns, toOrdering } from '../data/ordering-queries.js';
import { noKitchen, requireKitchen } from '../data/require-kitchen.js';
import { mutate } from '../events/mutate.js';

/**
 * 'How you take orders' on /MenuDashboard: the cook reads and sets their kitchen's ordering options (delivery,
 * pickup and where, 'As soon as possible', slots for later, a minimum order), all checked together.
 */
export const orderingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen/ordering',
    {
      config: {
        doc: {
          summary: "The cook's ordering options ('How you take orders')",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { response: { 200: OrderingSettings } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      reply.header('cache-control', 'no-store');
      const ordering = await findOrdering(app.db, kitchen.uid);
      if (!ordering) throw noKitchen();
      return ordering;
    },
  );

  app.put(
    '/api/kitchen/ordering',
    {
      config: {
        doc: {
          summary:
            'Set the ordering options: delivery and/or pickup, as soon as possible and/or slots, a minimum order',
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { body: OrderingSettingsInput, response: { 200: OrderingSettings } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const input = request.body;
      const saved = await mutate(app, async (tx, record) => {
        const [row] = await tx
          .update(kitchens)
          .set({
            offersDelivery: input.offersDelivery,
            offersPickup: input.offersPickup,
            pickupAddress: input.pickupAddress,
            pickupInstructions: input.pickupInstructions,
            takesAsap: input.takesAsap,
            slotMinutes: input.slotMinutes,
            priorNoticeMinutes: input.priorNoticeMinutes,
            daysAhead: input.daysAhead,
            sameDayCutoff: input.sameDayCutoff,
            ordersPerSlot: input.ordersPerSlot,
            minimumOrderCents: input.minimumOrderCents,
          })
          .where(eq(kitchens.ownerId, kitchen.uid))
          .returning(orderingColumns);
        if (row) record({ type: 'kitchen.ordering-changed', kitchenUid: kitchen.uid });
        return row && toOrdering(row);
      });
      // Its kitchen went (the account deleted) between the check and the write.
      if (!saved) throw noKitchen();
      return saved;
    },
  );
};
