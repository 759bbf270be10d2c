import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderConversation, OrderMessage, OrderMessageInput } from '../../shared/order-messages.js';
import { OrderParams } from '../../shared/orders.js';
import { serveTopic } from '../live/live-route.js';
import { postOrderMessage } from './order-message-service.js';
import { orderMessagesTopic } from './order-messages-topic.js';

/**
 * An order's conversation: its customer and its cook write to each other, from placing it until a week after it
 * ended; operators may read it (for reports), never write.
 */
export const orderMessageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/orders/:id/messages',
    {
      config: {
        doc: {
          summary:
            "An order's conversation between its customer and its kitchen (the latest 200, oldest first), and whether writing is still open; for the two of them and operators",
          cookie: 'signed-in',
          stream: true,
          responses: { 200: OrderConversation },
          errors: { 404: 'No such order of yours' },
        },
      },
      schema: { params: OrderParams },
    },
    serveTopic(orderMessagesTopic),
  );

  app.post(
    '/api/orders/:id/messages',
    {
      config: {
        doc: {
          summary:
            "Write to the other side of one's order, as its customer or its cook (until a week after it ended; 5 messages in 10 s)",
          cookie: 'any',
          errors: {
            404: 'No such order of yours',
            409: 'Messages are closed for this order (it ended more than a week ago, or was never paid)',
          },
        },
      },
      schema: { params: OrderParams, body: OrderMessageInput, response: { 201: OrderMessage } },
    },
    async (request, reply) => {
      const message = await postOrderMessage(app, request, request.params.id, request.body);
      return reply.status(201).send(message);
    },
  );
};
