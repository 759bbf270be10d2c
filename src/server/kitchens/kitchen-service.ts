import type { FastifyInstance } from 'fastify';
import type { Kitchen, KitchenInput, KitchenUpdateInput } from '../../shared/kitchens.js';
import { mutate } from '../live/mutate.js';
import { kitchensTopic } from '../kitchens/kitchens-topic.js';
import { menuTopic } from '../menu/menu-topic.js';
import { insertKitchen, updateKitchen, type KitchenOwner } from './kitchen-queries.js';

/** Registers the owner's kitchen and announces it; undefined when the owner already has one. */
export function registerKitchen(
  app: Pick<FastifyInstance, 'db' | 'bus'>,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  return mutate(app, async (tx, publish) => {
    const kitchen = await insertKitchen(tx, owner, input);
    if (kitchen) {
      publish(kitchensTopic);
      publish(menuTopic, kitchen.uid); // its menu now exists (empty) rather than "no such kitchen"
    }
    return kitchen;
  });
}

/** Edits the owner's kitchen and announces it on the public list; undefined when the owner has none. */
export function editKitchen(
  app: Pick<FastifyInstance, 'db' | 'bus'>,
  ownerId: string,
  patch: KitchenUpdateInput,
): Promise<Kitchen | undefined> {
  return mutate(app, async (tx, publish) => {
    const kitchen = await updateKitchen(tx, ownerId, patch);
    if (kitchen) publish(kitchensTopic);
    return kitchen;
  });
}
