import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { notFound } from '../lib/errors.js';
import { serveTopic } from '../live/live-route.js';
import { findKitchen } from './kitchen-queries.js';
import { kitchensTopic } from './kitchens-topic.js';

/** Public reads of kitchens: the live list of the landing page and one kitchen by its uid. */
export const kitchenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchens', serveTopic(kitchensTopic));

  app.get('/api/kitchens/:uid', { schema: { params: KitchenParams } }, async (request) => {
    const kitchen = await findKitchen(app.db, request.params.uid);
    if (!kitchen) throw notFound('No kitchen with this id');
    return kitchen;
  });
};
