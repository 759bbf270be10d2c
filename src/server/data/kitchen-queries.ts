import type { KitchenListing, PlaceParts } from '../../shared/jurisdictions.js';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Kitchen, KitchenInput, KitchenUpdateInput } from '../../shared/kitchens.js';
import type { Rating } from '../../shared/reviews.js';
import type { DbOrTx } from '../db/database.js';
import { images, kitchens } from '../db/schema.js';
import { toStoredImage } from '../pictures/image-queries.js';
import { ratingsOf, ratingsSubquery, toRating } from './review-queries.js';
import {
  after,
  createdMicros,
  decodeCursor,
  encodeCursor,
  orderBy,
  type SortColumn,
} from './kitchen-cursor.js';

/** A kitchen's row, but how it takes orders (read on their own: src/server/data/ordering-queries.ts). */
export type KitchenRow = Omit<
  typeof kitchens.$inferSelect,
  | keyof OrderingColumns
  | 'countryCode'
  | 'region'
  | 'county'
  | 'listing'
  | 'listingReason'
  | 'listingDecidedAt'
  | 'plansOffered'
  | 'planCutoffHours'
  | 'planCooksChoice'
>;
type OrderingColumns = Pick<
  typeof kitchens.$inferSelect,
  | 'offersDelivery'
  | 'offersPickup'
  | 'pickupAddress'
  | 'pickupInstructions'
  | 'takesAsap'
  | 'slotMinutes'
  | 'priorNoticeMinutes'
  | 'daysAhead'
  | 'sameDayCutoff'
  | 'ordersPerSlot'
  | 'minimumOrderCents'
>;

