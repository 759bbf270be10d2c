import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Review, ReviewInput } from '../../shared/reviews.js';
import { orders, reviews, users } from '../db/schema.js';
import type { DbOrTx } from '../db/database.js';
import { conflict, HttpError } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import { toReview } from '../data/review-queries.js';
import { msg } from '../../shared/i18n/translator.js';

type App = Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>;

async function findReview(db: DbOrTx, id: string): Promise<Review | undefined> {
  const [row] = await db
    .select({ review: reviews, displayName: users.displayName })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.customerId))
    .where(eq(reviews.id, id));
  return row && toReview(row.review, row.displayName);
}

/**
 * 'Rate your order': the customer's one review of their delivered order. Undefined when the customer has no such
 * order; 409 when it is not delivered (yet) or already rated.
 */
export function addReview(
  app: App,
  customerId: string,
  orderId: string,
  input: ReviewInput,
): Promise<Review | undefined> {
  return mutate(app, async (tx, record) => {
    const [order] = await tx
      .select({ kitchenId: orders.kitchenId, state: orders.state })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.customerId, customerId)));
    if (!order) return undefined;
    if (order.state !== 'delivered')
      throw new HttpError(409, 'NOT_DELIVERED', msg('You can rate an order once it is delivered'), 'stars');
    if (order.kitchenId === null) throw conflict('This kitchen has closed: it can no longer be rated');
    // The unique order_id decides a race between two tabs: one review per order.
    const [created] = await tx
      .insert(reviews)
      .values({ orderId, kitchenId: order.kitchenId, customerId, stars: input.stars, text: input.text ?? '' })
      .onConflictDoNothing()
      .returning({ id: reviews.id });
    if (!created) throw new HttpError(409, 'ALREADY_REVIEWED', msg('You have already rated this order'));
    record({
      type: 'review.written',
      reviewId: created.id,
      kitchenUid: order.kitchenId,
      orderId,
      customerId,
    });
    return findReview(tx, created.id);
  });
}

/**
 * The cook's one public reply to a review of their kitchen. Undefined when their kitchen has no such (visible)
 * review; 409 when they have already replied.
 */
export function replyToReview(
  app: App,
  kitchenUid: string,
  reviewId: string,
  reply: string,
): Promise<Review | undefined> {
  return mutate(app, async (tx, record) => {
    const ours = and(eq(reviews.id, reviewId), eq(reviews.kitchenId, kitchenUid), isNull(reviews.hiddenAt));
    const [updated] = await tx
      .update(reviews)
      .set({ reply, repliedAt: sql`now()` })
      .where(and(ours, isNull(reviews.reply)))
      .returning({ id: reviews.id });
    if (!updated) {
      const [exists] = await tx.select({ id: reviews.id }).from(reviews).where(ours);
      if (!exists) return undefined;
      throw new HttpError(409, 'ALREADY_REPLIED', msg('You have already replied to this review'), 'reply');
    }
    record({ type: 'review.replied', reviewId, kitchenUid });
    return findReview(tx, reviewId);
  });
}
