import type { FastifyInstance } from 'fastify';
import type { Kitchen, KitchenInput, KitchenUpdateInput } from '../../shared/kitchens.js';
import { mutate } from '../live/mutate.js';
import { kitchensTopic } from '../kitchens/kitchens-topic.js';
import { menuTopic } from '../menu/menu-topic.js';
import { catalogTopic } from '../search/catalog-topic.js';
import { insertKitchen, updateKitchen, type KitchenLocation, type KitchenOwner } from './kitchen-queries.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'geocoder'>;

/** Where the geocoder places an address; null when it cannot (the kitchen then simply has no location). */
async function place(app: App, address: string): Promise<KitchenLocation> {
  return (await app.geocoder.locate(address)) ?? null;
}

/**
 * Registers the owner's kitchen and announces it; undefined when the owner already has one. The address is placed
 * before the transaction, so no database connection waits on the geocoder.
 */
export async function registerKitchen(
  app: App,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  const location = await place(app, input.address);
  return mutate(app, async (tx, publish) => {
    const kitchen = await insertKitchen(tx, owner, input, location);
    if (kitchen) {
      publish(kitchensTopic);
      publish(catalogTopic);
      publish(menuTopic, kitchen.uid); // its menu now exists (empty) rather than "no such kitchen"
    }
    return kitchen;
  });
}

/** Edits the owner's kitchen and announces it on the public list; undefined when the owner has none. */
export async function editKitchen(
  app: App,
  ownerId: string,
  patch: KitchenUpdateInput,
): Promise<Kitchen | undefined> {
  const location = patch.address === undefined ? undefined : await place(app, patch.address);
  return mutate(app, async (tx, publish) => {
    const kitchen = await updateKitchen(tx, ownerId, patch, location);
    if (kitchen) {
      publish(kitchensTopic);
      publish(catalogTopic);
    }
    return kitchen;
  });
}
