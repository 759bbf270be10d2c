import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MoneyOverview } from '../../shared/payments.js';
import { requireOperator } from '../identity/sessions.js';
import { moneyOverview } from './money-overview.js';

/** The operator's 'Money' tab: the ledger's totals, the reconciliation's differences, the latest refunds. */
export const moneyOverviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/operator/money',
    {
      config: {
        doc: {
          summary:
            "The operator's 'Money' tab: the ledger's card totals, the differences the daily reconciliation with the provider found (latest 100), the latest refunds (50), and when it last ran",
          cookie: 'operator',
          tags: ['money'],
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
        },
      },
      schema: { response: { 200: MoneyOverview } },
    },
    async (request, reply) => {
      await requireOperator(request);
      return reply.header('cache-control', 'no-store').send(await moneyOverview(app));
    },
  );
};
