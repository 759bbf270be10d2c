import { z } from 'zod';
import { DIETARY_TAGS, type DietaryTag } from './dietary.js';
import { ALLERGENS, type Allergen } from './allergen-set.js';
import { Kitchen } from './kitchens.js';
import { KITCHEN_PAGE_SIZE, MAX_KITCHEN_PAGE_SIZE, parseLatLon } from './search-params.js';
import { t } from './i18n/translator.js';

export * from './search-params.js';

const dietList = z
  .string()
  .trim()
  .max(200, { error: () => t('Too many dietary filters') })
  .transform((text, ctx) => {
    const picked = text.split(',').filter(Boolean);
    const unknown = picked.filter((tag) => !(DIETARY_TAGS as readonly string[]).includes(tag));
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: t('Unknown dietary filter: {tags}', { tags: unknown.join(', ') }),
      });
      return z.NEVER;
    }
    return DIETARY_TAGS.filter((tag) => picked.includes(tag)) as DietaryTag[];
  });

/** 'Hide dishes with my allergens': the allergens to avoid, comma-separated (`avoid=sesame,tree nuts`). */
const avoidList = z
  .string()
  .trim()
  .max(400, { error: () => t('Too many allergens to avoid') })
  .transform((text, ctx) => {
    const picked = text
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const unknown = picked.filter((a) => !(ALLERGENS as readonly string[]).includes(a));
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        message: t('Unknown allergen to avoid: {allergens}; choose from: {known}', {
          allergens: unknown.join(', '),
          known: ALLERGENS.join(', '),
        }),
      });
      return z.NEVER;
    }
    return ALLERGENS.filter((a) => picked.includes(a)) as Allergen[];
  });

/**
 * A search of the landing page, as its URL carries it (`/?q=biryani&diet=halal,vegan&cuisine=Indian&near=51.5,-0.1`):
 * words, a cuisine (a kitchen category), dietary tags a dish must all carry, and where the customer is.
 */
export const KitchenSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .max(100, { error: () => t('Search at most 100 characters') })
    .optional()
    .default(''),
  cuisine: z
    .string()
    .trim()
    .max(40, { error: () => t('A cuisine has at most 40 characters') })
    .optional()
    .default(''),
  diet: dietList.optional().default([]),
  /**
   * 'Hide dishes with my allergens' (the customer's or the visitor's own, sent by the page, never kept in its URL):
   * dishes that contain one are left out of the matches, and a kitchen with no dish left is not found.
   */
  avoid: avoidList.optional().default([]),
  /** With `avoid`: whether dishes that may contain one are left out too ('1', the default) or not ('0'). */
  mayContain: z
    .enum(['1', '0', 'true', 'false'], { error: () => t('mayContain must be 1 or 0') })
    .optional()
    .transform((value) => value !== '0' && value !== 'false'),
  near: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return undefined;
      const place = parseLatLon(text);
      if (!place) ctx.addIssue({ code: 'custom', message: t('near must be "latitude,longitude"') });
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

/**
 * One page of the landing page's kitchens (`/api/kitchens/page?limit=24&cursor=…`, with the search's filters):
 * `cursor` is the `next` of the page before (opaque), none for the first page.
 */
export const KitchenPageQuery = KitchenSearchQuery.extend({
  limit: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return KITCHEN_PAGE_SIZE;
      const limit = /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : NaN;
      if (!(limit >= 1 && limit <= MAX_KITCHEN_PAGE_SIZE)) {
        ctx.addIssue({
          code: 'custom',
          message: t('limit must be a whole number from 1 to {max}', { max: String(MAX_KITCHEN_PAGE_SIZE) }),
        });
        return z.NEVER;
      }
      return limit;
    }),
  cursor: z
    .string()
    .trim()
    .max(1000, { error: () => t('A cursor has at most 1000 characters') })
    .optional(),
  /** Only kitchens open now ('1'), by each kitchen's hours in its own time zone, and not paused. */
  open: z
    .enum(['1', '0', 'true', 'false'], { error: () => t('open must be 1 or 0') })
    .optional()
    .transform((value) => value === '1' || value === 'true'),
});
export type KitchenPageQuery = z.input<typeof KitchenPageQuery>;
export type KitchenPageRequest = z.output<typeof KitchenPageQuery>;

/**
 * A page of kitchens: newest first, or nearest first when `near` is given (best match first among equals when
 * words are searched). `next` asks for the page after (null on the last); `total` (on the first page only) is how
 * many kitchens match in all.
 */
export const KitchenPage = z.object({
  kitchens: z.array(KitchenSearchHit),
  next: z.string().nullable(),
  total: z.number().int().optional(),
  /** `total` counts only the best matches of words too common to count them all: more kitchens match. */
  totalAtLeast: z.literal(true).optional(),
});
export type KitchenPage = z.infer<typeof KitchenPage>;
