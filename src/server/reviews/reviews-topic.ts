import type { Review } from '../../shared/reviews.js';
import { kitchenContentAccess } from '../data/kitchen-content-access.js';
import { findKitchen } from '../data/kitchen-queries.js';
import { defineTopic } from '../live/topic.js';
import { listReviews } from '../data/review-queries.js';
import { msg } from '../../shared/i18n/translator.js';

/**
 * A kitchen's latest visible reviews with the cook's replies, newest first (its menu page and its dashboard);
 * null when there is no such kitchen; a suspended kitchen's are its cook's and operators' only. Hiding a review (an operator) publishes it too.
 */
export const reviewsTopic = defineTopic<string, Review[] | null>({
  key: (kitchenUid) => `reviews:${kitchenUid}`,
  load: async (db, kitchenUid) => ((await findKitchen(db, kitchenUid)) ? listReviews(db, kitchenUid) : null),
  access: kitchenContentAccess,
  missing: { when: (reviews) => reviews === null, message: msg('No kitchen with this id') },
});
