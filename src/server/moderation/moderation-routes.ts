import { ModerationView } from '../../shared/moderation.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParams,
  KitchenUidParams,
  ListingDecisionInput,
  OperatorActionInput,
  OperatorActionResult,
  ReferralResult,
  Report,
  ReportInput,
} from '../../shared/moderation.js';
import { requireAnyUser, requireOperator } from '../identity/sessions.js';
import { serveTopic } from '../live/live-route.js';
import { moderationTopic } from './moderation-topic.js';
import {
  closeReport,
  decideListing,
  hideChatMessage,
  hideReview,
  liftSuspension,
  suspendKitchen,
} from './operator-service.js';
import { fileReport } from './report-service.js';
import { referKitchen } from './health-referrals.js';
import { kitchenRecord } from './health-record.js';
import { overrideRule } from './rule-override-service.js';
import { scheduleFeeChange } from './fee-change-service.js';
import { FeeChange, FeeChangeInput, FeeChanges } from '../../shared/payments.js';
import { OperatorRules, RuleOverride, RuleOverrideInput } from '../../shared/jurisdictions.js';
import { operatorFeeChanges, operatorRules } from './rules-and-fees-queries.js';
import { msg } from '../../shared/i18n/translator.js';

/**
 * Reports (any signed-in customer or kitchen owner) and the operator's page and actions (operators only: an
 * operator session whose email is still listed in OPERATOR_EMAILS).
 */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/reports',
    {
      config: {
        doc: {
          summary: 'Report a chat message, a review or a kitchen to the operators (10 reports in 10 minutes)',
          cookie: 'any',
          tags: ['moderation'],
          errors: {
            404: 'No such chat message, review or kitchen (field targetId)',
            409: 'ALREADY_REPORTED: your report of this is still open',
          },
        },
      },
      schema: { body: ReportInput, response: { 201: Report } },
    },
    async (request, reply) => {
      const reporter = await requireAnyUser(request, msg('Please sign in to report'));
      return reply.status(201).send(await fileReport(app, reporter, request.body));
    },
  );

  app.get(
    '/api/operator/moderation',
    {
      config: {
        doc: {
          summary: "The operator's page: open reports (newest first), suspended kitchens, recent actions",
          cookie: 'operator',
          stream: true,
          tags: ['moderation'],
          responses: { 200: ModerationView },
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
        },
      },
    },
    serveTopic(moderationTopic),
  );

  const action = { body: OperatorActionInput, response: { 200: OperatorActionResult } };
  app.post(
    '/api/operator/chat-messages/:id/hide',
    {
      config: {
        doc: {
          summary: 'Hide a chat message for everyone (closes its open reports)',
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such chat message' },
        },
      },
      schema: { params: IdParams, ...action },
    },
    async (request) =>
      hideChatMessage(app, await requireOperator(request), request.params.id, request.body.note),
  );
  app.post(
    '/api/operator/reviews/:id/hide',
    {
      config: {
        doc: {
          summary: 'Hide a review for everyone (closes its open reports)',
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such review' },
        },
      },
      schema: { params: IdParams, ...action },
    },
    async (request) => hideReview(app, await requireOperator(request), request.params.id, request.body.note),
  );
  app.post(
    '/api/operator/kitchens/:uid/suspend',
    {
      config: {
        doc: {
          summary: 'Suspend a kitchen: off the list and search, no orders (closes its open reports)',
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenUidParams, ...action },
    },
    async (request) =>
      suspendKitchen(app, await requireOperator(request), request.params.uid, request.body.note),
  );
  app.post(
    '/api/operator/kitchens/:uid/lift-suspension',
    {
      config: {
        doc: {
          summary: "Lift a kitchen's suspension",
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenUidParams, ...action },
    },
    async (request) =>
      liftSuspension(app, await requireOperator(request), request.params.uid, request.body.note),
  );
  app.post(
    '/api/operator/kitchens/:uid/listing',
    {
      config: {
        doc: {
          summary:
            "Decide on a kitchen whose place's rules ask for a permit: approve (it is listed), ask for changes or refuse (with the reason the cook reads)",
          cookie: 'operator',
          tags: ['moderation'],
          errors: {
            404: 'No such kitchen',
            409: 'NOT_AWAITING_APPROVAL: the kitchen is not waiting for a decision',
          },
        },
      },
      schema: {
        params: KitchenUidParams,
        body: ListingDecisionInput,
        response: { 200: OperatorActionResult },
      },
    },
    async (request) => decideListing(app, await requireOperator(request), request.params.uid, request.body),
  );
  app.post(
    '/api/operator/kitchens/:uid/referral',
    {
      config: {
        doc: {
          summary:
            "Refer a kitchen to the local health authority (the issuer of the permit its place's rules ask for, if they name one): recorded with who and when in the operators' log, once until a new food-safety complaint",
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenUidParams, response: { 200: ReferralResult } },
    },
    async (request) => referKitchen(app, await requireOperator(request), request.params.uid),
  );
  app.get(
    '/api/operator/kitchens/:uid/record',
    {
      config: {
        doc: {
          summary:
            "A kitchen's record for the health authority, as a PDF: its permit and documents with expiry dates, its food-safety complaints, orders and referrals of the last 30 days",
          cookie: 'operator',
          tags: ['moderation'],
          responses: { 200: { description: 'A PDF document with a text layer', type: 'application/pdf' } },
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenUidParams },
    },
    async (request, reply) => {
      await requireOperator(request);
      const bytes = await kitchenRecord(app, request.params.uid);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `inline; filename="kitchen-record-${request.params.uid.slice(0, 8)}.pdf"`,
        )
        .send(bytes);
    },
  );
  app.get(
    '/api/operator/rules',
    {
      config: {
        doc: {
          summary:
            "Every shipped jurisdiction profile's caps as its file says them, with the operators' overrides in force there (who, why, when), and the kitchens with overrides of their own",
          cookie: 'operator',
          tags: ['moderation'],
        },
      },
      schema: { response: { 200: OperatorRules } },
    },
    async (request, reply) => {
      await requireOperator(request);
      reply.header('cache-control', 'no-store');
      return operatorRules(app);
    },
  );
  app.get(
    '/api/operator/fee-changes',
    {
      config: {
        doc: {
          summary:
            "The platform's commission in force today, the earliest day a change may apply (30 days ahead), and every change of fees announced, latest day first",
          cookie: 'operator',
          tags: ['moderation'],
        },
      },
      schema: { response: { 200: FeeChanges } },
    },
    async (request, reply) => {
      await requireOperator(request);
      reply.header('cache-control', 'no-store');
      return operatorFeeChanges(app);
    },
  );
  app.post(
    '/api/operator/rule-overrides',
    {
      config: {
        doc: {
          summary:
            "Override a value of a place's rules (meals a day or a week, gross a year) for one jurisdiction profile or one kitchen, saying why: recorded with who in the operators' log",
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such profile or kitchen (field target)' },
        },
      },
      schema: { body: RuleOverrideInput, response: { 201: RuleOverride } },
    },
    async (request, reply) =>
      reply.status(201).send(await overrideRule(app, await requireOperator(request), request.body)),
  );
  app.post(
    '/api/operator/fee-changes',
    {
      config: {
        doc: {
          summary:
            "Schedule a change of the platform's commission on card orders' dishes from a day at least 30 days ahead: every cook is emailed (the notifications' outbox), and it is in the operators' log",
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 400: 'effectiveOn is less than 30 days ahead, or commissionPercent is not 0 to 50' },
        },
      },
      schema: { body: FeeChangeInput, response: { 201: FeeChange } },
    },
    async (request, reply) =>
      reply.status(201).send(await scheduleFeeChange(app, await requireOperator(request), request.body)),
  );
  app.post(
    '/api/operator/reports/:id/close',
    {
      config: {
        doc: {
          summary: 'Close a report without acting on what it names',
          cookie: 'operator',
          tags: ['moderation'],
          errors: { 404: 'No such report' },
        },
      },
      schema: { params: IdParams, ...action },
    },
    async (request) => closeReport(app, await requireOperator(request), request.params.id, request.body.note),
  );
};
