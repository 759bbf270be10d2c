import { z } from 'zod';
import { t } from './i18n/translator.js';
import { ALLERGENS, DIETARY_TAGS, type Allergen, type DietaryTag } from './dietary-tags.js';

export * from './dietary-tags.js';

/** A list of distinct values of `values`, kept in the canonical order (so equal sets compare equal). */
const tagList = <T extends string>(
  values: readonly [T, ...T[]],
  unknown: () => string,
  notAList: () => string,
) =>
  z
    .array(z.enum(values, { error: unknown }), { error: notAList })
    .max(values.length)
    .transform((picked) => values.filter((v) => picked.includes(v)));

export const DietaryTags = tagList(
  DIETARY_TAGS as unknown as [DietaryTag, ...DietaryTag[]],
  () => t('Unknown dietary tag; choose from: {tags}', { tags: DIETARY_TAGS.join(', ') }),
  () => t('Dietary tags must be a list'),
);
export const Allergens = tagList(
  ALLERGENS as unknown as [Allergen, ...Allergen[]],
  () => t('Unknown allergen; choose from: {allergens}', { allergens: ALLERGENS.join(', ') }),
  () => t('Allergens must be a list'),
);
