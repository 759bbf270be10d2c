import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddressSuggestions, GeocodeQuery, GeocodeSettings } from '../../shared/geocode.js';
import { requireAnyUser } from '../auth/sessions.js';
import { limits } from '../lib/rate-limit.js';

/**
 * Address suggestions through our server: the browser never calls the provider itself. Signed-in users only
 * (the checkout needs it), so the app is not an open proxy spending its quota for strangers.
 */
export const geocodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/geocode',
    {
      config: { rateLimit: limits.geocode },
      schema: { querystring: GeocodeQuery, response: { 200: AddressSuggestions } },
    },
    async (request, reply) => {
      await requireAnyUser(request, 'Please sign in to get address suggestions');
      reply.header('cache-control', 'private, max-age=300');
      return app.geocoder.search(request.query.q);
    },
  );

  app.get('/api/geocode/settings', { schema: { response: { 200: GeocodeSettings } } }, async () => ({
    kind: app.config.geocoder.kind,
  }));
};
