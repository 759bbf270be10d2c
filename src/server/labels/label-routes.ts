import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LabelQuery, PrepSheetQuery } from '../../shared/labels.js';
import { OrderParams } from '../../shared/orders.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { orderLabels, packingList, prepSheet } from './label-service.js';

const pdf = { description: 'A PDF document with a text layer', type: 'application/pdf' };

/** The cook's printed documents (issue 51): labels per dish, a packing list per order, a prep sheet per slot. */
export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen/orders/:id/labels',
    {
      config: {
        doc: {
          summary:
            'Labels of an accepted order: one per dish (name, kitchen, ingredients with allergens in bold, may contain, made and use-by dates, reheating, customer), as a PDF for 62 mm rolls, 4 × 6 in or A4 sheets',
          cookie: 'kitchen',
          responses: { 200: pdf },
          errors: { 404: 'No such order at your kitchen', 409: 'Not accepted yet (NOT_ACCEPTED)' },
        },
      },
      schema: { params: OrderParams, querystring: LabelQuery },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const tr = app.i18n.translator(request.locale);
      const bytes = await orderLabels(
        app.db,
        kitchen,
        request.params.id,
        request.query.size,
        new Date(app.clock.now()),
        tr,
      );
      return sendPdf(reply, bytes, `labels-${request.params.id.slice(0, 8)}.pdf`);
    },
  );

  app.get(
    '/api/kitchen/orders/:id/packing-list',
    {
      config: {
        doc: {
          summary:
            "An order's packing list (its dishes with their allergens, the customer's allergies and note), as a PDF",
          cookie: 'kitchen',
          responses: { 200: pdf },
          errors: { 404: 'No such order at your kitchen' },
        },
      },
      schema: { params: OrderParams },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const tr = app.i18n.translator(request.locale);
      const bytes = await packingList(app.db, kitchen, request.params.id, new Date(app.clock.now()), tr);
      return sendPdf(reply, bytes, `packing-list-${request.params.id.slice(0, 8)}.pdf`);
    },
  );

  app.get(
    '/api/kitchen/prep-sheet',
    {
      config: {
        doc: {
          summary:
            "A slot's prep sheet: every dish of the kitchen's orders in progress for it, counted, with their allergens, as a PDF",
          cookie: 'kitchen',
          responses: { 200: pdf },
        },
      },
      schema: { querystring: PrepSheetQuery },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      const tr = app.i18n.translator(request.locale);
      const bytes = await prepSheet(app.db, kitchen, request.query.slot, new Date(app.clock.now()), tr);
      return sendPdf(reply, bytes, 'prep-sheet.pdf');
    },
  );
};

function sendPdf(reply: FastifyReply, bytes: Buffer, name: string) {
  return reply
    .header('cache-control', 'no-store')
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${name}"`)
    .send(bytes);
}
