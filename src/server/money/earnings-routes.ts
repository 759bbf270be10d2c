import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NO_KITCHEN } from '../../shared/kitchens.js';
import { Earnings, EarningsQuery } from '../../shared/payments.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { earningsCsv, earningsFileName } from './earnings-csv.js';
import { earningsRange, kitchenEarnings } from './earnings-queries.js';

const ERRORS = { 404: `${NO_KITCHEN}: the owner has not registered a kitchen yet` };

/** The signed-in cook's earnings over the days asked (`?from=&to=`, the kitchen's own calendar). */
async function earningsOf(app: FastifyInstance, request: FastifyRequest, query: EarningsQuery) {
  const { kitchen } = await requireKitchen(request);
  const range = earningsRange(query, kitchen.timeZone, new Date(app.clock.now()));
  return kitchenEarnings(app.db, kitchen, range, app.payments.config.currency);
}

/** 'Earnings': what each paid order brought the cook, on the page and as a spreadsheet. */
export const earningsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen/earnings',
    {
      config: {
        doc: {
          summary:
            "The cook's paid orders (card captured, cash delivered) with fees, refunds and net, and totals per day and month in the kitchen's time zone",
          cookie: 'kitchen',
          tags: ['money'],
          errors: ERRORS,
        },
      },
      schema: { querystring: EarningsQuery, response: { 200: Earnings } },
    },
    async (request, reply) => {
      const earnings = await earningsOf(app, request, request.query);
      return reply.header('cache-control', 'no-store').send(earnings);
    },
  );

  app.get(
    '/api/kitchen/earnings.csv',
    {
      config: {
        doc: {
          summary: "The cook's paid orders as a CSV file attachment (the same lines and days as the page)",
          cookie: 'kitchen',
          tags: ['money'],
          responses: { 200: { description: 'A CSV file, a header row first', type: 'text/csv' } },
          errors: ERRORS,
        },
      },
      schema: { querystring: EarningsQuery },
    },
    async (request, reply) => {
      const earnings = await earningsOf(app, request, request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${earningsFileName(earnings)}"`)
        .send(earningsCsv(earnings, app.i18n.translator(request.locale)));
    },
  );
};
