import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenSearchQuery, KitchenSearchResults } from '../../shared/search.js';
import { serveTopic } from '../live/live-route.js';
import { catalogTopic } from './catalog-topic.js';
import { searchKitchens } from './search-queries.js';

/**
 * The landing page's search: public, like the list it narrows. Not a live topic of its own (one per query would
 * be reloaded on every change): the page follows the catalogue's changes and asks again.
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens/search',
    { schema: { querystring: KitchenSearchQuery, response: { 200: KitchenSearchResults } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return searchKitchens(app.db, request.query);
    },
  );
  app.get('/api/kitchens/search/changes', serveTopic(catalogTopic));
};
