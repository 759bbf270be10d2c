import type { Kitchen, KitchenInput, KitchenUpdateInput } from '../../shared/kitchens.js';
import { claimImage } from '../images/image-queries.js';
import { writeReleasingImages, type ImagesApp } from '../images/image-service.js';
import { mutate } from '../live/mutate.js';
import { kitchensTopic } from '../kitchens/kitchens-topic.js';
import { menuTopic } from '../menu/menu-topic.js';
import {
  findKitchen,
  insertKitchen,
  kitchenImageId,
  updateKitchen,
  type KitchenOwner,
} from './kitchen-queries.js';

/** Registers the owner's kitchen and announces it; undefined when the owner already has one. */
export function registerKitchen(
  app: Pick<ImagesApp, 'db' | 'bus'>,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  return mutate(app, async (tx, publish) => {
    if (input.imageId) await claimImage(tx, owner.id, input.imageId);
    if (!(await insertKitchen(tx, owner, input))) return undefined;
    publish(kitchensTopic);
    publish(menuTopic, owner.id); // its menu now exists (empty) rather than "no such kitchen"
    return findKitchen(tx, owner.id);
  });
}

/**
 * Edits the owner's kitchen and announces it on the public list; undefined when the owner has none. A picture it
 * no longer uses is deleted.
 */
export function editKitchen(
  app: ImagesApp,
  ownerId: string,
  patch: KitchenUpdateInput,
): Promise<Kitchen | undefined> {
  return writeReleasingImages(app, async (tx, publish) => {
    if (patch.imageId) await claimImage(tx, ownerId, patch.imageId);
    const previous = await kitchenImageId(tx, ownerId);
    if (!(await updateKitchen(tx, ownerId, patch))) return { result: undefined, released: [] };
    publish(kitchensTopic);
    return { result: await findKitchen(tx, ownerId), released: [previous] };
  });
}
