import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { notFound } from '../lib/errors.js';
import { sendLive } from '../live/live-route.js';
import { topics } from '../live/topics.js';
import { findKitchen } from '../kitchens/kitchen-queries.js';
import { listMenu } from './menu-queries.js';

/** The public, live menu of one kitchen (the kitchen's own dashboard reads the same list). */
export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/kitchens/:uid/menu', { schema: { params: KitchenParams } }, async (request, reply) => {
    const { uid } = request.params;
    const topic = topics.menu(uid);
    // The menu's snapshot is null when there is no such kitchen, so the existence check is cached with it.
    const load = async () => ((await findKitchen(app.db, uid)) ? listMenu(app.db, uid) : null);
    if ((await app.hub.read(topic, load)) === 'null') throw notFound('No kitchen with this id');
    await sendLive(request, reply, app.hub, topic, load);
  });
};
