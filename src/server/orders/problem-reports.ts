import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { msg } from '../../shared/i18n/translator.js';
import {
  PROBLEM_ALREADY_REPORTED,
  PROBLEM_REPORT_CLOSED,
  type OperatorProblemReport,
  type ProblemReport,
} from '../../shared/problem-reports.js';
import type { RefundDish } from '../../shared/refunds.js';
import type { DbOrTx, Tx } from '../db/database.js';
import { images, orderItems, orders, problemReportPhotos, problemReports, reports } from '../db/schema.js';
import { inAfterSaleWindow, toProblemReport, withPhotos } from '../data/problem-report-queries.js';
import { mutate } from '../events/mutate.js';
import { toStoredImage } from '../pictures/image-queries.js';
import type { User } from '../identity/users.js';
import { badRequest, HttpError, notFound } from '../lib/errors.js';
import type { FastifyInstance } from 'fastify';

type ProblemApp = Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock'>;

/** The most characters of a moderation report's reason (`reports_reason_check`). */
const COMPLAINT_MAX = 500;

/** Refuses dishes the order does not have, or more of one than it has, naming `dishes` (400). */
async function checkDishes(tx: Tx, orderId: string, dishes: RefundDish[]) {
  const ordered = await tx
    .select({ item: orderItems.item, priceCents: orderItems.priceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const merged = new Map<string, RefundDish>();
  for (const dish of dishes) {
    const key = JSON.stringify([dish.item, dish.priceCents]);
    const seen = merged.get(key);
    merged.set(key, { ...dish, quantity: (seen?.quantity ?? 0) + dish.quantity });
  }
  for (const dish of merged.values()) {
    const has = ordered.filter((o) => o.item === dish.item && o.priceCents === dish.priceCents).length;
    if (has === 0) throw badRequest(msg('This order has no {dish}'), 'dishes', { dish: dish.item });
    if (dish.quantity > has)
      throw badRequest(msg('This order has {count, plural, one {# {dish}} other {# × {dish}}}'), 'dishes', {
        count: has,
        dish: dish.item,
      });
  }
  return [...merged.values()];
}

/** Holds the customer's own uploaded photos until the transaction ends; another's or an unknown id is refused. */
async function claimPhotos(tx: Tx, ownerId: string, photoIds: string[]) {
  const unique = [...new Set(photoIds)];
  if (unique.length === 0) return [];
  const rows = await tx
    .select()
    .from(images)
    .where(and(inArray(images.id, unique), eq(images.ownerId, ownerId)))
    .for('key share');
  if (rows.length !== unique.length)
    throw badRequest(msg('No photo you uploaded has this id: upload it again'), 'photoIds');
  const byId = new Map(rows.map((row) => [row.id, toStoredImage(row)]));
  return unique.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Files the customer's report of a problem with their delivered (or collected) order, within 48 hours of its
 * delivery by `app.clock`: 404 for an order not theirs, 409 PROBLEM_REPORT_CLOSED out of that time,
 * 409 PROBLEM_ALREADY_REPORTED while a report of it is open, 400 naming the field for dishes it does not have or
 * photos not theirs. 'Made me ill' also files a food-safety complaint about the kitchen for the operators.
 */
export async function fileProblemReport(
  app: ProblemApp,
  customer: User,
  orderId: string,
  input: {
    reason: ProblemReport['reason'];
    dishes: RefundDish[];
    details: string;
    photoIds: string[];
    refundAs?: ProblemReport['refundAs'];
  },
): Promise<ProblemReport> {
  return mutate(app, async (tx, record) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customer.id)))
      .for('update');
    if (!order) throw notFound(msg('You have no order with this id'));
    await inAfterSaleWindow(tx, order, app.clock.now(), PROBLEM_REPORT_CLOSED, {
      notYet: msg('A problem can be reported once the order is delivered or collected'),
      over: msg('A problem can be reported within 48 hours of delivery; please write to the kitchen instead'),
    });
    const [open] = await tx
      .select({ id: problemReports.id })
      .from(problemReports)
      .where(and(eq(problemReports.orderId, orderId), isNull(problemReports.resolvedAt)));
    if (open)
      throw new HttpError(
        409,
        PROBLEM_ALREADY_REPORTED,
        msg('You have already reported a problem with this order; the kitchen will answer it'),
      );
    const dishes = await checkDishes(tx, orderId, input.dishes);
    const photos = await claimPhotos(tx, customer.id, input.photoIds);
    const foodSafety = input.reason === 'made_ill' && order.kitchenId !== null;
    const complaintId = foodSafety ? await fileComplaint(tx, customer.id, order, input.details) : null;
    const [row] = await tx
      .insert(problemReports)
      .values({
        orderId,
        customerId: customer.id,
        reason: input.reason,
        dishes,
        details: input.details,
        complaintId,
        refundAs: input.refundAs ?? 'card',
      })
      .returning();
    if (!row) throw new Error('the problem report was not written');
    if (photos.length > 0)
      await tx
        .insert(problemReportPhotos)
        .values(photos.map((photo, position) => ({ reportId: row.id, imageId: photo.id, position })));
    if (complaintId)
      // The operators' page lists it; the cook hears of it through the report on the order.
      record({ type: 'report.filed', reportId: complaintId, kitchenUid: null });
    record({
      type: 'order.problem-reported',
      orderId,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      reportId: row.id,
      foodSafety,
    });
    return toProblemReport(row, photos);
  });
}

