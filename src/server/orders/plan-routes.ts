import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CustomerPlan,
  KitchenPlans,
  OperatorPlacements,
  PlanChange,
  PlanInput,
  PlanParams,
  PlanSettings,
} from '../../shared/plans.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { requireOperator, requireUser } from '../identity/sessions.js';
import { KitchenParams } from '../../shared/kitchens.js';
import { OrderParams } from '../../shared/orders.js';
import { notFound } from '../lib/errors.js';
import {
  changePlan,
  createPlan,
  customerPlans,
  kitchenPlans,
  operatorPlacements,
  planFromOrder,
  planOffer,
  savePlanSettings,
} from './plans.js';

/** Weekly plans (ADR 26): the customer's 'Every week' and 'Your plans'; the cook's 'Plans' and its settings. */
export const planRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/plans',
    {
      config: {
        doc: {
          summary: "Start a weekly plan ('Every week') on a pre-order's day, slot and dishes",
          cookie: 'customer',
          errors: {
            409: 'The kitchen offers no plans, the slot cannot be chosen, or the plan cannot be paid as asked',
          },
        },
      },
      schema: { body: PlanInput, response: { 201: CustomerPlan } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const plan = await createPlan(app, customer, request.body, app.i18n.translator(request.locale));
      return reply.status(201).send(plan);
    },
  );

  app.post(
    '/api/orders/:id/every-week',
    {
      config: {
        doc: {
          summary:
            "'Every week' for a pre-order the customer placed: a weekly plan of its day, slot and dishes",
          cookie: 'customer',
          errors: {
            404: 'No such order of yours',
            409: 'Not a pre-order, the kitchen offers no plans, or the plan cannot be paid as the order was',
          },
        },
      },
      schema: { params: OrderParams, response: { 201: CustomerPlan } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const plan = await planFromOrder(app, customer, request.params.id, app.i18n.translator(request.locale));
      return reply.status(201).send(plan);
    },
  );

  app.get(
    '/api/kitchens/:uid/plans',
    {
      config: {
        doc: {
          summary: 'Whether a kitchen offers weekly plans, and its cut-off (hours before the slot)',
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenParams, response: { 200: PlanSettings } },
    },
    async (request) => {
      const offer = await planOffer(app, request.params.uid);
      if (!offer) throw notFound('No kitchen with this id');
      return offer;
    },
  );

  app.get(
    '/api/plans',
    {
      config: {
        doc: {
          summary: "'Your plans': the customer's weekly plans, each with its next weeks and their cut-offs",
          cookie: 'customer',
        },
      },
      schema: { response: { 200: z.array(CustomerPlan) } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      reply.header('cache-control', 'no-store');
      return customerPlans(app, customer.id, undefined, app.i18n.translator(request.locale));
    },
  );

  app.patch(
    '/api/plans/:id',
    {
      config: {
        doc: {
          summary:
            'Skip a week of a plan (or take the skip back), pause it until a date, resume or cancel it; change its dishes for one week or for good, let the cook choose within a budget, or open a page to save (or change) its card',
          cookie: 'customer',
          errors: {
            404: 'No such plan of yours',
            409: "The week's cut-off has passed, the plan is cancelled, the kitchen does not allow the cook's choice, or the plan is not paid by card",
            503: 'The payment provider did not answer (a card page)',
          },
        },
      },
      schema: { params: PlanParams, body: PlanChange, response: { 200: CustomerPlan } },
    },
    async (request) => {
      const customer = await requireUser(request, 'customer');
      return changePlan(
        app,
        customer.id,
        request.params.id,
        request.body,
        app.i18n.translator(request.locale),
      );
    },
  );

  app.get(
    '/api/operator/plans',
    {
      config: {
        doc: {
          summary:
            "The operator's 'Plans': the weekly plans' placements of the next 24 hours (and any overdue), and the weeks that failed in the last 7 days with why",
          cookie: 'operator',
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
        },
      },
      schema: { response: { 200: OperatorPlacements } },
    },
    async (request, reply) => {
      await requireOperator(request);
      reply.header('cache-control', 'no-store');
      return operatorPlacements(app, app.i18n.translator(request.locale));
    },
  );

  app.get(
    '/api/kitchen/plans',
    {
      config: {
        doc: {
          summary:
            "The cook's 'Plans': planned meals per week and slot, the dishes to cook, and the settings",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { response: { 200: KitchenPlans } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      reply.header('cache-control', 'no-store');
      return kitchenPlans(app, kitchen.uid);
    },
  );

  app.put(
    '/api/kitchen/plans/settings',
    {
      config: {
        doc: {
          summary: "'Offer weekly plans' and the cut-off (hours before each week's slot)",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { body: PlanSettings, response: { 200: PlanSettings } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      return savePlanSettings(app, kitchen.uid, request.body);
    },
  );
};
