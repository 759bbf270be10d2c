import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CustomerOrder, PlaceOrderInput } from '../../shared/orders.js';
import { requireUser } from '../auth/sessions.js';
import { limits } from '../lib/rate-limit.js';
import { serveTopic } from '../live/live-route.js';
import { customerOrderTopic } from './order-topics.js';
import { placeOrder } from './place-order.js';

/** The customer's side of orders: place one, and watch one's own open order live. */
export const customerOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders',
    {
      config: { rateLimit: limits.orders },
      schema: { body: PlaceOrderInput, response: { 200: CustomerOrder, 201: CustomerOrder } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const { order, created } = await placeOrder(app, customer, request.body);
      return reply.status(created ? 201 : 200).send(order);
    },
  );

  app.get('/api/orders/mine', serveTopic(customerOrderTopic));
};
