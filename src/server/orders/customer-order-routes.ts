import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CustomerCancelInput,
  CustomerOrder,
  OrderAgain,
  OrderParams,
  PlaceOrderInput,
} from '../../shared/orders.js';
import { requireUser } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import { limits } from '../identity/rate-limit.js';
import { serveTopic } from '../live/live-route.js';
import { findOrderAgain } from './order-again.js';
import { moveOrder } from './order-moves.js';
import { findCustomerOrder } from '../data/order-queries.js';
import { customerOrdersTopic, customerOrderTopic } from './order-topics.js';
import { placeOrder } from './place-order.js';

const noSuchOrder = () => notFound('You have no order with this id');

/** The customer's side of orders: place one, watch it live, cancel it early, see past ones, order again. */
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
  app.get('/api/orders', serveTopic(customerOrdersTopic));

  app.post(
    '/api/orders/:id/cancel',
    { schema: { params: OrderParams, body: CustomerCancelInput, response: { 200: CustomerOrder } } },
    async (request) => {
      const customer = await requireUser(request, 'customer');
      const mover = { role: 'customer' as const, userId: customer.id };
      const moved = await moveOrder(app, mover, request.params.id, { move: 'cancel', ...request.body });
      const order = moved && (await findCustomerOrder(app.db, customer.id, moved));
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.get(
    '/api/orders/:id/again',
    { schema: { params: OrderParams, response: { 200: OrderAgain } } },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const again = await findOrderAgain(app.db, customer.id, request.params.id);
      if (!again) throw noSuchOrder();
      return reply.header('cache-control', 'no-store').send(again);
    },
  );
};
