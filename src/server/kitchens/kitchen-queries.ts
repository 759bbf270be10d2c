import { desc, eq } from 'drizzle-orm';
import type { Kitchen, KitchenInput, KitchenUpdateInput } from '../../shared/kitchens.js';
import type { DbOrTx } from '../db/database.js';
import { kitchens } from '../db/schema.js';

type KitchenRow = typeof kitchens.$inferSelect;

export function toKitchen(row: KitchenRow): Kitchen {
  return {
    uid: row.ownerId,
    name: row.name,
    category: row.category,
    address: row.address,
    imageLink: row.imageLink,
    ownerName: row.ownerName,
    location:
      row.latitude === null || row.longitude === null ? null : { lat: row.latitude, lon: row.longitude },
    deliveryRadiusKm: row.deliveryRadiusKm,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every kitchen, newest first (the landing page's list). */
export async function listKitchens(db: DbOrTx): Promise<Kitchen[]> {
  const rows = await db.select().from(kitchens).orderBy(desc(kitchens.createdAt), desc(kitchens.ownerId));
  return rows.map(toKitchen);
}

export async function findKitchen(db: DbOrTx, uid: string): Promise<Kitchen | undefined> {
  const [row] = await db.select().from(kitchens).where(eq(kitchens.ownerId, uid)).limit(1);
  return row && toKitchen(row);
}

/** Where the kitchen's address was placed: coordinates, or null when the geocoder could not place it. */
export type KitchenLocation = { lat: number; lon: number } | null;

const locationColumns = (location: KitchenLocation) => ({
  latitude: location?.lat ?? null,
  longitude: location?.lon ?? null,
});

export interface KitchenOwner {
  id: string;
  displayName: string;
  email: string;
}

/** Inserts the owner's kitchen; returns undefined when the owner already has one (one kitchen per owner). */
export async function insertKitchen(
  db: DbOrTx,
  owner: KitchenOwner,
  input: KitchenInput,
  location: KitchenLocation,
): Promise<Kitchen | undefined> {
  const [row] = await db
    .insert(kitchens)
    .values({
      ownerId: owner.id,
      name: input.name,
      category: input.category,
      address: input.address,
      imageLink: input.imageLink,
      ownerName: owner.displayName,
      ownerEmail: owner.email,
      deliveryRadiusKm: input.deliveryRadiusKm,
      ...locationColumns(location),
    })
    .onConflictDoNothing()
    .returning();
  return row && toKitchen(row);
}

/** Changes the owner's kitchen; undefined when the owner has none. */
export async function updateKitchen(
  db: DbOrTx,
  ownerId: string,
  patch: KitchenUpdateInput,
  /** The new address's place; undefined when the address did not change. */
  location: KitchenLocation | undefined,
): Promise<Kitchen | undefined> {
  const [row] = await db
    .update(kitchens)
    .set({
      name: patch.name,
      category: patch.category,
      address: patch.address,
      imageLink: patch.imageLink,
      deliveryRadiusKm: patch.deliveryRadiusKm,
      ...(location === undefined ? {} : locationColumns(location)),
    })
    .where(eq(kitchens.ownerId, ownerId))
    .returning();
  return row && toKitchen(row);
}
