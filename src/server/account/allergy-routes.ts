import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AllergyProfile, AllergyProfileInput } from '../../shared/allergen-declaration.js';
import { requireUser } from '../identity/sessions.js';
import { findAllergyProfile, saveAllergyProfile } from '../data/allergy-profile-queries.js';
import { mutate } from '../events/mutate.js';

/** 'Your allergies': a signed-in customer's allergens, kept with their account (issue 51). */
export const allergyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/account/allergies',
    {
      config: {
        doc: {
          summary: "Your allergies: the signed-in customer's allergens and whether 'may contain' matters",
          tags: ['your data'],
          cookie: 'customer',
        },
      },
      schema: { response: { 200: AllergyProfile } },
    },
    async (request, reply) => {
      const user = await requireUser(request, 'customer');
      return reply.header('cache-control', 'no-store').send(await findAllergyProfile(app.db, user.id));
    },
  );

  app.put(
    '/api/account/allergies',
    {
      config: {
        doc: {
          summary:
            'Save your allergies: the menu marks dishes holding them, and an order holding them asks first',
          tags: ['your data'],
          cookie: 'customer',
        },
      },
      schema: { body: AllergyProfileInput, response: { 200: AllergyProfile } },
    },
    async (request, reply) => {
      const user = await requireUser(request, 'customer');
      const saved = await mutate(app, async (tx, record) => {
        const profile = await saveAllergyProfile(tx, user.id, request.body, new Date(app.clock.now()));
        record({ type: 'allergies.saved', userId: user.id });
        return profile;
      });
      return reply.header('cache-control', 'no-store').send(saved);
    },
  );
};
