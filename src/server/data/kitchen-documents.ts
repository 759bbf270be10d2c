import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  documentPdfUrl,
  type DocumentKind,
  type DocumentPause,
  type HelperCardRule,
  type KitchenDocument,
  type KitchenHelper,
} from '../../shared/kitchen-documents.js';
import { imageUrl } from '../../shared/image-urls.js';
import type { Rules } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { images, kitchenDocuments, kitchenHelpers } from '../db/schema.js';

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

const DAY_MS = 86_400_000;
/** `day` (YYYY-MM-DD) moved by `days`. */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The card a kitchen's rules ask of each helper (the profile's certificate for helpers), with its source, or null. */
export function helperCardRule(rules: Rules): HelperCardRule | null {
  const rule = rules.certificates.find((c) => c.who === 'helpers');
  if (!rule) return null;
  return {
    name: rule.name,
    withinDays: rule.withinDays,
    source: rule.source ? { title: rule.source.title, url: rule.source.url } : null,
  };
}

/** The last day a helper who started on `startedOn` may add their card: within N days of it (null N: before it). */
export const cardDueOn = (rule: HelperCardRule, startedOn: string) =>
  addDays(startedOn, rule.withinDays ?? 0);

/** A food handler card is a helper's when its holder is their name, without case or surrounding spaces. */
const holderIs = (name: string) => sql`lower(trim(${kitchenDocuments.holder})) = lower(trim(${name}))`;

/**
 * A kitchen's helpers, each with the day their card is due under `rule` (null: none asked) and their card valid
 * latest; by the day they started.
 */
export async function listHelpers(
  db: DbOrTx,
  kitchenUid: string,
  rule: HelperCardRule | null,
): Promise<KitchenHelper[]> {
  const helpers = await db
    .select()
    .from(kitchenHelpers)
    .where(eq(kitchenHelpers.kitchenId, kitchenUid))
    .orderBy(asc(kitchenHelpers.startedOn), asc(kitchenHelpers.createdAt));
  return Promise.all(
    helpers.map(async (helper) => {
      const [card] = await db
        .select({ number: kitchenDocuments.number, expiresOn: kitchenDocuments.expiresOn })
        .from(kitchenDocuments)
        .where(
          and(
            eq(kitchenDocuments.kitchenId, kitchenUid),
            eq(kitchenDocuments.kind, 'food-handler-card'),
            holderIs(helper.name),
          ),
        )
        .orderBy(desc(kitchenDocuments.expiresOn))
        .limit(1);
      return {
        id: helper.id,
        name: helper.name,
        startedOn: helper.startedOn,
        dueOn: rule ? cardDueOn(rule, helper.startedOn) : null,
        card: card ?? null,
      };
    }),
  );
}

/**
 * Why the kitchen takes no orders on `today` (its local date) for a helper: the first helper past the day their card
 * was due (by the day they started) with no card valid today (never added, or expired), or null.
 */
export async function helperCardPause(
  db: DbOrTx,
  kitchenUid: string,
  rule: HelperCardRule | null,
  today: string,
): Promise<DocumentPause | null> {
  if (!rule) return null;
  for (const helper of await listHelpers(db, kitchenUid, rule)) {
    if (helper.dueOn === null || today <= helper.dueOn) continue;
    if (helper.card && helper.card.expiresOn >= today) continue;
    return {
      kind: 'food-handler-card',
      expiredOn: helper.card?.expiresOn ?? null,
      holder: helper.name,
      dueOn: helper.dueOn,
    };
  }
  return null;
}

/** Every reason a kitchen's papers keep it from taking orders on `today`: its own documents first, then its helpers'. */
export async function papersPause(
  db: DbOrTx,
  kitchenUid: string,
  rules: Rules,
  today: string,
): Promise<DocumentPause | null> {
  return (
    (await documentPause(db, kitchenUid, requiredDocuments(rules), today)) ??
    (await helperCardPause(db, kitchenUid, helperCardRule(rules), today))
  );
}
