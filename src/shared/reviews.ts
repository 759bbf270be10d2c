import { z } from 'zod';
import { multilineText } from './fields.js';
import { msg, t, translator, type Translator } from './i18n/translator.js';

export * from './review-texts.js';

export const MAX_REVIEW_TEXT = 1000;

/** A kitchen's average of its visible reviews (one decimal) and how many there are. */
export const Rating = z.object({ average: z.number(), count: z.number().int() });
export type Rating = z.infer<typeof Rating>;

/** A review as the kitchen's page shows it: the reviewer by first name only. */
export const Review = z.object({
  id: z.string().uuid(),
  stars: z.number().int(),
  text: z.string(),
  reviewerName: z.string(),
  createdAt: z.string(),
  /** The cook's public answer, once given. */
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
});
export type Review = z.infer<typeof Review>;
export const ReviewList = z.array(Review);

/** The customer's own review of an order, as their order shows it. */
export const OrderReview = z.object({ stars: z.number().int(), text: z.string(), createdAt: z.string() });
export type OrderReview = z.infer<typeof OrderReview>;

/** 'Rate your order': 1 to 5 stars and an optional short text. */
export const ReviewInput = z.object({
  stars: z
    .number({ error: () => t('Stars must be a number from 1 to 5') })
    .int({ error: () => t('Stars must be a whole number from 1 to 5') })
    .min(1, { error: () => t('Stars must be from 1 to 5') })
    .max(5, { error: () => t('Stars must be from 1 to 5') }),
  text: multilineText(msg('Review'), MAX_REVIEW_TEXT).optional(),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

/** The cook's one public answer to a review. */
export const ReplyInput = z.object({
  reply: multilineText(msg('Reply'), MAX_REVIEW_TEXT).refine((text) => text.length > 0, {
    error: () => t('Reply is required'),
  }),
});
export type ReplyInput = z.infer<typeof ReplyInput>;

export const ReviewParams = z.object({ id: z.string().uuid({ error: () => t('Review id must be a uuid') }) });

/** A kitchen's reviews older than the one with id `before` (the oldest the reader holds): the next page. */
export const OlderReviewsQuery = z.object({
  before: z
    .string({ error: () => t('before is required') })
    .uuid({ error: () => t('before must be a review id') }),
});
export type OlderReviewsQuery = z.infer<typeof OlderReviewsQuery>;

/** The first word of a display name: all a review shows of its author. */
export const firstName = (displayName: string, tr: Translator = translator()) =>
  displayName.trim().split(/\s+/)[0] || tr.t('A customer');
