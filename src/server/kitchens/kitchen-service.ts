import type { FastifyInstance } from 'fastify';
import type { Kitchen, KitchenInput, KitchenUpdateInput, PauseOrdersInput } from '../../shared/kitchens.js';
import { firstListing, KITCHEN_LISTINGS } from '../../shared/jurisdictions.js';
import { kitchenPlace } from '../data/kitchen-place.js';
import { claimImage } from '../pictures/image-queries.js';
import { writeReleasingImages, type ImagesApp } from '../pictures/image-service.js';
import { mutate } from '../events/mutate.js';
import {
  findKitchen,
  insertKitchen,
  kitchenImageId,
  updateKitchen,
  setListing,
  setOrdersPaused,
  type KitchenLocation,
  type KitchenOwner,
} from '../data/kitchen-queries.js';

type Geocoding = Pick<FastifyInstance, 'geocoder'>;
type Rules = Pick<FastifyInstance, 'jurisdictions'>;

/** Where the geocoder places an address; null when it cannot (the kitchen then simply has no location). */
async function place(app: Geocoding, address: string): Promise<KitchenLocation> {
  return (await app.geocoder.locate(address)) ?? null;
}

/**
 * Registers the owner's kitchen and announces it; undefined when the owner already has one. The address is placed
 * before the transaction, so no database connection waits on the geocoder.
 */
export async function registerKitchen(
  app: Pick<ImagesApp, 'db' | 'bus' | 'reactions'> & Geocoding & Rules,
  owner: KitchenOwner,
  input: KitchenInput,
): Promise<Kitchen | undefined> {
  const location = await place(app, input.address);
  // Listed at once, unless its place's rules ask for a permit an operator approves (or let no home kitchen sell).
  const listing = firstListing(app.jurisdictions.forPlace(location?.parts ?? null).rules);
  return mutate(app, async (tx, record) => {
    if (input.imageId) await claimImage(tx, owner.id, input.imageId);
    if (!(await insertKitchen(tx, owner, input, location, listing))) return undefined;
    record({ type: 'kitchen.registered', kitchenUid: owner.id });
    if (listing !== 'listed') record({ type: 'kitchen.listing-changed', kitchenUid: owner.id, listing });
    return findKitchen(tx, owner.id);
  });
}

/**
 * Edits the owner's kitchen and announces it on the public list; undefined when the owner has none. A picture it
 * no longer uses is deleted; a changed address is placed again.
 */
export async function editKitchen(
  app: ImagesApp & Geocoding & Rules,
  ownerId: string,
  patch: KitchenUpdateInput,
): Promise<Kitchen | undefined> {
  const location = patch.address === undefined ? undefined : await place(app, patch.address);
  return writeReleasingImages(app, async (tx, record) => {
    if (patch.imageId) await claimImage(tx, ownerId, patch.imageId);
    const previous = await kitchenImageId(tx, ownerId);
    const before = location === undefined ? undefined : await kitchenPlace(tx, ownerId);
    if (!(await updateKitchen(tx, ownerId, patch, location))) return { result: undefined, released: [] };
    record({ type: 'kitchen.updated', kitchenUid: ownerId, zoneChanged: patch.timeZone !== undefined });
    // A move to a place of other rules: listed under those as a new kitchen would be (its permit was for the old).
    if (before && location !== undefined) {
      const now = app.jurisdictions.forPlace(location?.parts ?? null);
      if (app.jurisdictions.forPlace(before.place).id !== now.id) {
        const listing = firstListing(now.rules);
        if (await setListing(tx, ownerId, { state: listing, reason: '', decided: false }, KITCHEN_LISTINGS))
          record({ type: 'kitchen.listing-changed', kitchenUid: ownerId, listing });
      }
    }
    return { result: await findKitchen(tx, ownerId), released: [previous] };
  });
}

/** 'Pause new orders' (optionally until a time) or take them again; undefined when the owner has no kitchen. */
export async function pauseOrders(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock'>,
  ownerId: string,
  input: PauseOrdersInput,
): Promise<Kitchen | undefined> {
  const pause = input.paused
    ? { at: new Date(app.clock.now()), until: input.until ? new Date(input.until) : null }
    : null;
  return mutate(app, async (tx, record) => {
    if (!(await setOrdersPaused(tx, ownerId, pause))) return undefined;
    record({ type: pause ? 'kitchen.paused' : 'kitchen.resumed', kitchenUid: ownerId });
    return findKitchen(tx, ownerId);
  });
}
