import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { MAX_DOCUMENT_PDF_BYTES, MAX_DOCUMENT_PDF_MB } from '../../shared/kitchen-documents.js';
import { msg } from '../../shared/i18n/translator.js';
import type { DbOrTx } from '../db/database.js';
import { documentFiles, images } from '../db/schema.js';
import { HttpError } from '../lib/errors.js';

/** Whether `bytes` begin as every PDF does (`%PDF-`): the type comes from the bytes, whatever the file is called. */
export const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/** Stores a PDF of a paper `ownerId` uploaded (checked first: a PDF, 5 MB at most); it is theirs to attach. */
export async function insertDocumentPdf(db: DbOrTx, ownerId: string, bytes: Buffer): Promise<string> {
  if (!isPdf(bytes)) throw new HttpError(415, 'UNSUPPORTED_FILE', msg('This file is not a PDF'), 'file');
  if (bytes.length > MAX_DOCUMENT_PDF_BYTES)
    throw new HttpError(413, 'FILE_TOO_LARGE', msg('A PDF is at most {size} MB'), 'file', undefined, {
      size: MAX_DOCUMENT_PDF_MB,
    });
  const [row] = await db.insert(documentFiles).values({ ownerId, bytes }).returning({ id: documentFiles.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** A stored PDF's bytes when one of `userIds` uploaded it (or `anyone`: an operator); undefined otherwise. */
export async function readDocumentPdf(
  db: DbOrTx,
  id: string,
  viewer: { userIds: string[]; anyone: boolean },
): Promise<Buffer | undefined> {
  if (!viewer.anyone && viewer.userIds.length === 0) return undefined;
  const [row] = await db
    .select({ bytes: documentFiles.bytes, ownerId: documentFiles.ownerId })
    .from(documentFiles)
    .where(eq(documentFiles.id, id));
  return row && (viewer.anyone || viewer.userIds.includes(row.ownerId)) ? row.bytes : undefined;
}

const noSuchUpload = () =>
  new HttpError(404, 'NOT_FOUND', msg('No photo or PDF you uploaded has this id: upload it again'), 'file');

/**
 * Checks that `ownerId` uploaded the photo (a private picture) or PDF before it is attached to a paper, and holds
 * it (key share) until the transaction ends so the clean-up cannot delete it meanwhile.
 */
export async function claimDocumentFile(
  db: DbOrTx,
  ownerId: string,
  file: { type: 'photo' | 'pdf'; id: string },
): Promise<void> {
  const rows =
    file.type === 'photo'
      ? await db
          .select({ id: images.id })
          .from(images)
          .where(and(eq(images.id, file.id), eq(images.ownerId, ownerId), eq(images.private, true)))
          .for('key share')
      : await db
          .select({ id: documentFiles.id })
          .from(documentFiles)
          .where(and(eq(documentFiles.id, file.id), eq(documentFiles.ownerId, ownerId)))
          .for('key share');
  if (rows.length === 0) throw noSuchUpload();
}

const unusedPdf: SQL = sql`not exists (select 1 from kitchen_documents d where d.file_id = ${documentFiles.id})`;

/** Deletes PDFs uploaded before `before` and attached to no paper (a form abandoned after its upload). */
export async function deleteAbandonedDocumentPdfs(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(documentFiles)
    .where(and(lt(documentFiles.createdAt, before), unusedPdf))
    .returning({ id: documentFiles.id });
  return rows.length;
}
