import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderParams } from '../../shared/orders.js';
import {
  CloseProblemInput,
  OperatorProblemReportList,
  ProblemReport,
  ProblemReportInput,
} from '../../shared/problem-reports.js';
import { requireOperator, requireUser } from '../identity/sessions.js';
import { closeProblemReport, fileProblemReport, openProblemReports } from './problem-reports.js';
import { requireKitchen } from '../data/require-kitchen.js';

/**
 * Problems with a delivered order: its customer reports one (within 48 hours); its kitchen sees it on the order,
 * operators on their list of open reports. A refund of the order (the cook's or an operator's) answers it.
 */
export const problemReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/orders/:id/problem',
    {
      config: {
        doc: {
          summary:
            "Report a problem with one's delivered or collected order, within 48 hours: the dishes concerned and how many, a reason, words and up to 3 photos uploaded with POST /api/customer/images ('Made me ill' also files a food-safety complaint for the operators)",
          cookie: 'customer',
          tags: ['orders'],
          errors: {
            400: 'Dishes the order does not have or more of one than it has (field dishes); photos not uploaded by you (field photoIds)',
            404: 'No such order of yours',
            409: 'PROBLEM_REPORT_CLOSED: not delivered, or delivered more than 48 hours ago; PROBLEM_ALREADY_REPORTED: a report of it is still open',
          },
        },
      },
      schema: { params: OrderParams, body: ProblemReportInput, response: { 201: ProblemReport } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const report = await fileProblemReport(app, customer, request.params.id, request.body);
      return reply.status(201).send(report);
    },
  );

  app.post(
    '/api/kitchen/orders/:id/problem/close',
    {
      config: {
        doc: {
          summary:
            "Close the open problem report of one's kitchen's order without a refund, with a reason its customer reads",
          cookie: 'kitchen',
          tags: ['orders'],
          errors: {
            400: 'No reason (field reason)',
            404: 'No such order at your kitchen, or no open problem report on it',
          },
        },
      },
      schema: { params: OrderParams, body: CloseProblemInput, response: { 200: ProblemReport } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      return closeProblemReport(
        app,
        { role: 'kitchen', kitchenUid: kitchen.uid },
        request.params.id,
        request.body.reason,
      );
    },
  );

  app.post(
    '/api/operator/orders/:id/problem/close',
    {
      config: {
        doc: {
          summary:
            "Close an order's open problem report without a refund, with a reason its customer reads (operators)",
          cookie: 'operator',
          tags: ['orders'],
          errors: {
            400: 'No reason (field reason)',
            403: 'The email is no longer listed in OPERATOR_EMAILS',
            404: 'No such order, or no open problem report on it',
          },
        },
      },
      schema: { params: OrderParams, body: CloseProblemInput, response: { 200: ProblemReport } },
    },
    async (request) => {
      await requireOperator(request);
      return closeProblemReport(app, { role: 'operator' }, request.params.id, request.body.reason);
    },
  );

  app.get(
    '/api/operator/problem-reports',
    {
      config: {
        doc: {
          summary:
            'The open problem reports of delivered orders, newest first, with their orders (an operator refunds one, choosing who pays, with POST /api/operator/orders/:id/refunds)',
          cookie: 'operator',
          tags: ['orders'],
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
        },
      },
      schema: { response: { 200: OperatorProblemReportList } },
    },
    async (request, reply) => {
      await requireOperator(request);
      return reply.header('cache-control', 'no-store').send(await openProblemReports(app.db));
    },
  );
};
