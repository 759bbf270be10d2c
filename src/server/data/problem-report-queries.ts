import { and, asc, eq, inArray, max } from 'drizzle-orm';
import type { ProblemReport } from '../../shared/problem-reports.js';
import { PROBLEM_REPORT_WINDOW_MS } from '../../shared/problem-reports.js';
import type { DbOrTx } from '../db/database.js';
import { HttpError } from '../lib/errors.js';
import { images, orderEvents, problemReportPhotos, problemReports } from '../db/schema.js';
import { toStoredImage } from '../pictures/image-queries.js';
import type { StoredImage } from '../../shared/images.js';

type ReportRow = typeof problemReports.$inferSelect;

/** When the order was delivered (or collected): its `delivered` event. */
export async function deliveredAt(db: DbOrTx, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(orderEvents.createdAt) })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.state, 'delivered')));
  return row?.at ?? null;
}

/** Until when a problem can be reported on an order delivered at `at`. */
export const reportableUntil = (at: Date) => new Date(at.getTime() + PROBLEM_REPORT_WINDOW_MS);

/**
 * The after-sale window (a problem report, a tip): when `order` was delivered or collected, if `now` is within the 48
 * hours after; otherwise a 409 `code` saying `notYet` (not delivered) or `over` (the hours have passed).
 */
export async function inAfterSaleWindow(
  db: DbOrTx,
  order: { id: string; state: string },
  now: number,
  code: string,
  says: { notYet: string; over: string },
): Promise<Date> {
  const delivered = order.state === 'delivered' ? await deliveredAt(db, order.id) : null;
  if (!delivered) throw new HttpError(409, code, says.notYet);
  if (now > reportableUntil(delivered).getTime()) throw new HttpError(409, code, says.over);
  return delivered;
}

export const toProblemReport = (row: ReportRow, photos: StoredImage[]): ProblemReport => ({
  id: row.id,
  reason: row.reason,
  dishes: row.dishes.map(({ item, priceCents, quantity }) => ({ item, priceCents, quantity })),
  details: row.details,
  photos,
  createdAt: row.createdAt.toISOString(),
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
  closedBy: row.closedBy,
  closedReason: row.closedReason,
  refundAs: row.refundAs,
});

/** Each order's latest problem report, with its photos, by order id. */
export async function latestProblemReports(
  db: DbOrTx,
  orderIds: string[],
): Promise<Map<string, ProblemReport>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(problemReports)
    .where(inArray(problemReports.orderId, orderIds))
    .orderBy(asc(problemReports.createdAt), asc(problemReports.id));
  return withPhotos(db, rows, (row) => row.orderId);
}

export async function withPhotos(db: DbOrTx, rows: ReportRow[], keyOf: (row: ReportRow) => string) {
  const photos =
    rows.length === 0
      ? []
      : await db
          .select({ reportId: problemReportPhotos.reportId, image: images })
          .from(problemReportPhotos)
          .innerJoin(images, eq(images.id, problemReportPhotos.imageId))
          .where(
            inArray(
              problemReportPhotos.reportId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(problemReportPhotos.position));
  const result = new Map<string, ProblemReport>();
  for (const row of rows)
    result.set(
      keyOf(row),
      toProblemReport(
        row,
        photos.filter((p) => p.reportId === row.id).map((p) => toStoredImage(p.image)),
      ),
    );
  return result;
}
