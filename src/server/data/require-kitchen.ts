import type { FastifyRequest } from 'fastify';
import { NO_KITCHEN, type Kitchen } from '../../shared/kitchens.js';
import { requireUser } from '../identity/sessions.js';
import type { User } from '../identity/users.js';
import { HttpError } from '../lib/errors.js';
import { findKitchen } from './kitchen-queries.js';
import { msg } from '../../shared/i18n/translator.js';

export interface KitchenOwnerContext {
  user: User;
  kitchen: Kitchen;
}

export const noKitchen = () => new HttpError(404, NO_KITCHEN, msg('Register your kitchen first'));

/**
 * The signed-in kitchen owner and their kitchen: a 401 without a kitchen session, a 404 with code NO_KITCHEN
 * when the owner has not registered one yet (so the screens can send them to step 1).
 */
export async function requireKitchen(request: FastifyRequest): Promise<KitchenOwnerContext> {
  const user = await requireUser(request, 'kitchen');
  const kitchen = await findKitchen(request.server.db, user.id);
  if (!kitchen) throw noKitchen();
  return { user, kitchen };
}
