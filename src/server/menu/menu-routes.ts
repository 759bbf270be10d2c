import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { serveTopic } from '../live/live-route.js';
import { menuTopic } from '../data/menu-topic.js';

/** The public, live menu of one kitchen (the kitchen's own dashboard reads the same list). */
export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchens/:uid/menu', { schema: { params: KitchenParams } }, serveTopic(menuTopic));
};
