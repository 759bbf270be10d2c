// Dietary tags and allergens without their schemas (in dietary.ts): the first view's filters and badges need
// them without zod (issue 32).

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

/** "Contains: milk, tree nuts", or undefined when the cook declared none. */
export function allergenLine(allergens: readonly string[]): string | undefined {
  return allergens.length ? `Contains: ${allergens.join(', ')}` : undefined;
}
