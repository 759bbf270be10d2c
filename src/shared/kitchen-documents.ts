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

/**
 * Why a kitchen takes no orders by itself: a document its rules require is missing, or expired on a day; or a
 * helper's food handler card, past the day it was due (`holder`, `dueOn`).
 */
export const DocumentPause = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  /** The day the last one of its kind (the helper's) expired; null when none was ever added. */
  expiredOn: z.string().nullable(),
  /** For a helper's card: whose it is, and the last day it could be added in time. */
  holder: z.string().optional(),
  dueOn: z.string().optional(),
});
export type DocumentPause = z.infer<typeof DocumentPause>;

/** `POST /api/kitchen/helpers`: someone who cooks with the cook, and the day they started. */
export const HelperInput = z.object({
  name: z
    .string({ error: () => t('Give the helper’s name') })
    .trim()
    .min(1, { error: () => t('Give the helper’s name') })
    .max(100, { error: () => t('A name is at most 100 characters') }),
  startedOn: z
    .string({ error: () => t('Give the day they started') })
    .regex(isoDate, { error: () => t('Give the day they started') })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), {
      error: () => t('Give the day they started'),
    }),
});
export type HelperInput = z.infer<typeof HelperInput>;

export const HelperParams = z.object({
  id: z.string().uuid({ error: () => t('Helper id must be a uuid') }),
});

/** A helper, and where the rules ask for their food handler card: the day it is due, and the card in force. */
export const KitchenHelper = z.object({
  id: z.string(),
  name: z.string(),
  startedOn: z.string(),
  /** The last day their card may be added (null: the kitchen's rules ask helpers for no card). */
  dueOn: z.string().nullable(),
  /** Their food handler card valid latest (by its holder, their name), or null. */
  card: z.object({ number: z.string(), expiresOn: z.string() }).nullable(),
});
export type KitchenHelper = z.infer<typeof KitchenHelper>;

/** What the kitchen's rules ask of its helpers: a card, within how many days of starting, and where the law says so. */
export const HelperCardRule = z.object({
  name: z.string(),
  /** Null: before they start. */
  withinDays: z.number().int().nullable(),
  source: z.object({ title: z.string(), url: z.string() }).nullable(),
});
export type HelperCardRule = z.infer<typeof HelperCardRule>;

export const KitchenDocuments = z.object({
  documents: z.array(KitchenDocument),
  /** The kinds the kitchen's rules require to be in force for it to take orders. */
  required: z.array(z.enum(DOCUMENT_KINDS)),
  pause: DocumentPause.nullable(),
  helpers: z.array(KitchenHelper),
  /** The card the rules ask of each helper (null: none). */
  helperCard: HelperCardRule.nullable(),
});
export type KitchenDocuments = z.infer<typeof KitchenDocuments>;

/** 409 code: a document the kitchen's rules require is missing or expired. */
export const DOCUMENTS_NOT_IN_FORCE = 'DOCUMENTS_NOT_IN_FORCE';
