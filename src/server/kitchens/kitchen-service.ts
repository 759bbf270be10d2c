import type { FastifyInstance } from 'fastify';
import type { Kitchen, KitchenInput, KitchenUpdateInput, PauseOrdersInput } from '../../shared/kitchens.js';
import { claimImage } from '../images/image-queries.js';
import { writeReleasingImages, type ImagesApp } from '../images/image-service.js';
import { mutate } from '../live/mutate.js';
import { kitchensTopic, kitchenTopic } from '../kitchens/kitchens-topic.js';
import { menuTopic } from '../menu/menu-topic.js';
import { catalogTopic } from '../search/catalog-topic.js';
import {
  findKitchen,
  insertKitchen,
  kitchenImageId,
  updateKitchen,
  setOrdersPaused,
  type KitchenLocation,
  type KitchenOwner,
} from './kitchen-queries.js';

type Geocoding = Pick<FastifyInstance, 'geocoder'>;

/** Where the geocoder places an address; null when it cannot (the kitchen then simply has no location). */
async function place(app: Geocoding, address: string): Promise<KitchenLocation> {
  return (await app.geocoder.locate(address)) ?? null;
}

/**
 * Registers the owner's kitchen and announces it; undefined when the owner already has one. The address is placed
 * before the transaction, so no database connection waits on the geocoder.
 */
export async function registerKitchen(
  app: Pick<ImagesApp, 'db' | 'bus'> & Geocoding,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  const location = await place(app, input.address);
  return mutate(app, async (tx, publish) => {
    if (input.imageId) await claimImage(tx, owner.id, input.imageId);
    if (!(await insertKitchen(tx, owner, input, location))) return undefined;
    publish(kitchensTopic);
    publish(kitchenTopic, owner.id);
    publish(catalogTopic);
    publish(menuTopic, owner.id); // its menu now exists (empty) rather than "no such kitchen"
    return findKitchen(tx, owner.id);
  });
}

/**
 * Edits the owner's kitchen and announces it on the public list; undefined when the owner has none. A picture it
 * no longer uses is deleted; a changed address is placed again.
 */
export async function editKitchen(
  app: ImagesApp & Geocoding,
  ownerId: string,
  patch: KitchenUpdateInput,
): Promise<Kitchen | undefined> {
  const location = patch.address === undefined ? undefined : await place(app, patch.address);
  return writeReleasingImages(app, async (tx, publish) => {
    if (patch.imageId) await claimImage(tx, ownerId, patch.imageId);
    const previous = await kitchenImageId(tx, ownerId);
    if (!(await updateKitchen(tx, ownerId, patch, location))) return { result: undefined, released: [] };
    publish(kitchensTopic);
    publish(kitchenTopic, ownerId);
    publish(catalogTopic);
    // A new time zone moves the kitchen's "today", and with it the portions left.
    if (patch.timeZone !== undefined) publish(menuTopic, ownerId);
    return { result: await findKitchen(tx, ownerId), released: [previous] };
  });
}

/** 'Pause new orders' (optionally until a time) or take them again; undefined when the owner has no kitchen. */
export async function pauseOrders(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'clock'>,
  ownerId: string,
  input: PauseOrdersInput,
): Promise<Kitchen | undefined> {
  const pause = input.paused
    ? { at: new Date(app.clock.now()), until: input.until ? new Date(input.until) : null }
    : null;
  return mutate(app, async (tx, publish) => {
    if (!(await setOrdersPaused(tx, ownerId, pause))) return undefined;
    publish(kitchensTopic);
    publish(kitchenTopic, ownerId);
    publish(catalogTopic);
    return findKitchen(tx, ownerId);
  });
}
