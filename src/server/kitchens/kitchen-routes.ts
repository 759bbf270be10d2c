import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { notFound } from '../lib/errors.js';
import { sendLive } from '../live/live-route.js';
import { topics } from '../live/topics.js';
import { findKitchen, listKitchens } from './kitchen-queries.js';

/** Public reads of kitchens: the live list of the landing page and one kitchen by its uid. */
export const kitchenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchens', async (request, reply) => {
    await sendLive(request, reply, app.hub, topics.kitchens(), () => listKitchens(app.db));
  });

  app.get('/api/kitchens/:uid', { schema: { params: KitchenParams } }, async (request) => {
    const kitchen = await findKitchen(app.db, request.params.uid);
    if (!kitchen) throw notFound('No kitchen with this id');
    return kitchen;
  });
};