export function toKitchen(
  row: KitchenRow,
  image: typeof images.$inferSelect | null,
  rating: Rating | null,
): Kitchen {
  return {
    uid: row.ownerId,
    name: row.name,
    category: row.category,
    address: row.address,
    imageLink: row.imageLink,
    image: image && toStoredImage(image),
    ownerName: row.ownerName,
    location:
      row.latitude === null || row.longitude === null ? null : { lat: row.latitude, lon: row.longitude },
    deliveryRadiusKm: row.deliveryRadiusKm,
    timeZone: row.timeZone,
    hours: row.openingHours,
    pausedAt: row.pausedAt?.toISOString() ?? null,
    pausedUntil: row.pausedUntil?.toISOString() ?? null,
    about: row.about,
    rating,
    suspended: row.suspendedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Kitchens with their uploaded picture, if any, and their rating. */
function selectKitchens(db: DbOrTx) {
  const ratings = ratingsSubquery(db);
  return db
    .select({ kitchens, images, reviewCount: ratings.count, reviewAverage: ratings.average })
    .from(kitchens)
    .leftJoin(images, eq(kitchens.imageId, images.id))
    .leftJoin(ratings, eq(ratings.kitchenId, kitchens.ownerId));
}

type SelectedKitchen = Awaited<ReturnType<ReturnType<typeof selectKitchens>['execute']>>[number];

const fromSelected = (r: SelectedKitchen) =>
  toKitchen(r.kitchens, r.images, toRating(r.reviewCount ?? 0, r.reviewAverage));

/**
 * A kitchen the public sees in lists and can order from: not suspended by an operator, and listed under its place's
 * rules (approved where they ask for a permit: `kitchens.listing`).
 */
export const isListed = () => and(isNull(kitchens.suspendedAt), eq(kitchens.listing, 'listed'));

/** Every listed kitchen, newest first (the landing page's list). */
export async function listKitchens(db: DbOrTx): Promise<Kitchen[]> {
  const rows = await selectKitchens(db)
    .where(isListed())
    .orderBy(desc(kitchens.createdAt), desc(kitchens.ownerId));
  return rows.map(fromSelected);
}

/** The landing page's order without a place: newest first, the owner's id breaking ties. */
export const NEWEST_FIRST: SortColumn[] = [
  { sql: sql`${kitchens.createdAt}`, direction: 'desc', cast: 'micros' },
  { sql: sql`${kitchens.ownerId}`, direction: 'desc', cast: 'uuid' },
];

/**
 * One page of the listed kitchens, newest first: `limit` of them after `cursor` (a `next` this
 * function gave; 400 naming `cursor` otherwise), with the cursor of the page after (null on the last page).
 */
export async function newestKitchensPage(
  db: DbOrTx,
  limit: number,
  cursor?: string,
): Promise<{ kitchens: Kitchen[]; next: string | null }> {
  const from =
    cursor === undefined ? undefined : after(NEWEST_FIRST, decodeCursor(cursor, 'newest', NEWEST_FIRST));
  // Ratings of this page's kitchens only: the join of every kitchen's would aggregate every review.
  const rows = await db
    .select({ kitchens, images, micros: createdMicros(sql`${kitchens.createdAt}`) })
    .from(kitchens)
    .leftJoin(images, eq(kitchens.imageId, images.id))
    .where(and(isListed(), from))
    .orderBy(orderBy(NEWEST_FIRST))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const ratings = await ratingsOf(
    db,
    page.map((r) => r.kitchens.ownerId),
  );
  return {
    kitchens: page.map((r) => toKitchen(r.kitchens, r.images, ratings.get(r.kitchens.ownerId) ?? null)),
    next: rows.length > limit && last ? encodeCursor('newest', [last.micros, last.kitchens.ownerId]) : null,
  };
}

/**
 * The cuisines most listed kitchens cook, most common first (then by name), at most `max`: categories compared
 * without case or surrounding spaces, each shown as one of its kitchens spells it.
 */
export async function topCuisines(db: DbOrTx, max = 12): Promise<string[]> {
  const key = sql`lower(trim(${kitchens.category}))`;
  const rows = await db
    .select({ name: sql<string>`min(trim(${kitchens.category}))` })
    .from(kitchens)
    .where(and(isListed(), sql`${key} <> ''`))
    .groupBy(key)
    .orderBy(sql`count(*) desc`, key)
    .limit(max);
  return rows.map((r) => r.name);
}

/** How many kitchens the landing page lists in all (every listed one). */
export async function countKitchens(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(kitchens).where(isListed());
  return row?.n ?? 0;
}

export async function findKitchen(db: DbOrTx, uid: string): Promise<Kitchen | undefined> {
  const [row] = await selectKitchens(db).where(eq(kitchens.ownerId, uid)).limit(1);
  return row && fromSelected(row);
}

/** The picture the kitchen of `uid` uses now, locked for the write about to change it. */
export async function kitchenImageId(db: DbOrTx, uid: string): Promise<string | null | undefined> {
  const [row] = await db
    .select({ imageId: kitchens.imageId })
    .from(kitchens)
    .where(eq(kitchens.ownerId, uid))
    .for('update');
  return row?.imageId;
}

/**
 * Where the kitchen's address was placed: coordinates, and the country, region and county that pick its rules
 * (src/shared/jurisdictions.ts) when the geocoder names them; null when the geocoder could not place it.
 */
export type KitchenLocation = { lat: number; lon: number; parts?: PlaceParts } | null;

const locationColumns = (location: KitchenLocation) => ({
  latitude: location?.lat ?? null,
  longitude: location?.lon ?? null,
  countryCode: location?.parts?.countryCode ?? null,
  region: location?.parts?.region ?? null,
  county: location?.parts?.county ?? null,
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
  /** Whether its place's rules let it be listed at once (src/shared/jurisdictions.ts, `firstListing`). */
  listing: KitchenListing,
): Promise<boolean> {
  const rows = await db
    .insert(kitchens)
    .values({
      ownerId: owner.id,
      name: input.name,
      category: input.category,
      address: input.address,
      imageLink: input.imageLink ?? null,
      imageId: input.imageId ?? null,
      ownerName: owner.displayName,
      ownerEmail: owner.email,
      deliveryRadiusKm: input.deliveryRadiusKm,
      timeZone: input.timeZone,
      openingHours: input.hours ?? null,
      about: input.about ?? '',
      ...locationColumns(location),
      listing,
    })
    .onConflictDoNothing()
    .returning({ uid: kitchens.ownerId });
  return rows.length > 0;
}

/** The picture columns a patch sets: choosing a link forgets the upload and the other way round. */
export function pictureColumns(patch: { imageLink?: string | undefined; imageId?: string | undefined }) {
  if (patch.imageLink !== undefined) return { imageLink: patch.imageLink, imageId: null };
  if (patch.imageId !== undefined) return { imageLink: null, imageId: patch.imageId };
  return {};
}

/** Changes the owner's kitchen; false when the owner has none. */
export async function updateKitchen(
  db: DbOrTx,
  ownerId: string,
  patch: KitchenUpdateInput,
  /** The new address's place; undefined when the address did not change. */
  location: KitchenLocation | undefined,
): Promise<boolean> {
  const rows = await db
    .update(kitchens)
    .set({
      name: patch.name,
      category: patch.category,
      address: patch.address,
      ...pictureColumns(patch),
      deliveryRadiusKm: patch.deliveryRadiusKm,
      timeZone: patch.timeZone,
      openingHours: patch.hours,
      about: patch.about,
      ...(location === undefined ? {} : locationColumns(location)),
    })
    .where(eq(kitchens.ownerId, ownerId))
    .returning({ uid: kitchens.ownerId });
  return rows.length > 0;
}

/** Pauses new orders (from `now`, until `until` or until resumed) or takes them again; false when no kitchen. */
export async function setOrdersPaused(
  db: DbOrTx,
  ownerId: string,
  pause: { at: Date; until: Date | null } | null,
): Promise<boolean> {
  const rows = await db
    .update(kitchens)
    .set({ pausedAt: pause?.at ?? null, pausedUntil: pause?.until ?? null })
    .where(eq(kitchens.ownerId, ownerId))
    .returning({ uid: kitchens.ownerId });
  return rows.length > 0;
}

/**
 * Sets a kitchen's listing: `state` with the operator's reason and the time they decided (none when the rules alone
 * set it, as on a move to another place). Only from one of `from` (a decision on a kitchen that moved meanwhile, or
 * was decided by another operator, changes nothing); false when nothing changed.
 */
export async function setListing(
  db: DbOrTx,
  uid: string,
  to: { state: KitchenListing; reason: string; decided: boolean },
  from: readonly KitchenListing[],
): Promise<boolean> {
  const rows = await db
    .update(kitchens)
    .set({
      listing: to.state,
      listingReason: to.reason,
      listingDecidedAt: to.decided ? sql`now()` : null,
    })
    .where(and(eq(kitchens.ownerId, uid), inArray(kitchens.listing, [...from])))
    .returning({ uid: kitchens.ownerId });
  return rows.length > 0;
}
