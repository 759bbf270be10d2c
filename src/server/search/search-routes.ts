import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { requiredLsnOf } from '../db/read-replica.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  KitchenPage,
  KitchenPageQuery,
  KitchenSearchQuery,
  KitchenSearchResults,
  type KitchenSearch,
} from '../../shared/search.js';
import { serveTopic } from '../live/live-route.js';
import { catalogTopic } from './catalog-topic.js';
import { SearchCache, type KitchenPageKey } from './search-cache.js';
import { searchKitchenPage, searchKitchens } from './search-queries.js';

/**
 * The landing page's search: public, like the list it narrows. Not a live topic of its own (one per query would
 * be reloaded on every change): the page follows the catalogue's changes and asks again. Answers are kept until
 * the catalogue changes (search-cache.ts).
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new SearchCache(app.bus);
  /**
   * A search's answer: the kept one, else run where the read router says (db/read-replica.ts): kept when it ran on
   * the primary or on a replica that has replayed every change heard, not when it is the lagging replica's answer to
   * this reader alone.
   */
  const answer = async <T>(
    request: FastifyRequest,
    search: KitchenSearch,
    run: (db: Db) => Promise<T>,
    page?: KitchenPageKey,
  ): Promise<T> => {
    const kept = cache.peek<T>(search, page);
    if (kept) return kept;
    if (app.reads.enabled && !(await app.reads.publicRead(requiredLsnOf(request))).shared)
      return app.reads.own(run);
    return cache.get(search, () => app.reads.shared(run), page);
  };
  app.get(
    '/api/kitchens/search',
    {
      config: {
        doc: {
          summary:
            'Kitchens by words (typos and accents forgiven), cuisine, dietary tags and distance; `avoid` leaves out dishes holding those allergens',
          tags: ['discovery'],
        },
      },
      schema: { querystring: KitchenSearchQuery, response: { 200: KitchenSearchResults } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return answer(request, request.query, (db) => searchKitchens(db, request.query));
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
          errors: {
            400: 'A limit outside 1..100, a cursor this list did not give, or a bad filter (`avoid` naming an allergen outside the set)',
          },
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
      const json = await answer(
        request,
        request.query,
        async (db) => JSON.stringify(await searchKitchenPage(db, request.query, now)),
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
