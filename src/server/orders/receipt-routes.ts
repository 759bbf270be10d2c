import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { OrderParams } from '../../shared/orders.js';
import { receiptCard, receiptOf, type Receipt } from '../data/receipt-queries.js';
import { currentOperator, currentUser } from '../identity/sessions.js';
import { notFound, unauthorized } from '../lib/errors.js';
import { receiptHtml, renderReceiptPdf } from './receipt-documents.js';

export { receiptHtml } from './receipt-documents.js';

/** A paid order's receipt: its customer's, and operators'. */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The receipt the request may read (its order's customer, or an operator), with its card learnt; else refused. */
  const readable = async (request: FastifyRequest, orderId: string): Promise<Receipt> => {
    const [customer, operator] = await Promise.all([
      currentUser(request, 'customer'),
      currentOperator(request),
    ]);
    if (!customer && !operator) throw unauthorized('Please sign in to continue');
    const receipt = await receiptOf(app.db, orderId);
    if (!receipt || (!operator && receipt.customerId !== customer?.id))
      throw notFound('You have no paid order with this id');
    return { ...receipt, card: await receiptCard(app.db, app.payments.provider, receipt) };
  };

  app.get(
    '/api/orders/:id/receipt',
    {
      config: {
        doc: {
          summary:
            "A paid order's receipt as a page (kitchen and permit number, the card's brand and last 4, dishes, fees, tip, total, then refunds and later tips, and a link to it as a PDF), in the reader's language and the kitchen's time zone: the order's customer's, or an operator's",
          cookie: 'signed-in',
          responses: { 200: { description: 'The receipt', type: 'text/html' } },
          errors: { 401: 'Not signed in', 404: 'No such paid order of yours' },
        },
      },
      schema: { params: OrderParams },
    },
    async (request, reply) => {
      const receipt = await readable(request, request.params.id);
      const tr = app.i18n.translator(request.locale);
      return reply
        .header('cache-control', 'private, no-store')
        .type('text/html; charset=utf-8')
        .send(receiptHtml(receipt, tr, `/api/orders/${receipt.orderId}/receipt.pdf`));
    },
  );

  app.get(
    '/api/orders/:id/receipt.pdf',
    {
      config: {
        doc: {
          summary:
            "A paid order's receipt as an A4 PDF (the same as the page: kitchen, the card's brand and last 4, dishes, fees, tip, total, refunds, store credit, the receipt's number), in the reader's language: the order's customer's, or an operator's",
          cookie: 'signed-in',
          responses: { 200: { description: 'The receipt', type: 'application/pdf' } },
          errors: { 401: 'Not signed in', 404: 'No such paid order of yours' },
        },
      },
      schema: { params: OrderParams },
    },
    async (request, reply) => {
      const receipt = await readable(request, request.params.id);
      const tr = app.i18n.translator(request.locale);
      const pdf = await renderReceiptPdf(receipt, tr);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${receipt.number}.pdf"`)
        .type('application/pdf')
        .send(pdf);
    },
  );
};
