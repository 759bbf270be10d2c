import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CustomerOrder, PlaceOrderInput } from '../../shared/orders.js';
import { requireUser } from '../auth/sessions.js';
import { limits } from '../lib/rate-limit.js';
import { sendLive } from '../live/live-route.js';
import { topics } from '../live/topics.js';
import { findOpenOrder } from './customer-order-queries.js';
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

  app.get('/api/orders/mine', async (request, reply) => {
    const customer = await requireUser(request, 'customer');
    await sendLive(request, reply, app.hub, topics.customerOrder(customer.id), () =>
      findOpenOrder(app.db, customer.id),
    );
  });
};
