import type { FastifyInstance } from 'fastify';
import { reviews } from '../db/schema.js';
import { buildOrder } from './builders.js';
import type { Kitchen } from '../../shared/kitchens.js';
import type { User } from '../identity/users.js';
import type { TestContext } from './test-app.js';

/** The operators of the moderation tests' apps. */
export const OPERATOR_EMAIL = 'ops@example.test';
export const OTHER_OPERATOR_EMAIL = 'Second.Ops@Example.test';
export const operatorEnv = { OPERATOR_EMAILS: `${OPERATOR_EMAIL}, ${OTHER_OPERATOR_EMAIL}` };

/** A call to the API as a browser of our own origin would make it. */
export function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  cookie?: string,
  body?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/**
 * A review of `customer`'s order at `kitchen`, written straight into the table (reviews' own routes belong to
 * their feature; the schema is all moderation needs).
 */
export async function buildReview(ctx: TestContext, kitchen: Kitchen, customer: User, text = 'Too salty') {
  const order = await buildOrder(ctx, kitchen, customer);
  const [review] = await ctx.database.db
    .insert(reviews)
    .values({ orderId: order.id, kitchenId: kitchen.uid, customerId: customer.id, stars: 2, text })
    .returning();
  if (!review) throw new Error('review not created');
  return review;
}
