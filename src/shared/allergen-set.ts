// The allergens a dish declares: one set covering the EU's 14 and the US's 9, as data with its sources (issue 51).
// Names are kept here in each of the product's languages (not in the message catalogues): they are the rule's own
// data, read by the menu, the forms, the labels and the export alike. What each covers, in plain words, is in
// allergen-descriptions.ts: only the forms read it, and the first view's script does not carry it.
import type { Locale, OfferedLocale } from './i18n/locales.js';

/** Where the set comes from, and from when each source applies. */
export const ALLERGEN_SOURCES = {
  eu: {
    name: 'Regulation (EU) No 1169/2011, Annex II (substances or products causing allergies or intolerances)',
    url: 'https://eur-lex.europa.eu/eli/reg/2011/1169/oj',
    from: '2014-12-13',
  },
  us: {
    name: 'Food Allergen Labeling and Consumer Protection Act of 2004 (21 U.S.C. 343(qq)), with sesame added by the FASTER Act of 2021',
    url: 'https://www.fda.gov/food/food-allergensgluten-free-guidance-documents-regulatory-information/food-allergies',
    from: '2023-01-01',
  },
} as const;
export type AllergenSource = keyof typeof ALLERGEN_SOURCES;

type Names = Record<OfferedLocale, string>;

interface AllergenData {
  /** Which laws list it (the US's 'crustacean shellfish' is the EU's 'crustaceans'; its 'tree nuts' the EU's 'nuts'). */
  sources: readonly AllergenSource[];
  name: Names;
}

/** The set, in the order forms and labels list it. Keys are stable: they are stored with dishes, orders, profiles. */
export const ALLERGEN_SET = {
  celery: {
    sources: ['eu'],
    name: { en: 'celery', es: 'apio', fr: 'céleri', hi: 'सेलरी', ar: 'كرفس' },
  },
  'cereals containing gluten': {
    sources: ['eu'],
    name: {
      en: 'cereals containing gluten',
      es: 'cereales con gluten',
      fr: 'céréales contenant du gluten',
      hi: 'ग्लूटेन वाले अनाज',
      ar: 'حبوب تحتوي على الغلوتين',
    },
  },
  crustaceans: {
    sources: ['eu', 'us'],
    name: { en: 'crustaceans', es: 'crustáceos', fr: 'crustacés', hi: 'क्रस्टेशियन', ar: 'قشريات' },
  },
  eggs: {
    sources: ['eu', 'us'],
    name: { en: 'eggs', es: 'huevos', fr: 'œufs', hi: 'अंडे', ar: 'بيض' },
  },
  fish: {
    sources: ['eu', 'us'],
    name: { en: 'fish', es: 'pescado', fr: 'poisson', hi: 'मछली', ar: 'سمك' },
  },
  lupin: {
    sources: ['eu'],
    name: { en: 'lupin', es: 'altramuces', fr: 'lupin', hi: 'ल्यूपिन', ar: 'ترمس' },
  },
  milk: {
    sources: ['eu', 'us'],
    name: { en: 'milk', es: 'leche', fr: 'lait', hi: 'दूध', ar: 'حليب' },
  },
  molluscs: {
    sources: ['eu'],
    name: { en: 'molluscs', es: 'moluscos', fr: 'mollusques', hi: 'मोलस्क', ar: 'رخويات' },
  },
  mustard: {
    sources: ['eu'],
    name: { en: 'mustard', es: 'mostaza', fr: 'moutarde', hi: 'सरसों', ar: 'خردل' },
  },
  'tree nuts': {
    sources: ['eu', 'us'],
    name: { en: 'tree nuts', es: 'frutos de cáscara', fr: 'fruits à coque', hi: 'मेवे', ar: 'مكسرات' },
  },
  peanuts: {
    sources: ['eu', 'us'],
    name: { en: 'peanuts', es: 'cacahuetes', fr: 'arachides', hi: 'मूंगफली', ar: 'فول سوداني' },
  },
  sesame: {
    sources: ['eu', 'us'],
    name: { en: 'sesame', es: 'sésamo', fr: 'sésame', hi: 'तिल', ar: 'سمسم' },
  },
  soya: {
    sources: ['eu', 'us'],
    name: { en: 'soya', es: 'soja', fr: 'soja', hi: 'सोया', ar: 'صويا' },
  },
  sulphites: {
    sources: ['eu'],
    name: { en: 'sulphites', es: 'sulfitos', fr: 'sulfites', hi: 'सल्फ़ाइट', ar: 'كبريتيت' },
  },
  wheat: {
    sources: ['us'],
    name: { en: 'wheat', es: 'trigo', fr: 'blé', hi: 'गेहूं', ar: 'قمح' },
  },
} as const satisfies Record<string, AllergenData>;

export type Allergen = keyof typeof ALLERGEN_SET;
export const ALLERGENS = Object.keys(ALLERGEN_SET) as [Allergen, ...Allergen[]];

export const isAllergen = (value: string): value is Allergen => Object.hasOwn(ALLERGEN_SET, value);

/** The language of the set's names for a page's locale (the pseudo-locale reads English). */
export const offered = (locale: Locale): OfferedLocale => (locale === 'en-XA' ? 'en' : locale);

/** An allergen's name in `locale` ('sesame', 'سمسم'); an unknown key as it is. */
export const allergenName = (allergen: string, locale: Locale): string =>
  isAllergen(allergen) ? ALLERGEN_SET[allergen].name[offered(locale)] : allergen;

/** A cook's answer to 'Does this dish contain … ?' for one allergen. */
export const ALLERGEN_ANSWERS = ['contains', 'may contain', 'no'] as const;
export type AllergenAnswer = (typeof ALLERGEN_ANSWERS)[number];

/** What a dish declares: the allergens it contains and those it may contain (cross-contact); every other is 'no'. */
export interface AllergenDeclaration {
  contains: readonly string[];
  mayContain: readonly string[];
}

/** A person's allergies, and whether 'may contain' matters to them. */
export interface AllergyProfile {
  allergens: readonly string[];
  mayContainMatters: boolean;
}

/** Which allergens of a dish conflict with a profile: those it contains, and those it may contain (if that matters). */
export function conflictsOf(
  dish: AllergenDeclaration,
  profile: AllergyProfile,
): { contains: Allergen[]; mayContain: Allergen[] } {
  const mine = new Set(profile.allergens);
  return {
    contains: ALLERGENS.filter((a) => mine.has(a) && dish.contains.includes(a)),
    mayContain: profile.mayContainMatters
      ? ALLERGENS.filter((a) => mine.has(a) && dish.mayContain.includes(a) && !dish.contains.includes(a))
      : [],
  };
}

/** The allergens of a whole cart that conflict with a profile (contained or possibly), in the set's order. */
export function cartConflicts(dishes: readonly AllergenDeclaration[], profile: AllergyProfile): Allergen[] {
  const found = new Set<Allergen>();
  for (const dish of dishes) {
    const c = conflictsOf(dish, profile);
    for (const a of [...c.contains, ...c.mayContain]) found.add(a);
  }
  return ALLERGENS.filter((a) => found.has(a));
}
