import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderParams } from '../../shared/orders.js';
import {
  DisputeEvidenceResult,
  KitchenRefundInput,
  OperatorRefundInput,
  OrderRefund,
} from '../../shared/refunds.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { requireOperator } from '../identity/sessions.js';
import { submitDisputeEvidence } from './order-disputes.js';
import { askRefund } from './order-refunds.js';

const REFUSALS = {
  404: 'No such order (for a cook: none at your kitchen)',
  409: 'NOT_REFUNDABLE: not a delivered order paid by card; REFUND_TOO_LARGE: more than is left of what was captured (names amountCents); REFUND_KEY_REUSED: the key made another refund of this order; NOT_REFUNDABLE naming dishes: more of a dish than the order has',
};

/**
 * Partial refunds of a delivered card order: its cook gives back a part (the cook pays: the kitchen's transfer is
 * reversed in proportion), or an operator does, choosing who pays. Each answers the refund with where it stands.
 */
export const refundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/kitchen/orders/:id/refunds',
    {
      config: {
        doc: {
          summary:
            "Refund a part of a delivered card order of one's kitchen (an amount, or some of its dishes at their prices), paid by the kitchen; the key makes a repeat give the same refund",
          cookie: 'kitchen',
          tags: ['money'],
          errors: REFUSALS,
        },
      },
      schema: { params: OrderParams, body: KitchenRefundInput, response: { 200: OrderRefund } },
    },
    async (request) => {
      const { user, kitchen } = await requireKitchen(request);
      const { key, amountCents, dishes, reason } = request.body;
      return askRefund(
        app,
        { role: 'kitchen', userId: user.id, kitchenUid: kitchen.uid },
        request.params.id,
        { key, amountCents, dishes, reason: reason ?? '', whoPays: 'kitchen', refundPlatformFee: true },
      );
    },
  );

  app.post(
    '/api/operator/orders/:id/refunds',
    {
      config: {
        doc: {
          summary:
            'Refund a part of a delivered card order, choosing who pays: the kitchen (its transfer reversed) or the platform (not reversed; its fee given back or not)',
          cookie: 'operator',
          tags: ['money'],
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS', ...REFUSALS },
        },
      },
      schema: { params: OrderParams, body: OperatorRefundInput, response: { 200: OrderRefund } },
    },
    async (request) => {
      const user = await requireOperator(request);
      const { key, amountCents, dishes, reason, whoPays, refundPlatformFee } = request.body;
      return askRefund(app, { role: 'operator', userId: user.id }, request.params.id, {
        key,
        amountCents,
        dishes,
        reason: reason ?? '',
        whoPays,
        refundPlatformFee: refundPlatformFee ?? whoPays === 'kitchen',
      });
    },
  );

  app.post(
    '/api/operator/orders/:id/dispute/evidence',
    {
      config: {
        doc: {
          summary:
            "Submit to the provider the evidence assembled from an order (its dishes, times, delivery, messages) for the cardholder's open dispute of its payment; answers the evidence fields filled",
          cookie: 'operator',
          tags: ['money'],
          errors: {
            403: 'The email is no longer listed in OPERATOR_EMAILS',
            404: 'No such order',
            409: 'DISPUTE_CLOSED: the order has no open dispute',
          },
        },
      },
      schema: { params: OrderParams, response: { 200: DisputeEvidenceResult } },
    },
    async (request) => {
      await requireOperator(request);
      return submitDisputeEvidence(app, request.params.id);
    },
  );
};
