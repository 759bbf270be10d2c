import { and, desc, eq } from 'drizzle-orm';
import type { DocumentKind, DocumentPause, KitchenDocument } from '../../shared/kitchen-documents.js';
import type { Rules } from '../../shared/jurisdictions.js';
import type { DbOrTx } from '../db/database.js';
import { kitchenDocuments } from '../db/schema.js';

/** The documents a kitchen's rules require in force before it takes orders: its permit, the operator's certificate. */
export function requiredDocuments(rules: Rules): DocumentKind[] {
  const kinds: DocumentKind[] = [];
  if (rules.permit) kinds.push('permit');
  if (rules.certificates.some((c) => c.who === 'operator')) kinds.push('food-safety-certificate');
  return kinds;
}

/** A kitchen's documents, newest expiry first. */
export async function listDocuments(db: DbOrTx, kitchenUid: string): Promise<KitchenDocument[]> {
  const rows = await db
    .select()
    .from(kitchenDocuments)
    .where(eq(kitchenDocuments.kitchenId, kitchenUid))
    .orderBy(kitchenDocuments.kind, desc(kitchenDocuments.expiresOn), desc(kitchenDocuments.createdAt));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    number: r.number,
    holder: r.holder,
    expiresOn: r.expiresOn,
    addedAt: r.createdAt.toISOString(),
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
