import { empty } from '../lib/route-doc.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MenuItem, MenuItemInput, MenuItemParams, MenuItemUpdateInput } from '../../shared/menu.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { notFound } from '../lib/errors.js';
import { refuseOwnSite } from '../lib/picture-links.js';
import { addMenuItem, editMenuItem, removeMenuItem } from './menu-service.js';

const notInYourMenu = () => notFound('Your menu has no item with this id');

/**
 * The owner's changes to their own menu. The dashboard reads the menu from the public live list
 * (GET /api/kitchens/:uid/menu), which every change here refreshes.
 */
export const ownMenuRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/kitchen/menu',
    {
      config: { doc: { summary: 'Add a dish', cookie: 'kitchen', errors: { 404: 'No kitchen yet' } } },
      schema: { body: MenuItemInput, response: { 201: MenuItem } },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      refuseOwnSite(app.config.publicUrl, { imageLink: request.body.imageLink });
      return reply
        .status(201)
        .send(await addMenuItem(app, kitchen.uid, request.body, app.config.payments.currency));
    },
  );

  app.patch(
    '/api/kitchen/menu/:id',
    {
      config: {
        doc: {
          summary: 'Edit a dish of one’s menu',
          cookie: 'kitchen',
          errors: { 404: 'Not a dish of your menu' },
        },
      },
      schema: { params: MenuItemParams, body: MenuItemUpdateInput, response: { 200: MenuItem } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      refuseOwnSite(app.config.publicUrl, { imageLink: request.body.imageLink });
      const item = await editMenuItem(
        app,
        kitchen.uid,
        request.params.id,
        request.body,
        app.config.payments.currency,
      );
      if (!item) throw notInYourMenu();
      return item;
    },
  );

  app.delete(
    '/api/kitchen/menu/:id',
    {
      config: {
        doc: {
          summary: 'Delete a dish of one’s menu',
          cookie: 'kitchen',
          responses: { 204: empty },
          errors: { 404: 'Not a dish of your menu' },
        },
      },
      schema: { params: MenuItemParams },
    },
    async (request, reply) => {
      const { kitchen } = await requireKitchen(request);
      if (!(await removeMenuItem(app, kitchen.uid, request.params.id))) throw notInYourMenu();
      return reply.status(204).send();
    },
  );
};
