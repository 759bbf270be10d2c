import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderParams } from '../../shared/orders.js';
import { TipInput, TipStarted } from '../../shared/tips.js';
import { requireUser } from '../identity/sessions.js';
import { startTip } from './order-tips.js';

/** 'Tip the cook' after delivery: a card payment of its own, the whole of it the kitchen's (ADR 25). */
export const tipRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders/:id/tips',
    {
      config: {
        doc: {
          summary:
            "Tip the cook of one's delivered or collected order, within 48 hours: opens a payment page of its own (no platform fee on it); idempotent by requestKey",
          cookie: 'customer',
          tags: ['orders'],
          errors: {
            400: 'An amount that is not a whole number of cents from 50 to 50000 (field amountCents); a bad requestKey',
            404: 'No such order of yours; card payments are off',
            409: 'TIP_CLOSED: not delivered, or delivered more than 48 hours ago; TIPS_REFUSED: the kitchen does not take tips',
            503: 'The payment provider did not answer (nothing was charged)',
          },
        },
      },
      schema: { params: OrderParams, body: TipInput, response: { 201: TipStarted } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      return reply.status(201).send(await startTip(app, customer, request.params.id, request.body));
    },
  );
};
