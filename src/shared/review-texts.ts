// How reviews and ratings read, without the schemas (in reviews.ts): the first view needs them without zod
// (issue 32).
import type { Rating } from './reviews.js';

/** How many reviews a page of them holds: the live list is the latest page, older ones come on request. */
export const REVIEWS_SHOWN = 50;

/** '★ 4.6 (23)': how every screen shows a rating. */
export const formatRating = (rating: Rating) => `★ ${rating.average.toFixed(1)} (${rating.count})`;

/** 'Cooking here since March 2026': the month a kitchen registered, in its own time zone. */
export function cookingSince(createdAt: string, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: zone }).format(
      new Date(createdAt),
    );
  try {
    return `Cooking here since ${format(timeZone)}`;
  } catch {
    return `Cooking here since ${format('UTC')}`; // a zone this browser does not know
  }
}

/** '1 order delivered', '23 orders delivered'. */
export const ordersDelivered = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'} delivered`;
