import type { FastifyInstance } from 'fastify';
import type { StoredImage } from '../../shared/images.js';
import type { Tx } from '../db/database.js';
import type { RecordEvent } from '../events/domain-events.js';
import { mutate } from '../events/mutate.js';
import { deleteUnusedImages, insertImage } from './image-queries.js';
import { processImage } from './process-image.js';

export type ImagesApp = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'imageStore'>;

/**
 * Checks, converts and stores a picture `ownerId` uploaded; it is theirs to attach to their kitchen or dishes (or,
 * `private`, to their problem report: see `mayViewImage`).
 */
export async function storeUpload(
  app: Pick<FastifyInstance, 'db' | 'imageStore'>,
  ownerId: string,
  bytes: Buffer,
  options: { trusted?: boolean; private?: boolean } = {},
): Promise<StoredImage> {
  const processed = await processImage(bytes, options);
  const image = await insertImage(app.db, ownerId, processed, options);
  try {
    await app.imageStore.put(image.id, processed.variants);
  } catch (error) {
    await deleteUnusedImages(app.db, [image.id]);
    throw error;
  }
  return image;
}

/**
 * A write (in `mutate`) that may leave pictures unused: `write` returns its result and the ids of the pictures
 * it replaced or dropped. Those nothing uses any more are deleted in the same transaction, and their bytes from
 * the store once it committed.
 */
export async function writeReleasingImages<T>(
  app: ImagesApp,
  write: (tx: Tx, record: RecordEvent) => Promise<{ result: T; released: (string | null | undefined)[] }>,
): Promise<T> {
  const { result, freed } = await mutate(app, async (tx, record) => {
    const { result, released } = await write(tx, record);
    return { result, freed: await deleteUnusedImages(tx, released) };
  });
  await app.imageStore.remove(freed);
  return result;
}
