import { and, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { StoredImage } from '../../shared/images.js';
import type { DbOrTx } from '../db/database.js';
import { images, orders, problemReportPhotos, problemReports } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';
import type { ProcessedImage } from './process-image.js';
import { msg } from '../../shared/i18n/translator.js';

type ImageRow = typeof images.$inferSelect;

export const toStoredImage = (row: ImageRow): StoredImage => ({
  id: row.id,
  width: row.width,
  height: row.height,
  widths: row.widths,
});

/** Records an uploaded picture of `ownerId`; its bytes go to the image store. */
export async function insertImage(
  db: DbOrTx,
  ownerId: string,
  image: ProcessedImage,
  { private: isPrivate = false }: { private?: boolean } = {},
): Promise<StoredImage> {
  const [row] = await db
    .insert(images)
    .values({
      ownerId,
      private: isPrivate,
      width: image.width,
      height: image.height,
      widths: image.variants.map((v) => v.width),
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toStoredImage(row);
}

export async function findImage(db: DbOrTx, id: string): Promise<StoredImage | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row && toStoredImage(row);
}

/**
 * Checks that `ownerId` uploaded picture `imageId` before it is attached, and holds it (key share) until the
 * transaction ends so the clean-up cannot delete it meanwhile. Another cook's picture is "not found" to them.
 */
export async function claimImage(db: DbOrTx, ownerId: string, imageId: string): Promise<void> {
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, imageId), eq(images.ownerId, ownerId)))
    .for('key share');
  if (rows.length === 0)
    throw new HttpError(
      404,
      'NOT_FOUND',
      msg('No photo you uploaded has this id: upload it again'),
      'imageId',
    );
}

const unused: SQL = sql`not exists (select 1 from kitchens k where k.image_id = ${images.id})
  and not exists (select 1 from menu_items m where m.image_id = ${images.id})
  and not exists (select 1 from problem_report_photos p where p.image_id = ${images.id})
  and not exists (select 1 from kitchen_documents d where d.image_id = ${images.id})`;

/** Deletes those of `ids` that no kitchen, dish, problem report or kitchen paper uses any more; returns the ids deleted. */
export async function deleteUnusedImages(db: DbOrTx, ids: (string | null | undefined)[]): Promise<string[]> {
  const candidates = ids.filter((id): id is string => typeof id === 'string');
  if (candidates.length === 0) return [];
  const rows = await db
    .delete(images)
    .where(and(inArray(images.id, candidates), unused))
    .returning({ id: images.id });
  return rows.map((r) => r.id);
}

/** Deletes pictures uploaded before `before` and never used (a form abandoned after its upload). */
export async function deleteAbandonedImages(db: DbOrTx, before: Date): Promise<string[]> {
  const rows = await db
    .delete(images)
    .where(and(lt(images.createdAt, before), unused))
    .returning({ id: images.id });
  return rows.map((r) => r.id);
}

/**
 * Whether `userIds` (the request's signed-in users) may see private picture `imageId`: its uploader, or the kitchen
 * of an order whose problem report holds it. Undefined for no picture by that id; true for a public one.
 */
export async function mayViewImage(
  db: DbOrTx,
  imageId: string,
  userIds: string[],
): Promise<boolean | undefined> {
  const viewers =
    userIds.length > 0 ? or(inArray(images.ownerId, userIds), attachedForKitchenOf(userIds)) : sql`false`;
  const [row] = await db
    .select({ allowed: sql<boolean>`not ${images.private} or coalesce(${viewers}, false)` })
    .from(images)
    .where(eq(images.id, imageId));
  return row?.allowed;
}

/** The picture is a photo of a problem report about an order of the kitchens of `kitchenIds`. */
const attachedForKitchenOf = (kitchenIds: string[]) => sql`exists (
  select 1 from ${problemReportPhotos}
    join ${problemReports} on ${problemReports.id} = ${problemReportPhotos.reportId}
    join ${orders} on ${orders.id} = ${problemReports.orderId}
  where ${problemReportPhotos.imageId} = ${images.id} and ${inArray(orders.kitchenId, kitchenIds)})`;
