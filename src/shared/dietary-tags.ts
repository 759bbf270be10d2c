// Dietary tags and allergens without their schemas (in dietary.ts): the first view's filters and badges need
// them without zod (issue 32).
import { msg, translator, type Translator } from './i18n/translator.js';

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

/** Each allergen as people read it (a message: `tr.t(ALLERGEN_NAMES[a])`). */
export const ALLERGEN_NAMES: Record<Allergen, string> = {
  celery: msg('celery'),
  'cereals containing gluten': msg('cereals containing gluten'),
  crustaceans: msg('crustaceans'),
  eggs: msg('eggs'),
  fish: msg('fish'),
  lupin: msg('lupin'),
  milk: msg('milk'),
  molluscs: msg('molluscs'),
  mustard: msg('mustard'),
  'tree nuts': msg('tree nuts'),
  peanuts: msg('peanuts'),
  sesame: msg('sesame'),
  soya: msg('soya'),
  sulphites: msg('sulphites'),
};

/** "Contains: milk, tree nuts", or undefined when the cook declared none. */
export function allergenLine(
  allergens: readonly string[],
  tr: Translator = translator(),
): string | undefined {
  if (!allergens.length) return undefined;
  const names = allergens.map((a) => (a in ALLERGEN_NAMES ? tr.t(ALLERGEN_NAMES[a as Allergen]) : a));
  return tr.t('Contains: {allergens}', { allergens: names.join(', ') });
}
