import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenOrder, OrderParams, UpdateOrderStatusInput } from '../../shared/orders.js';
import { requireKitchen } from '../kitchens/require-kitchen.js';
import { notFound } from '../lib/errors.js';
import { sendLive } from '../live/live-route.js';
import { topics } from '../live/topics.js';
import { listKitchenOrders } from './kitchen-order-queries.js';
import { closeOrder, setOrderStatus } from './kitchen-order-service.js';

const noSuchOrder = () => notFound('Your kitchen has no open order with this id');

/** The owner's live list of their kitchen's open orders, and the two things they do to one. */
export const kitchenOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchen/orders', async (request, reply) => {
    const { kitchen } = await requireKitchen(request);
    const uid = kitchen.uid;
    await sendLive(request, reply, app.hub, topics.kitchenOrders(uid), () => listKitchenOrders(app.db, uid));
  });

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
