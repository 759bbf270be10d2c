import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { CodeChange, CodeParams, NewCodeInput, PromoCode, PromoCodeList } from '../../shared/promo-codes.js';
import { msg } from '../../shared/i18n/translator.js';
import { kitchens } from '../db/schema.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { requireOperator } from '../identity/sessions.js';
import { badRequest, notFound } from '../lib/errors.js';
import { createCode, listCodes, setCodeActive } from '../payments/promo-codes.js';

const Created = z.object({ code: PromoCode });
const codeGone = () => notFound(msg('No such code'));

/**
 * Promotion codes (ADR 30): the operator's (the platform pays; any kitchen or one) and each cook's for their own
 * kitchen (the kitchen pays). Made, listed with their uses, and turned off at once.
 */
export const promoCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  const currency = app.payments.config.currency;
  const created = async (id: string, owner?: string) => {
    const code = (await listCodes(app.db, owner)).find((c) => c.id === id);
    if (!code) throw codeGone();
    return { code };
  };

  app.get(
    '/api/operator/codes',
    {
      config: {
        doc: {
          summary:
            "Promotion codes: the platform's and every kitchen's, newest first (500), each with its uses and the discount they gave",
          cookie: 'operator',
          tags: ['money'],
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS' },
        },
      },
      schema: { response: { 200: PromoCodeList } },
    },
    async (request, reply) => {
      await requireOperator(request);
      return reply.header('cache-control', 'no-store').send({ codes: await listCodes(app.db) });
    },
  );

  app.post(
    '/api/operator/codes',
    {
      config: {
        doc: {
          summary:
            'Make a platform code (the platform pays its discount): the code asked for, or an unguessable one; optionally for one kitchen (kitchenUid)',
          cookie: 'operator',
          tags: ['money'],
          errors: {
            400: 'A field out of range, named (amountOffCents or percentOff, maxDiscountCents, endsAt, kitchenUid…)',
            403: 'The email is no longer listed in OPERATOR_EMAILS',
            409: 'The code exists already (field code)',
          },
        },
      },
      schema: { body: NewCodeInput, response: { 201: Created } },
    },
    async (request, reply) => {
      const operator = await requireOperator(request);
      const { kitchenUid } = request.body;
      if (kitchenUid !== undefined) {
        const [kitchen] = await app.db
          .select({ id: kitchens.ownerId })
          .from(kitchens)
          .where(eq(kitchens.ownerId, kitchenUid));
        if (!kitchen) throw badRequest(msg('There is no such kitchen'), 'kitchenUid');
      }
      const id = await createCode(app.db, request.body, {
        paidBy: 'platform',
        kitchenId: kitchenUid ?? null,
        createdBy: operator.id,
        currency,
      });
      return reply.status(201).send(await created(id));
    },
  );

  app.patch(
    '/api/operator/codes/:id',
    {
      config: {
        doc: {
          summary:
            "Turn a code (the platform's or a kitchen's) off at once, or on again: orders placed after it are refused",
          cookie: 'operator',
          tags: ['money'],
          errors: { 403: 'The email is no longer listed in OPERATOR_EMAILS', 404: 'No such code' },
        },
      },
      schema: { params: CodeParams, body: CodeChange, response: { 200: Created } },
    },
    async (request, reply) => {
      await requireOperator(request);
      if (!(await setCodeActive(app.db, request.params.id, request.body.active))) throw codeGone();
      return reply.send(await created(request.params.id));
    },
  );

  app.get(
    '/api/kitchen/codes',
    {
      config: {
        doc: {
          summary:
            "The cook's own promotion codes for their kitchen (the kitchen pays them), with their uses",
          cookie: 'kitchen',
          tags: ['money'],
        },
      },
      schema: { response: { 200: PromoCodeList } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      return reply.header('cache-control', 'no-store').send({ codes: await listCodes(app.db, kitchen.uid) });
    },
  );

  app.post(
    '/api/kitchen/codes',
    {
      config: {
        doc: {
          summary:
            "Make a code for the cook's own kitchen (its discount lowers the kitchen's part): the code asked for, or an unguessable one",
          cookie: 'kitchen',
          tags: ['money'],
          errors: {
            400: "A field out of range, named; kitchenUid (a cook's code is always for their own kitchen)",
            409: 'The code exists already (field code)',
          },
        },
      },
      schema: { body: NewCodeInput, response: { 201: Created } },
    },
    async (request, reply) => {
      const { kitchen, user } = await requireKitchen(request);
      if (request.body.kitchenUid !== undefined && request.body.kitchenUid !== kitchen.uid)
        throw badRequest(msg("A cook's code is for their own kitchen"), 'kitchenUid');
      const id = await createCode(app.db, request.body, {
        paidBy: 'kitchen',
        kitchenId: kitchen.uid,
        createdBy: user.id,
        currency,
      });
      return reply.status(201).send(await created(id, kitchen.uid));
    },
  );

  app.patch(
    '/api/kitchen/codes/:id',
    {
      config: {
        doc: {
          summary: "Turn one of the kitchen's own codes off at once, or on again",
          cookie: 'kitchen',
          tags: ['money'],
          errors: { 404: 'No such code of this kitchen' },
        },
      },
      schema: { params: CodeParams, body: CodeChange, response: { 200: Created } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      if (!(await setCodeActive(app.db, request.params.id, request.body.active, kitchen.uid)))
        throw codeGone();
      return reply.send(await created(request.params.id, kitchen.uid));
    },
  );
};
