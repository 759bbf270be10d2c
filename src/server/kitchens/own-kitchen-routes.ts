import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Kitchen,
  KitchenInput,
  KitchenUpdateInput,
  OwnKitchenCheck,
  PauseOrdersInput,
} from '../../shared/kitchens.js';
import { requireUser } from '../identity/sessions.js';
import { badRequest, conflict } from '../lib/errors.js';
import { refuseOwnSite } from '../lib/picture-links.js';
import { findKitchen } from '../data/kitchen-queries.js';
import { editKitchen, pauseOrders, registerKitchen } from './kitchen-service.js';
import { noKitchen, requireKitchen } from '../data/require-kitchen.js';

/** The signed-in owner's own kitchen: read it (or check for it), register it (once), edit it, pause its orders. */
export const ownKitchenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchen',
    {
      config: {
        doc: {
          summary: "The signed-in owner's kitchen",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { response: { 200: Kitchen } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return (await requireKitchen(request)).kitchen;
    },
  );

  app.get(
    '/api/kitchen/check',
    {
      config: { doc: { summary: "The signed-in owner's kitchen, or null", cookie: 'kitchen' } },
      schema: { response: { 200: OwnKitchenCheck } },
    },
    async (request, reply) => {
      const user = await requireUser(request, 'kitchen');
      reply.header('cache-control', 'no-store');
      return { kitchen: (await findKitchen(app.db, user.id)) ?? null };
    },
  );

  app.post(
    '/api/kitchen',
    {
      config: {
        doc: {
          summary: 'Register a kitchen',
          cookie: 'kitchen',
          errors: { 409: 'Already has a kitchen' },
        },
      },
      schema: { body: KitchenInput, response: { 201: Kitchen } },
    },
    async (request, reply) => {
      const user = await requireUser(request, 'kitchen');
      refuseOwnSite(app.config.publicUrl, { imageLink: request.body.imageLink });
      const kitchen = await registerKitchen(app, user, request.body);
      if (!kitchen) throw conflict('You have already registered a kitchen');
      return reply.status(201).send(kitchen);
    },
  );

  app.patch(
    '/api/kitchen',
    {
      config: {
        doc: {
          summary: "Edit one's kitchen",
          cookie: 'kitchen',
          errors: { 404: 'No kitchen yet' },
        },
      },
      schema: { body: KitchenUpdateInput, response: { 200: Kitchen } },
    },
    async (request) => {
      const { user } = await requireKitchen(request);
      refuseOwnSite(app.config.publicUrl, { imageLink: request.body.imageLink });
      const kitchen = await editKitchen(app, user.id, request.body);
      if (!kitchen) throw noKitchen();
      return kitchen;
    },
  );

  app.post(
    '/api/kitchen/pause',
    {
      config: {
        doc: {
          summary: "'Pause new orders' (optionally until a time), or take them again",
          cookie: 'kitchen',
        },
      },
      schema: { body: PauseOrdersInput, response: { 200: Kitchen } },
    },
    async (request) => {
      const { user } = await requireKitchen(request);
      const { until } = request.body;
      if (until && new Date(until).getTime() <= app.clock.now())
        throw badRequest('A pause must end in the future', 'until');
      const kitchen = await pauseOrders(app, user.id, request.body);
      if (!kitchen) throw noKitchen();
      return kitchen;
    },
  );
};
