import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  KitchenPage,
  KitchenPageQuery,
  KitchenSearchQuery,
  KitchenSearchResults,
} from '../../shared/search.js';
import { serveTopic } from '../live/live-route.js';
import { catalogTopic } from './catalog-topic.js';
import { SearchCache } from './search-cache.js';
import { searchKitchenPage, searchKitchens } from './search-queries.js';

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
    '/api/kitchens/page',
    {
      config: {
        doc: {
          summary:
            'One page of kitchens (24 by default, up to 100): newest first, or nearest first given `near`; with the search filters, a cursor for the next page and, on the first, how many match',
          tags: ['discovery'],
          errors: { 400: 'A limit outside 1..100, a cursor this list did not give, or a bad filter' },
          // Sent as the JSON string it is kept as (no serialiser on the way out).
          responses: { 200: KitchenPage },
        },
      },
      schema: { querystring: KitchenPageQuery },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Pages are kept like searches, until the catalogue changes (a cursor names a row, so a kept page stays right).
      const { limit, cursor, open } = request.query;
      const now = new Date(app.clock.now());
      // Who is open changes with the minute: an 'Open now' page is kept for the minute it was asked in.
      const minute = open ? Math.floor(now.getTime() / 60_000) : undefined;
      // Kept as the JSON it is sent as: a cached page costs no serialising (nor checking) per request.
      const json = await cache.get(
        request.query,
        async () => JSON.stringify(await searchKitchenPage(app.db, request.query, now)),
        { limit, cursor, minute },
      );
      return reply.type('application/json; charset=utf-8').send(json);
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
