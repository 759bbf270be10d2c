import { z } from 'zod';

/** The dietary tags a cook may give a dish, as the filters and badges name them. */
export const DIETARY_TAGS = ['vegetarian', 'vegan', 'halal', 'kosher', 'gluten-free', 'dairy-free'] as const;
export type DietaryTag = (typeof DIETARY_TAGS)[number];
export const DIETARY_LABELS: Record<DietaryTag, string> = {
  vegetarian: 'Vegetarian',
  vegan: 'Vegan',
  halal: 'Halal',
  kosher: 'Kosher',
  'gluten-free': 'Gluten-free',
  'dairy-free': 'Dairy-free',
};

/** The 14 allergens EU food law (Regulation 1169/2011, Annex II) requires a seller to declare. */
export const ALLERGENS = [
  'celery',
  'cereals containing gluten',
  'crustaceans',
  'eggs',
  'fish',
  'lupin',
  'milk',
  'molluscs',
  'mustard',
  'tree nuts',
  'peanuts',
  'sesame',
  'soya',
  'sulphites',
] as const;
export type Allergen = (typeof ALLERGENS)[number];

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

/** "Contains: milk, tree nuts", or undefined when the cook declared none. */
export function allergenLine(allergens: readonly string[]): string | undefined {
  return allergens.length ? `Contains: ${allergens.join(', ')}` : undefined;
}
