import { SUSPENDED_OR_MISSING } from '../lib/route-doc.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { KitchenParams } from '../../shared/kitchens.js';
import { OrderParams } from '../../shared/orders.js';
import {
  OlderReviewsQuery,
  ReplyInput,
  Review,
  ReviewInput,
  ReviewList,
  ReviewParams,
} from '../../shared/reviews.js';
import { requireUser } from '../identity/sessions.js';
import { kitchenContentAccess } from '../data/kitchen-content-access.js';
import { requireKitchen } from '../data/require-kitchen.js';
import { notFound } from '../lib/errors.js';
import { serveTopic } from '../live/live-route.js';
import { listOlderReviews } from '../data/review-queries.js';
import { addReview, replyToReview } from './review-service.js';
import { reviewsTopic } from './reviews-topic.js';

/** Reviews: a kitchen's live list (public), the customer's rating of a delivered order, the cook's reply. */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/kitchens/:uid/reviews',
    {
      config: {
        doc: {
          summary: "A kitchen's latest 50 reviews with the cook's replies, newest first",
          tags: ['reviews'],
          stream: true,
          responses: { 200: ReviewList },
          errors: { 404: SUSPENDED_OR_MISSING },
        },
      },
      schema: { params: KitchenParams },
    },
    serveTopic(reviewsTopic),
  );

  // The pages after the live one, on request ('Show older reviews'); read as the live list is (kitchenContentAccess).
  app.get(
    '/api/kitchens/:uid/reviews/older',
    {
      config: {
        doc: {
          summary:
            "The next 50 of a kitchen's reviews, older than the one `before` names ('Show older reviews')",
          tags: ['reviews'],
          errors: { 404: 'This kitchen has no review with this id, or it is suspended (as above)' },
        },
      },
      schema: { params: KitchenParams, querystring: OlderReviewsQuery, response: { 200: ReviewList } },
    },
    async (request, reply) => {
      const { params: kitchenUid } = await kitchenContentAccess(request);
      const older = await listOlderReviews(app.db, kitchenUid, request.query.before);
      if (!older) throw notFound('This kitchen has no review with this id');
      return reply.header('cache-control', 'no-store').send(older);
    },
  );

  app.post(
    '/api/orders/:id/review',
    {
      config: {
        doc: {
          summary: "'Rate your order': 1–5 stars and an optional text, once, for one's delivered order",
          tags: ['reviews'],
          cookie: 'customer',
          errors: { 404: 'No such order of yours', 409: 'Not delivered yet, or already rated' },
        },
      },
      schema: { params: OrderParams, body: ReviewInput, response: { 201: Review } },
    },
    async (request, reply) => {
      const customer = await requireUser(request, 'customer');
      const review = await addReview(app, customer.id, request.params.id, request.body);
      if (!review) throw notFound('You have no order with this id');
      return reply.status(201).send(review);
    },
  );

  app.post(
    '/api/kitchen/reviews/:id/reply',
    {
      config: {
        doc: {
          summary: "The cook's one public reply to a review of their kitchen",
          tags: ['reviews'],
          cookie: 'kitchen',
          errors: { 404: 'No such review of your kitchen', 409: 'Already replied' },
        },
      },
      schema: { params: ReviewParams, body: ReplyInput, response: { 200: Review } },
    },
    async (request) => {
      const { kitchen } = await requireKitchen(request);
      const review = await replyToReview(app, kitchen.uid, request.params.id, request.body.reply);
      if (!review) throw notFound('Your kitchen has no review with this id');
      return review;
    },
  );
};
