import { and, desc, eq } from 'drizzle-orm';
import {
  documentPdfUrl,
  type DocumentKind,
  type DocumentPause,
  type KitchenDocument,
} from '../../shared/kitchen-documents.js';
import { imageUrl } from '../../shared/image-urls.js';
import type { Rules } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { images, kitchenDocuments } from '../db/schema.js';

/** The documents a kitchen's rules require in force before it takes orders: its permit, the operator's certificate. */
export function requiredDocuments(rules: Rules): DocumentKind[] {
  const kinds: DocumentKind[] = [];
  if (rules.permit) kinds.push('permit');
  if (rules.certificates.some((c) => c.who === 'operator')) kinds.push('food-safety-certificate');
  return kinds;
}

/** Where the photo (its largest size) or PDF of a paper is shown, or null without one. */
export function documentFile(row: {
  fileId: string | null;
  imageId: string | null;
  widths: number[] | null;
}) {
  if (row.fileId) return { type: 'pdf', url: documentPdfUrl(row.fileId) } as const;
  if (row.imageId)
    return { type: 'photo', url: imageUrl(row.imageId, Math.max(...(row.widths ?? [0]))) } as const;
  return null;
}

/** Kitchen documents with the sizes of their photos (`widths`, null without one), for `documentFile`. */
export const documentsWithFiles = (db: DbOrTx) =>
  db
    .select({ document: kitchenDocuments, widths: images.widths })
    .from(kitchenDocuments)
    .leftJoin(images, eq(images.id, kitchenDocuments.imageId));

/** A kitchen's documents, newest expiry first. */
export async function listDocuments(db: DbOrTx, kitchenUid: string): Promise<KitchenDocument[]> {
  const rows = await documentsWithFiles(db)
    .where(eq(kitchenDocuments.kitchenId, kitchenUid))
    .orderBy(kitchenDocuments.kind, desc(kitchenDocuments.expiresOn), desc(kitchenDocuments.createdAt));
  return rows.map(({ document: r, widths }) => ({
    id: r.id,
    kind: r.kind,
    number: r.number,
    holder: r.holder,
    expiresOn: r.expiresOn,
    addedAt: r.createdAt.toISOString(),
    file: documentFile({ ...r, widths }),
  }));
}

/**
 * Why the kitchen takes no orders by itself on `today` (its local date): the first required kind with no document
 * valid that day (the last day of a document is the day it expires), or null when every one is in force.
 */
export async function documentPause(
  db: DbOrTx,
  kitchenUid: string,
  required: readonly DocumentKind[],
  today: string,
): Promise<DocumentPause | null> {
  for (const kind of required) {
    const [latest] = await db
      .select({ expiresOn: kitchenDocuments.expiresOn })
      .from(kitchenDocuments)
      .where(and(eq(kitchenDocuments.kitchenId, kitchenUid), eq(kitchenDocuments.kind, kind)))
      .orderBy(desc(kitchenDocuments.expiresOn))
      .limit(1);
    if (!latest) return { kind, expiredOn: null };
    if (latest.expiresOn < today) return { kind, expiredOn: latest.expiresOn };
  }
  return null;
}

/** The permit number a kitchen's menu page shows (its permit valid latest), or null. */
export async function permitNumber(db: DbOrTx, kitchenUid: string): Promise<string | null> {
  const [row] = await db
    .select({ number: kitchenDocuments.number })
    .from(kitchenDocuments)
    .where(and(eq(kitchenDocuments.kitchenId, kitchenUid), eq(kitchenDocuments.kind, 'permit')))
    .orderBy(desc(kitchenDocuments.expiresOn))
    .limit(1);
  return row?.number ?? null;
}
