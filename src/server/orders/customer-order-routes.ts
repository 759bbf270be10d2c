import { CustomerOrderList } from '../../shared/orders.js';
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
import { catchUpWithProvider } from './order-payments.js';

const noSuchOrder = () => notFound('You have no order with this id');

/** The customer's side of orders: place one, watch it live, cancel it early, see past ones, order again. */
export const customerOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders',
    {
      config: {
        doc: {
          summary: 'Place an order (idempotent by its key: 200 for a repeat, 201 when new)',
          cookie: 'customer',
          errors: {
            404: 'No such kitchen or dish',
            409: 'An order is already open; the kitchen is closed or paused, a dish sold out, the slot full or not to be chosen, delivery or pickup not offered, or the dishes under its minimum',
            422: 'Idempotency key reused',
          },
        },
        rateLimit: limits.orders,
      },
      schema: { body: PlaceOrderInput, response: { 200: CustomerOrder, 201: CustomerOrder } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const { order, created } = await placeOrder(
        app,
        customer,
        request.body,
        app.i18n.translator(request.locale),
      );
      return reply.status(created ? 201 : 200).send(order);
    },
  );

  app.get(
    '/api/orders/mine',
    {
      config: {
        doc: {
          summary: "The customer's order in progress, or else their latest, or null",
          cookie: 'customer',
          stream: true,
          responses: { 200: CustomerOrder.nullable() },
        },
      },
    },
    serveTopic(customerOrderTopic),
  );
  app.get(
    '/api/orders',
    {
      config: {
        doc: {
          summary: "The customer's orders, newest first (the latest 100)",
          cookie: 'customer',
          stream: true,
          responses: { 200: CustomerOrderList },
        },
      },
    },
    serveTopic(customerOrdersTopic),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      config: {
        doc: {
          summary: 'Cancel one’s order while the kitchen has not accepted it',
          cookie: 'customer',
          errors: { 404: 'No such order of yours', 409: 'Not possible in the order’s state (INVALID_MOVE)' },
        },
      },
      schema: { params: OrderParams, body: CustomerCancelInput, response: { 200: CustomerOrder } },
    },
    async (request) => {
      const customer = await requireUser(request, 'customer');
      const mover = { role: 'customer' as const, userId: customer.id };
      const moved = await moveOrder(
        app,
        mover,
        request.params.id,
        { move: 'cancel', ...request.body },
        undefined,
        app.i18n.translator(request.locale),
      );
      const order = moved && (await findCustomerOrder(app.db, customer.id, moved));
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.post(
    '/api/orders/:id/payment/check',
    {
      config: {
        doc: {
          summary:
            'Back from the payment page: ask the provider where the payment stands (a lost event is caught up)',
          cookie: 'customer',
          errors: { 404: 'No such order of yours' },
        },
        rateLimit: limits.orders,
      },
      schema: { params: OrderParams, response: { 200: CustomerOrder } },
    },
    async (request) => {
      const customer = await requireUser(request, 'customer');
      const mine = await findCustomerOrder(app.db, customer.id, request.params.id);
      if (!mine) throw noSuchOrder();
      try {
        await catchUpWithProvider(app, mine.id);
      } catch (error) {
        // The provider's event still comes; the page watches the order.
        request.log.warn({ err: error, orderId: mine.id }, 'could not ask the provider about a payment');
      }
      const order = await findCustomerOrder(app.db, customer.id, mine.id);
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.get(
    '/api/orders/:id/again',
    {
      config: {
        doc: {
          summary: "One's order's dishes still on the menu, at today's prices, and those gone",
          cookie: 'customer',
          errors: { 404: 'No such order of yours' },
        },
      },
      schema: { params: OrderParams, response: { 200: OrderAgain } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const again = await findOrderAgain(app.db, customer.id, request.params.id);
      if (!again) throw noSuchOrder();
      return reply.header('cache-control', 'no-store').send(again);
    },
  );
};
