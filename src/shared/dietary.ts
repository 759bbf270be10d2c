import { z } from 'zod';
import { ALLERGENS, DIETARY_TAGS, type Allergen, type DietaryTag } from './dietary-tags.js';

export * from './dietary-tags.js';

/** A list of distinct values of `values`, kept in the canonical order (so equal sets compare equal). */
const tagList = <T extends string>(values: readonly [T, ...T[]], what: string) =>
  z
    .array(z.enum(values, { error: `Unknown ${what}; choose from: ${values.join(', ')}` }), {
      error: `${what[0]?.toUpperCase()}${what.slice(1)}s must be a list`,
    })
    .max(values.length)
    .transform((picked) => values.filter((v) => picked.includes(v)));

export const DietaryTags = tagList(DIETARY_TAGS as unknown as [DietaryTag, ...DietaryTag[]], 'dietary tag');
export const Allergens = tagList(ALLERGENS as unknown as [Allergen, ...Allergen[]], 'allergen');
