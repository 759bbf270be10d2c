import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParams,
  KitchenUidParams,
  OperatorActionInput,
  OperatorActionResult,
  Report,
  ReportInput,
} from '../../shared/moderation.js';
import { requireAnyUser, requireOperator } from '../identity/sessions.js';
import { serveTopic } from '../live/live-route.js';
import { moderationTopic } from './moderation-topic.js';
import {
  closeReport,
  hideChatMessage,
  hideReview,
  liftSuspension,
  suspendKitchen,
} from './operator-service.js';
import { fileReport } from './report-service.js';

/**
 * Reports (any signed-in customer or kitchen owner) and the operator's page and actions (operators only: an
 * operator session whose email is still listed in OPERATOR_EMAILS).
 */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/reports',
    { schema: { body: ReportInput, response: { 201: Report } } },
    async (request, reply) => {
      const reporter = await requireAnyUser(request, 'Please sign in to report');
      return reply.status(201).send(await fileReport(app, reporter, request.body));
    },
  );

  app.get('/api/operator/moderation', serveTopic(moderationTopic));

  const action = { body: OperatorActionInput, response: { 200: OperatorActionResult } };
  app.post(
    '/api/operator/chat-messages/:id/hide',
    { schema: { params: IdParams, ...action } },
    async (request) =>
      hideChatMessage(app, await requireOperator(request), request.params.id, request.body.note),
  );
  app.post('/api/operator/reviews/:id/hide', { schema: { params: IdParams, ...action } }, async (request) =>
    hideReview(app, await requireOperator(request), request.params.id, request.body.note),
  );
  app.post(
    '/api/operator/kitchens/:uid/suspend',
    { schema: { params: KitchenUidParams, ...action } },
    async (request) =>
      suspendKitchen(app, await requireOperator(request), request.params.uid, request.body.note),
  );
  app.post(
    '/api/operator/kitchens/:uid/lift-suspension',
    { schema: { params: KitchenUidParams, ...action } },
    async (request) =>
      liftSuspension(app, await requireOperator(request), request.params.uid, request.body.note),
  );
  app.post('/api/operator/reports/:id/close', { schema: { params: IdParams, ...action } }, async (request) =>
    closeReport(app, await requireOperator(request), request.params.id, request.body.note),
  );
};
