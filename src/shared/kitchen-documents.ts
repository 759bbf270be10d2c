import { z } from 'zod';
import { msg, t } from './i18n/translator.js';

/** A kitchen's papers: its permit, the operator's food safety certificate, each helper's food handler card. */
export const DOCUMENT_KINDS = ['permit', 'food-safety-certificate', 'food-handler-card'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  permit: msg('Permit number'),
  'food-safety-certificate': msg('Food safety certificate'),
  'food-handler-card': msg('Food handler card'),
};

/** The largest PDF of a paper the server keeps (a photo of one follows the pictures' limit). */
export const MAX_DOCUMENT_PDF_MB = 5;
export const MAX_DOCUMENT_PDF_BYTES = MAX_DOCUMENT_PDF_MB * 1024 * 1024;

/** A photo (a private picture) or a PDF of a paper, as uploaded to `/api/kitchen/document-files`. */
export const DocumentFileRef = z.object(
  {
    type: z.enum(['photo', 'pdf']),
    id: z.string().uuid(),
  },
  { error: () => t('Upload the photo or PDF again') },
);
export type DocumentFileRef = z.infer<typeof DocumentFileRef>;

/** Where the photo or PDF of a paper is shown, to its cook and operators only. */
export const DocumentFile = z.object({ type: z.enum(['photo', 'pdf']), url: z.string() });
export type DocumentFile = z.infer<typeof DocumentFile>;

/** Where a PDF of a paper is served (`content-disposition: inline`). */
export const documentPdfUrl = (id: string) => `/api/document-files/${id}`;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

export const KitchenDocumentInput = z
  .object({
    kind: z.enum(DOCUMENT_KINDS, { error: () => t('Choose which document this is') }),
    /** Its number, as printed on it. */
    number: z
      .string({ error: () => t('Type its number') })
      .trim()
      .min(1, { error: () => t('Type its number') })
      .max(60, { error: () => t('A number is at most 60 characters') })
      .regex(/^[\p{L}\p{N} ./#-]+$/u, {
        error: () => t('A number has letters, digits, spaces and . / # - only'),
      }),
    /** Whose card it is (a helper's name), for a food handler card; '' for the others. */
    holder: z
      .string()
      .trim()
      .max(100, { error: () => t('A name is at most 100 characters') })
      .default(''),
    /** The day it expires (the last day it is valid), YYYY-MM-DD. */
    expiresOn: z
      .string({ error: () => t('Give the day it expires') })
      .regex(isoDate, { error: () => t('Give the day it expires') })
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), {
        error: () => t('Give the day it expires'),
      }),
    /** A photo or PDF of the paper, uploaded first. */
    file: DocumentFileRef.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'food-handler-card' && value.holder === '')
      ctx.addIssue({
        code: 'custom',
        path: ['holder'],
        message: t('Whose card is it? Give the helper’s name'),
      });
  });
export type KitchenDocumentInput = z.infer<typeof KitchenDocumentInput>;

/** `PUT /api/kitchen/documents/:id/file`: the photo or PDF (uploaded first) that a document added earlier shows. */
export const DocumentFileInput = z.object({ file: DocumentFileRef });
export type DocumentFileInput = z.infer<typeof DocumentFileInput>;

export const DocumentParams = z.object({
  id: z.string().uuid({ error: () => t('Document id must be a uuid') }),
});

export const KitchenDocument = z.object({
  id: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  number: z.string(),
  holder: z.string(),
  expiresOn: z.string(),
  addedAt: z.string(),
  file: DocumentFile.nullable(),
});
export type KitchenDocument = z.infer<typeof KitchenDocument>;

/** Why a kitchen takes no orders by itself: a document its rules require is missing, or expired on a day. */
export const DocumentPause = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  /** The day the last one of its kind expired; null when none was ever added. */
  expiredOn: z.string().nullable(),
});
export type DocumentPause = z.infer<typeof DocumentPause>;

export const KitchenDocuments = z.object({
  documents: z.array(KitchenDocument),
  /** The kinds the kitchen's rules require to be in force for it to take orders. */
  required: z.array(z.enum(DOCUMENT_KINDS)),
  pause: DocumentPause.nullable(),
});
export type KitchenDocuments = z.infer<typeof KitchenDocuments>;

/** 409 code: a document the kitchen's rules require is missing or expired. */
export const DOCUMENTS_NOT_IN_FORCE = 'DOCUMENTS_NOT_IN_FORCE';