/** The food-safety complaint of 'Made me ill': a report of the kitchen on the operators' page, in English. */
async function fileComplaint(
  tx: Tx,
  customerId: string,
  order: typeof orders.$inferSelect,
  details: string,
): Promise<string> {
  const head = `Food safety: a customer says order ${order.id} made them ill.`;
  const reason = [head, details].filter(Boolean).join(' ');
  const [row] = await tx
    .insert(reports)
    .values({
      reporterId: customerId,
      targetKind: 'kitchen',
      targetId: order.kitchenId as string,
      reason: [...reason].slice(0, COMPLAINT_MAX).join(''),
    })
    .returning({ id: reports.id });
  if (!row) throw new Error('the complaint was not written');
  return row.id;
}

/** The open problem reports, newest first, with their orders: the operators' list. */
export async function openProblemReports(db: DbOrTx, limit = 100): Promise<OperatorProblemReport[]> {
  const rows = await db
    .select({ report: problemReports, order: orders })
    .from(problemReports)
    .innerJoin(orders, eq(orders.id, problemReports.orderId))
    .where(isNull(problemReports.resolvedAt))
    .orderBy(desc(problemReports.createdAt), desc(problemReports.id))
    .limit(limit);
  const reportsById = await withPhotos(
    db,
    rows.map((r) => r.report),
    (row) => row.id,
  );
  return rows.flatMap(({ report, order }) => {
    const found = reportsById.get(report.id);
    return found
      ? [
          {
            ...found,
            orderId: order.id,
            kitchenName: order.kitchenName,
            totalCents: order.totalCents,
          },
        ]
      : [];
  });
}

/**
 * 'Close without refund' (ADR 25): the order's cook (its kitchen's order) or an operator closes its open report,
 * with a reason its customer reads. 404 for an order not the kitchen's, or with no open report.
 */
export async function closeProblemReport(
  app: ProblemApp,
  by: { role: 'kitchen'; kitchenUid: string } | { role: 'operator' },
  orderId: string,
  reason: string,
): Promise<ProblemReport> {
  return mutate(app, async (tx, record) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(
        by.role === 'kitchen'
          ? and(eq(orders.id, orderId), eq(orders.kitchenId, by.kitchenUid))
          : eq(orders.id, orderId),
      )
      .for('update');
    if (!order) throw notFound(msg('No such order'));
    const [row] = await tx
      .update(problemReports)
      .set({ resolvedAt: sql`now()`, closedBy: by.role, closedReason: reason })
      .where(and(eq(problemReports.orderId, orderId), isNull(problemReports.resolvedAt)))
      .returning();
    if (!row) throw notFound(msg('This order has no open problem report'));
    record({
      type: 'order.problem-closed',
      orderId,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
      reportId: row.id,
    });
    const photos = await withPhotos(tx, [row], (r) => r.id);
    return photos.get(row.id) ?? toProblemReport(row, []);
  });
}

/** A refund of the order answers its open report (in the refund's transaction). */
export async function resolveProblemReports(
  tx: Tx,
  orderId: string,
): Promise<ProblemReport['refundAs'] | undefined> {
  const [resolved] = await tx
    .update(problemReports)
    .set({ resolvedAt: sql`now()` })
    .where(and(eq(problemReports.orderId, orderId), isNull(problemReports.resolvedAt)))
    .returning({ refundAs: problemReports.refundAs });
  return resolved?.refundAs;
}
