import { z } from 'zod';
import { DIETARY_TAGS, type DietaryTag } from './dietary.js';
import { Kitchen } from './kitchens.js';

/** At most this many kitchens answer one search: the best matches (or the nearest). */
export const MAX_SEARCH_RESULTS = 60;

const LAT_LON = /^(-?\d{1,2}(?:\.\d{1,6})?),(-?\d{1,3}(?:\.\d{1,6})?)$/;

/** "lat,lon" (as in the page's URL) → coordinates, or undefined when it is not a valid place on Earth. */
export function parseLatLon(text: string): { lat: number; lon: number } | undefined {
  const match = LAT_LON.exec(text.trim());
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** Coordinates rounded to about 100 m, for a URL that may be shared. */
export const formatLatLon = ({ lat, lon }: { lat: number; lon: number }) =>
  `${lat.toFixed(3)},${lon.toFixed(3)}`;

const dietList = z
  .string()
  .trim()
  .max(200, 'Too many dietary filters')
  .transform((text, ctx) => {
    const picked = text.split(',').filter(Boolean);
    const unknown = picked.filter((tag) => !(DIETARY_TAGS as readonly string[]).includes(tag));
    if (unknown.length) {
      ctx.addIssue({ code: 'custom', message: `Unknown dietary filter: ${unknown.join(', ')}` });
      return z.NEVER;
    }
    return DIETARY_TAGS.filter((tag) => picked.includes(tag)) as DietaryTag[];
  });

/**
 * A search of the landing page, as its URL carries it (`/?q=biryani&diet=halal,vegan&cuisine=Indian&near=51.5,-0.1`):
 * words, a cuisine (a kitchen category), dietary tags a dish must all carry, and where the customer is.
 */
export const KitchenSearchQuery = z.object({
  q: z.string().trim().max(100, 'Search at most 100 characters').optional().default(''),
  cuisine: z.string().trim().max(40, 'A cuisine has at most 40 characters').optional().default(''),
  diet: dietList.optional().default([]),
  near: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined;
      const place = parseLatLon(text);
      if (!place) ctx.addIssue({ code: 'custom', message: 'near must be "latitude,longitude"' });
      return place;
    }),
});
export type KitchenSearchQuery = z.input<typeof KitchenSearchQuery>;
export type KitchenSearch = z.output<typeof KitchenSearchQuery>;

/** One kitchen found: the kitchen, the dishes that matched the words, and how far it is (when known). */
export const KitchenSearchHit = Kitchen.extend({
  matchingDishes: z.array(z.string()),
  distanceKm: z.number().nullable(),
});
export type KitchenSearchHit = z.infer<typeof KitchenSearchHit>;
export const KitchenSearchResults = z.array(KitchenSearchHit);
