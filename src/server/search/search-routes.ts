import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenSearchQuery, KitchenSearchResults } from '../../shared/search.js';
import { searchKitchens } from './search-queries.js';

/**
 * The landing page's search: public, like the list it narrows. Not a live topic of its own (one per query would
 * be reloaded on every change): the page keeps the kitchens stream and asks again when it changes.
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
};
