import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreditAccount } from '../../shared/credit.js';
import { requireUser } from '../identity/sessions.js';
import { creditAccountOf } from '../payments/credit.js';

/** 'Store credit': the signed-in customer's balance and its movements (ADR 29). */
export const creditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/account/credit',
    {
      config: {
        doc: {
          summary:
            "Store credit: the signed-in customer's balance, which spends on any kitchen's order, and its history",
          tags: ['your data'],
          cookie: 'customer',
        },
      },
      schema: { response: { 200: CreditAccount } },
    },
    async (request, reply) => {
      const user = await requireUser(request, 'customer');
      return reply
        .header('cache-control', 'no-store')
        .send(await creditAccountOf(app.db, user.id, app.payments.config.currency));
    },
  );
};
