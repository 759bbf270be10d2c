import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenOrder, OrderMoveInput, OrderParams, UpdateOrderStatusInput } from '../../shared/orders.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { notFound } from '../lib/errors.js';
import { serveTopic } from '../live/live-route.js';
import { closeOrder, setOrderStatus } from './kitchen-order-service.js';
import { moveOrder } from './order-moves.js';
import { findKitchenOrder } from '../data/order-queries.js';
import { kitchenOrdersTopic, kitchenPastOrdersTopic } from './order-topics.js';

const noSuchOrder = () => notFound('Your kitchen has no order with this id on its list');

/**
 * The owner's live lists of their kitchen's orders ('Active' and 'Past'), the lifecycle moves, and the spec's
 * Update (free-text status) and Delete (off the list).
 */
export const kitchenOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchen/orders', serveTopic(kitchenOrdersTopic));
  app.get('/api/kitchen/orders/past', serveTopic(kitchenPastOrdersTopic));

  app.post(
    '/api/kitchen/orders/:id/moves',
    { schema: { params: OrderParams, body: OrderMoveInput, response: { 200: KitchenOrder } } },
    async (request) => {
      const { user, kitchen } = await requireKitchen(request);
      const mover = { role: 'kitchen' as const, userId: user.id, kitchenUid: kitchen.uid };
      const moved = await moveOrder(app, mover, request.params.id, request.body);
      const order = moved && (await findKitchenOrder(app.db, kitchen.uid, moved));
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.patch(
    '/api/kitchen/orders/:id',
    { schema: { params: OrderParams, body: UpdateOrderStatusInput, response: { 200: KitchenOrder } } },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const order = await setOrderStatus(app, kitchen.uid, request.params.id, request.body.status);
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.delete('/api/kitchen/orders/:id', { schema: { params: OrderParams } }, async (request, reply) => {
    const { kitchen } = await requireKitchen(request);
    if (!(await closeOrder(app, kitchen.uid, request.params.id))) throw noSuchOrder();
    return reply.status(204).send();
  });
};
