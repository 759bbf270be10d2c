import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddressSuggestions, GeocodeQuery, GeocodeSettings } from '../../shared/geocode.js';
import { limits } from '../identity/rate-limit.js';

/**
 * Address suggestions through our server: the browser never calls the provider itself. Anyone may ask (a visitor
 * picks an address on the landing page to see the nearest kitchens), at a lower rate than signed-in people
 * (`limits.geocode`); Nominatim's one call a second is shared by every instance (shared-interval-gate.ts).
 */
export const geocodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/geocode',
    {
      config: {
        doc: { summary: 'Address suggestions for typed text (fewer a minute without a session)' },
        rateLimit: limits.geocode,
      },
      schema: { querystring: GeocodeQuery, response: { 200: AddressSuggestions } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=300');
      return app.geocoder.search(request.query.q);
    },
  );

  app.get(
    '/api/geocode/settings',
    {
      config: { doc: { summary: 'Which address geocoder the server uses' } },
      schema: { response: { 200: GeocodeSettings } },
    },
    async () => ({
      kind: app.config.geocoder.kind,
    }),
  );
};
