import { KitchenFirstPage, KitchenList, KitchenProfile } from '../../shared/kitchens.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { serveTopic } from '../live/live-route.js';
import { kitchensFirstPageTopic, kitchensTopic, kitchenTopic } from '../data/kitchens-topic.js';

/** Public reads of kitchens, both live: the list of the landing page and one kitchen by its uid. */
export const kitchenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens',
    { config: { doc: { summary: 'Every kitchen', stream: true, responses: { 200: KitchenList } } } },
    serveTopic(kitchensTopic),
  );

  app.get(
    '/api/kitchens/first-page',
    {
      config: {
        doc: {
          summary:
            "The landing page's first page: the newest 24 kitchens, the cursor of the next page (/api/kitchens/page) and how many there are",
          stream: true,
          responses: { 200: KitchenFirstPage },
        },
      },
    },
    serveTopic(kitchensFirstPageTopic),
  );

  app.get(
    '/api/kitchens/:uid',
    {
      config: {
        doc: {
          summary:
            "One kitchen, with its hours, whether it is taking orders, its rating, 'About the cook' and orders delivered",
          stream: true,
          responses: { 200: KitchenProfile },
          errors: { 404: 'No such kitchen' },
        },
      },
      schema: { params: KitchenParams },
    },
    serveTopic(kitchenTopic),
  );
};
