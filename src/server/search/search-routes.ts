import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenSearchQuery, KitchenSearchResults } from '../../shared/search.js';
import { serveTopic } from '../live/live-route.js';
import { catalogTopic } from './catalog-topic.js';
import { SearchCache } from './search-cache.js';
import { searchKitchens } from './search-queries.js';

/**
 * The landing page's search: public, like the list it narrows. Not a live topic of its own (one per query would
 * be reloaded on every change): the page follows the catalogue's changes and asks again. Answers are kept until
 * the catalogue changes (search-cache.ts).
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new SearchCache(app.bus);
  app.get(
    '/api/kitchens/search',
    {
      config: {
        doc: {
          summary: 'Kitchens by words (typos and accents forgiven), cuisine, dietary tags and distance',
          tags: ['discovery'],
        },
      },
      schema: { querystring: KitchenSearchQuery, response: { 200: KitchenSearchResults } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cache.get(request.query, () => searchKitchens(app.db, request.query));
    },
  );
  app.get(
    '/api/kitchens/search/changes',
    {
      config: {
        doc: {
          summary: 'When the searchable catalogue last changed (a page with an open search asks again)',
          tags: ['discovery'],
          stream: true,
          responses: { 200: z.object({ changedAt: z.string() }) },
        },
      },
    },
    serveTopic(catalogTopic),
  );
};
