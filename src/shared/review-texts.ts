// How reviews and ratings read, without the schemas (in reviews.ts): the first view needs them without zod
// (issue 32).
import { translator, type Translator } from './i18n/translator.js';
import type { Rating } from './reviews.js';

/** How many reviews a page of them holds: the live list is the latest page, older ones come on request. */
export const REVIEWS_SHOWN = 50;

/** '★ 4.6 (23)': how every screen shows a rating. */
export const formatRating = (rating: Rating, tr: Translator = translator()) =>
  tr.t('★ {average} ({count})', {
    average: tr.numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rating.average),
    count: String(rating.count),
  });

/** 'Cooking here since March 2026': the month a kitchen registered, in its own time zone. */
export function cookingSince(createdAt: string, timeZone: string, tr: Translator = translator()): string {
  const format = (zone: string) =>
    tr.dateFormat({ month: 'long', year: 'numeric', timeZone: zone }).format(new Date(createdAt));
  let month: string;
  try {
    month = format(timeZone);
  } catch {
    month = format('UTC'); // a zone this browser does not know
  }
  // translators: {month} is a month and its year ('March 2026')
  return tr.t('Cooking here since {month}', { month });
}

/** '1 order delivered', '23 orders delivered'. */
export const ordersDelivered = (n: number, tr: Translator = translator()) =>
  tr.t('{count, plural, one {# order delivered} other {# orders delivered}}', { count: n });
