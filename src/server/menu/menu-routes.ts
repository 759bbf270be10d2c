import { SUSPENDED_OR_MISSING } from '../lib/route-doc.js';
import { MenuList } from '../../shared/menu.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { serveTopic } from '../live/live-route.js';
import { menuTopic } from '../data/menu-topic.js';

/** The public, live menu of one kitchen (the kitchen's own dashboard reads the same list). */
export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens/:uid/menu',
    {
      config: {
        doc: {
          summary: "A kitchen's menu",
          stream: true,
          responses: { 200: MenuList },
          errors: { 404: SUSPENDED_OR_MISSING },
        },
      },
      schema: { params: KitchenParams },
    },
    serveTopic(menuTopic),
  );
};
