import { empty } from '../lib/route-doc.js';
import { KitchenOrderList } from '../../shared/orders.js';
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
  app.get(
    '/api/kitchen/orders',
    {
      config: {
        doc: {
          summary: "The owner's kitchen's orders in progress ('Active')",
          cookie: 'kitchen',
          stream: true,
          responses: { 200: KitchenOrderList },
        },
      },
    },
    serveTopic(kitchenOrdersTopic),
  );
  app.get(
    '/api/kitchen/orders/past',
    {
      config: {
        doc: {
          summary: "The owner's kitchen's ended and deleted orders ('Past'), the latest 100",
          cookie: 'kitchen',
          stream: true,
          responses: { 200: KitchenOrderList },
        },
      },
    },
    serveTopic(kitchenPastOrdersTopic),
  );

  app.post(
    '/api/kitchen/orders/:id/moves',
    {
      config: {
        doc: {
          summary:
            "Move an order of one's kitchen along its lifecycle (accept, decline, prepare, dispatch, deliver, cancel)",
          cookie: 'kitchen',
          errors: {
            404: 'No such order at your kitchen',
            409: 'Not possible in the order’s state (INVALID_MOVE)',
          },
        },
      },
      schema: { params: OrderParams, body: OrderMoveInput, response: { 200: KitchenOrder } },
    },
    async (request) => {
      const { user, kitchen } = await requireKitchen(request);
      const mover = { role: 'kitchen' as const, userId: user.id, kitchenUid: kitchen.uid };
      const moved = await moveOrder(
        app,
        mover,
        request.params.id,
        request.body,
        undefined,
        app.i18n.translator(request.locale),
      );
      const order = moved && (await findKitchenOrder(app.db, kitchen.uid, moved));
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.patch(
    '/api/kitchen/orders/:id',
    {
      config: {
        doc: {
          summary: 'Set the free-text status of an order of one’s kitchen (its state stays)',
          cookie: 'kitchen',
          errors: { 404: 'No such order at your kitchen' },
        },
      },
      schema: { params: OrderParams, body: UpdateOrderStatusInput, response: { 200: KitchenOrder } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const order = await setOrderStatus(app, kitchen.uid, request.params.id, request.body.status);
      if (!order) throw noSuchOrder();
      return order;
    },
  );

  app.delete(
    '/api/kitchen/orders/:id',
    {
      config: {
        doc: {
          summary: 'Take an order off one’s kitchen’s list (kept, in Past)',
          cookie: 'kitchen',
          responses: { 204: empty },
          errors: { 404: 'No such order at your kitchen' },
        },
      },
      schema: { params: OrderParams },
    },
    async (request, reply) => {
      const { kitchen, user } = await requireKitchen(request);
      if (!(await closeOrder(app, { uid: kitchen.uid, userId: user.id }, request.params.id)))
        throw noSuchOrder();
      return reply.status(204).send();
    },
  );
};
