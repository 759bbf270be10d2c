import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Insights,
  InsightsCsvQuery,
  InsightsQuery,
  Overview,
  OverviewCsvQuery,
} from '../../shared/insights.js';
import { NO_KITCHEN, type Kitchen } from '../../shared/kitchens.js';
import { KitchenUidParams } from '../../shared/moderation.js';
import { localTime } from '../../shared/opening-hours.js';
import { findKitchen } from '../data/kitchen-queries.js';
import { kitchenPlace } from '../data/kitchen-place.js';
import { kitchenProfile } from '../data/rule-overrides.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { requireOperator } from '../identity/sessions.js';
import { notFound } from '../lib/errors.js';
import { msg } from '../../shared/i18n/translator.js';
import { insightsRange } from './insight-range.js';
import { csvFileName, insightsCsv, overviewCsv } from './insights-csv.js';
import { kitchenInsights, marketplaceOverview } from './insights-queries.js';

const NO_KITCHEN_ERROR = { 404: `${NO_KITCHEN}: the owner has not registered a kitchen yet` };
const NOT_OPERATOR = { 403: 'The email is no longer listed in OPERATOR_EMAILS' };
const CSV = { 200: { description: 'A CSV file, a header row first', type: 'text/csv' } };

async function insightsOf(app: FastifyInstance, kitchen: Kitchen, query: InsightsQuery) {
  const now = new Date(app.clock.now());
  const range = insightsRange(query, kitchen.timeZone, now);
  const today = localTime(now, kitchen.timeZone).date;
  const currency = app.payments.config.currency;
  return kitchenInsights(app.db, kitchen, range, currency, today, await mealCapsOf(app, kitchen.uid));
}

/**
 * The meal caps of the kitchen's place with the operators' overrides (its 'Rules for your kitchen'), or null where it
 * caps no meals.
 */
async function mealCapsOf(app: FastifyInstance, kitchenUid: string) {
  const where = await kitchenPlace(app.db, kitchenUid);
  if (!where) return null;
  const { profile } = await kitchenProfile(
    app.db,
    app.jurisdictions,
    app.payments.config.currency,
    kitchenUid,
    where.place,
  );
  const { mealsPerDay, mealsPerWeek } = profile.rules.caps;
  return mealsPerDay === null && mealsPerWeek === null ? null : { mealsPerDay, mealsPerWeek };
}

/** The operator's days are UTC's; each kitchen's figures are of its own days. */
const overviewOf = (app: FastifyInstance, query: InsightsQuery) =>
  marketplaceOverview(
    app.db,
    insightsRange(query, 'UTC', new Date(app.clock.now())),
    app.payments.config.currency,
  );

/** The cook's 'Insights' and the operator's 'Overview', as JSON and, a chart at a time, as CSV. */
export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen/insights',
    {
      config: {
        doc: {
          summary:
            "The cook's 'Insights' over a period (this week, last 4 weeks, last 12 months, custom) in the kitchen's time zone: sales and orders per day or week beside the previous period, dishes ranked and unsold, orders by weekday and hour, customers, reliability and rating, and meals against the caps of the kitchen's place",
          cookie: 'kitchen',
          tags: ['insights'],
          errors: NO_KITCHEN_ERROR,
        },
      },
      schema: { querystring: InsightsQuery, response: { 200: Insights } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      return reply.header('cache-control', 'no-store').send(await insightsOf(app, kitchen, request.query));
    },
  );

  app.get(
    '/api/kitchen/insights.csv',
    {
      config: {
        doc: {
          summary:
            "One chart of the cook's 'Insights' (chart=sales|dishes|hours|customers|reliability|caps) as a CSV file, same period",
          cookie: 'kitchen',
          tags: ['insights'],
          responses: CSV,
          errors: NO_KITCHEN_ERROR,
        },
      },
      schema: { querystring: InsightsCsvQuery },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const insights = await insightsOf(app, kitchen, request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${csvFileName('insights', request.query.chart, insights.range)}"`,
        )
        .send(insightsCsv(insights, request.query.chart, app.i18n.translator(request.locale)));
    },
  );

  app.get(
    '/api/operator/kitchens/:uid/insights',
    {
      config: {
        doc: {
          summary: "A kitchen's 'Insights' as its cook sees them, for an operator",
          cookie: 'operator',
          tags: ['insights'],
          errors: { ...NOT_OPERATOR, 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenUidParams, querystring: InsightsQuery, response: { 200: Insights } },
    },
    async (request, reply) => {
      await requireOperator(request);
      const kitchen = await findKitchen(app.db, request.params.uid);
      if (!kitchen) throw notFound(msg('No such kitchen'));
      return reply.header('cache-control', 'no-store').send(await insightsOf(app, kitchen, request.query));
    },
  );

  app.get(
    '/api/operator/overview',
    {
      config: {
        doc: {
          summary:
            "The operator's 'Overview' over a period: gross order value, orders, refunds, active kitchens and new customers per day, orders by hour, top kitchens, slow or declining kitchens, open reports",
          cookie: 'operator',
          tags: ['insights'],
          errors: NOT_OPERATOR,
        },
      },
      schema: { querystring: InsightsQuery, response: { 200: Overview } },
    },
    async (request, reply) => {
      await requireOperator(request);
      return reply.header('cache-control', 'no-store').send(await overviewOf(app, request.query));
    },
  );

  app.get(
    '/api/operator/overview.csv',
    {
      config: {
        doc: {
          summary:
            "One chart of the operator's 'Overview' (chart=days|kitchens|hours|slow) as a CSV file, same period",
          cookie: 'operator',
          tags: ['insights'],
          responses: CSV,
          errors: NOT_OPERATOR,
        },
      },
      schema: { querystring: OverviewCsvQuery },
    },
    async (request, reply) => {
      await requireOperator(request);
      const overview = await overviewOf(app, request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${csvFileName('overview', request.query.chart, overview.range)}"`,
        )
        .send(overviewCsv(overview, request.query.chart, app.i18n.translator(request.locale)));
    },
  );
};
