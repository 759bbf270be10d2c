import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { serveTopic } from '../live/live-route.js';
import { kitchensTopic, kitchenTopic } from '../data/kitchens-topic.js';

/** Public reads of kitchens, both live: the list of the landing page and one kitchen by its uid. */
export const kitchenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchens', serveTopic(kitchensTopic));

  app.get('/api/kitchens/:uid', { schema: { params: KitchenParams } }, serveTopic(kitchenTopic));
};
