import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { imageVariants } from '../db/schema.js';
import type { ImageVariant } from './process-image.js';

export interface StoredVariant {
  contentType: string;
  bytes: Buffer;
}

/**
 * Where the bytes of uploaded pictures live. The database is the default, so every instance (and a backup)
 * sees them; an S3-compatible bucket would implement the same three calls (keys `{id}-{width}.webp`). The
 * `images` table always holds which pictures exist and who uploaded them.
 */
export interface ImageStore {
  put(imageId: string, variants: ImageVariant[]): Promise<void>;
  get(imageId: string, width: number): Promise<StoredVariant | undefined>;
  remove(imageIds: string[]): Promise<void>;
}

/** Sizes as rows of `image_variants` (bytea); removing an `images` row removes its sizes too. */
export class DatabaseImageStore implements ImageStore {
  constructor(private readonly db: DbOrTx) {}

  async put(imageId: string, variants: ImageVariant[]): Promise<void> {
    await this.db
      .insert(imageVariants)
      .values(variants.map((v) => ({ imageId, width: v.width, contentType: v.contentType, bytes: v.bytes })));
  }

  async get(imageId: string, width: number): Promise<StoredVariant | undefined> {
    const [row] = await this.db
      .select({ contentType: imageVariants.contentType, bytes: imageVariants.bytes })
      .from(imageVariants)
      .where(and(eq(imageVariants.imageId, imageId), eq(imageVariants.width, width)));
    return row;
  }

  async remove(imageIds: string[]): Promise<void> {
    if (imageIds.length > 0)
      await this.db.delete(imageVariants).where(inArray(imageVariants.imageId, imageIds));
  }
}
