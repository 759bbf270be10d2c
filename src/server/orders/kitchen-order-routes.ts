import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenOrder, OrderParams, UpdateOrderStatusInput } from '../../shared/orders.js';
import { requireKitchen } from '../kitchens/require-kitchen.js';
import { notFound } from '../lib/errors.js';
import { serveTopic } from '../live/live-route.js';
import { closeOrder, setOrderStatus } from './kitchen-order-service.js';
import { kitchenOrdersTopic } from './order-topics.js';

const noSuchOrder = () => notFound('Your kitchen has no open order with this id');

/** The owner's live list of their kitchen's open orders, and the two things they do to one. */
export const kitchenOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchen/orders', serveTopic(kitchenOrdersTopic));

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
