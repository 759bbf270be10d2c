import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  firstName,
  REVIEWS_SHOWN,
  type OrderReview,
  type Rating,
  type Review,
} from '../../shared/reviews.js';
import type { DbOrTx } from '../db/database.js';
import { orders, reviews, users } from '../db/schema.js';

/** Reviews an operator has not hidden: the only ones shown or counted. */
const visible = isNull(reviews.hiddenAt);

/** Rounds an average to the one decimal the screens show. */
export const toRating = (count: number, average: number | null): Rating | null =>
  count > 0 && average !== null ? { average: Math.round(average * 10) / 10, count } : null;

/** Each kitchen's count and average of visible reviews, as a subquery to join on `kitchenId`. */
export const ratingsSubquery = (db: DbOrTx) =>
  db
    .select({
      kitchenId: reviews.kitchenId,
      count: sql<number>`count(*)::int`.as('review_count'),
      average: sql<number>`avg(${reviews.stars})::float8`.as('review_average'),
    })
    .from(reviews)
    .where(visible)
    .groupBy(reviews.kitchenId)
    .as('ratings');

/** The ratings of these kitchens (those without a visible review are absent). */
export async function ratingsOf(db: DbOrTx, kitchenUids: readonly string[]): Promise<Map<string, Rating>> {
  if (kitchenUids.length === 0) return new Map();
  const rows = await db
    .select({
      kitchenId: reviews.kitchenId,
      count: sql<number>`count(*)::int`,
      average: sql<number>`avg(${reviews.stars})::float8`,
    })
    .from(reviews)
    .where(and(visible, inArray(reviews.kitchenId, [...kitchenUids])))
    .groupBy(reviews.kitchenId);
  const map = new Map<string, Rating>();
  for (const row of rows) {
    const rating = toRating(row.count, row.average);
    if (rating) map.set(row.kitchenId, rating);
  }
  return map;
}

/**
 * A page of a kitchen's visible reviews, newest first, the reviewer by first name: the latest, or those older (by
 * created_at, then id) than its review `beforeId`.
 */
export async function listReviews(db: DbOrTx, kitchenUid: string, beforeId?: string): Promise<Review[]> {
  const rows = await db
    .select({ review: reviews, displayName: users.displayName })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.customerId))
    .where(
      and(
        eq(reviews.kitchenId, kitchenUid),
        visible,
        // The cursor's timestamp is compared inside the database, at full precision.
        beforeId === undefined
          ? undefined
          : sql`(${reviews.createdAt}, ${reviews.id}) < (select r.created_at, r.id from ${reviews} r where r.id = ${beforeId})`,
      ),
    )
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEWS_SHOWN);
  return rows.map(({ review, displayName }) => toReview(review, displayName));
}

/**
 * The page of a kitchen's reviews after its review `beforeId` (a hidden one still works as the cursor: a browser may
 * hold it); undefined when the kitchen has no such review.
 */
export async function listOlderReviews(
  db: DbOrTx,
  kitchenUid: string,
  beforeId: string,
): Promise<Review[] | undefined> {
  const [cursor] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.id, beforeId), eq(reviews.kitchenId, kitchenUid)))
    .limit(1);
  return cursor ? listReviews(db, kitchenUid, beforeId) : undefined;
}

export function toReview(review: typeof reviews.$inferSelect, displayName: string): Review {
  return {
    id: review.id,
    stars: review.stars,
    text: review.text,
    reviewerName: firstName(displayName),
    createdAt: review.createdAt.toISOString(),
    reply: review.reply,
    repliedAt: review.repliedAt?.toISOString() ?? null,
  };
}

/** The customer's own reviews of these orders (hidden or not: it is theirs), by order id. */
export async function reviewsOfOrders(
  db: DbOrTx,
  orderIds: readonly string[],
): Promise<Map<string, OrderReview>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({
      orderId: reviews.orderId,
      stars: reviews.stars,
      text: reviews.text,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(inArray(reviews.orderId, [...orderIds]));
  return new Map(
    rows.map((r) => [r.orderId, { stars: r.stars, text: r.text, createdAt: r.createdAt.toISOString() }]),
  );
}

/**
 * When the kitchen's reviews last changed (one written, answered or hidden), or null before the first: the
 * one-kitchen topic carries it, so a page showing the reviews asks for them again when it moves, without a
 * stream of their own (a browser holds only six connections to a site over HTTP/1.1, streams included).
 */
export async function reviewsChangedAt(db: DbOrTx, kitchenUid: string): Promise<string | null> {
  const [row] = await db
    .select({
      at: sql<
        string | Date | null
      >`max(greatest(${reviews.createdAt}, ${reviews.repliedAt}, ${reviews.hiddenAt}))`,
    })
    .from(reviews)
    .where(eq(reviews.kitchenId, kitchenUid));
  return row?.at ? new Date(row.at).toISOString() : null;
}

/** How many of the kitchen's orders were delivered. */
export async function deliveredOrders(db: DbOrTx, kitchenUid: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.kitchenId, kitchenUid), eq(orders.state, 'delivered')));
  return row?.n ?? 0;
}
