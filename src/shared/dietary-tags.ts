// Dietary tags and allergens without their schemas (in dietary.ts): the first view's filters and badges need
// them without zod (issue 32).
import { msg } from './i18n/translator.js';

/** The dietary tags a cook may give a dish, as the filters and badges name them. */
export const DIETARY_TAGS = ['vegetarian', 'vegan', 'halal', 'kosher', 'gluten-free', 'dairy-free'] as const;
export type DietaryTag = (typeof DIETARY_TAGS)[number];
export const DIETARY_LABELS: Record<DietaryTag, string> = {
  vegetarian: msg('Vegetarian'),
  vegan: msg('Vegan'),
  halal: msg('Halal'),
  kosher: msg('Kosher'),
  'gluten-free': msg('Gluten-free'),
  'dairy-free': msg('Dairy-free'),
};

/** The allergens a dish declares (the EU's 14 and the US's 9 as one set): src/shared/allergen-set.ts. */
export { ALLERGENS, type Allergen } from './allergen-set.js';
