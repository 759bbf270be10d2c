import { z } from 'zod';
import { multilineText, optionalText, requiredText } from './fields.js';
import { StoredImage, checkPictureChoice, pictureFields } from './images.js';
import { DietaryTags, type Allergen, type DietaryTag } from './dietary.js';
import { AllergenAnswers, MAX_KEEPS_DAYS } from './allergen-declaration.js';
import { minorDigits, parsePriceToCents } from './money.js';
import { msg, t, translator } from './i18n/translator.js';

export * from './menu-portions.js';

export const MenuItem = z.object({
  id: z.string().uuid(),
  kitchenUid: z.string().uuid(),
  item: z.string(),
  /** The dish's name in a second script or language, as the cook writes it ('मसाला डोसा'), or null. */
  secondName: z.string().nullable(),
  /** The cook's link, or null when the picture was uploaded (`image`). */
  imageLink: z.string().nullable(),
  image: StoredImage.nullable(),
  priceCents: z.number().int(),
  wait: z.string(),
  dietary: z.array(z.string()) as z.ZodType<DietaryTag[]>,
  /** The allergens it contains. */
  allergens: z.array(z.string()) as z.ZodType<Allergen[]>,
  /** Those it may contain (cross-contact in the kitchen). */
  mayContain: z.array(z.string()) as z.ZodType<Allergen[]>,
  /** Whether the cook answered 'Does this dish contain … ?' for every allergen (false: 'Allergens not declared'). */
  allergensDeclared: z.boolean(),
  /** The ingredients as the cook lists them, shown on the menu ('' : none given). */
  ingredients: z.string(),
  /** For labels: how many days it keeps (the use-by date), and how to reheat it. */
  keepsDays: z.number().int().nullable(),
  reheating: z.string(),
  /** Marked 'Sold out' by the cook. */
  soldOut: z.boolean(),
  /** Portions made a day (null: no limit), and how many are left today in the kitchen's time zone. */
  portionsPerDay: z.number().int().nullable(),
  portionsLeft: z.number().int().nullable(),
});
export type MenuItem = z.infer<typeof MenuItem>;

export const MAX_PORTIONS_PER_DAY = 10_000;

export const MenuList = z.array(MenuItem);
export type MenuList = z.infer<typeof MenuList>;

/** Why a price typed is no amount of the deployment's currency, as many decimals as it has. */
function priceRefusal(): string {
  const digits = minorDigits(translator().currency);
  if (digits === 2) return t('Price must be an amount like 12.50 (0 or more, 2 decimals at most)');
  if (digits === 0) return t('Price must be a whole amount like 500 (0 or more, no decimals)');
  return t('Price must be an amount like 12.5 (0 or more, {digits} decimals at most)', {
    digits: String(digits),
  });
}

/** What a cook types: price is text (as in the form), turned into cents here so both sides agree. */
const ITEM_LINK_LABEL = msg('Image of your Item Link');

const MenuItemFields = z.object({
  item: requiredText(msg('Item'), 80),
  /** Empty: none. */
  secondName: optionalText(msg('Second name'), 80),
  ...pictureFields(ITEM_LINK_LABEL),
  price: z
    .string({ error: () => t('Price is required') })
    .trim()
    .min(1, { error: () => t('Price is required') })
    .refine((v) => parsePriceToCents(v) !== null, { error: () => priceRefusal() }),
  wait: requiredText(msg('Wait Time'), 40),
  dietary: DietaryTags.optional(),
  /**
   * The bare list of allergens of older clients ('Allergens not declared' then): refused, allergens are declared
   * through `allergenAnswers` alone.
   */
  allergens: z
    .undefined({
      error: () =>
        t('Answer for every allergen in allergenAnswers: a list of allergens alone declares nothing'),
    })
    .optional(),
  /** The cook's answer for every allergen of the set. */
  allergenAnswers: AllergenAnswers.optional(),
  ingredients: multilineText(msg('Ingredients'), 1000).optional(),
  keepsDays: z
    .number({ error: () => t('Keeps for must be a number of days') })
    .int({ error: () => t('Keeps for must be a whole number of days') })
    .min(0, { error: () => t('Keeps for must be 0 days or more') })
    .max(MAX_KEEPS_DAYS, {
      error: () => t('Keeps for must be at most {max} days', { max: String(MAX_KEEPS_DAYS) }),
    })
    .nullable()
    .optional(),
  reheating: multilineText(msg('Reheating instructions'), 300).optional(),
  soldOut: z.boolean({ error: () => t('Sold out must be true or false') }).optional(),
  portionsPerDay: z
    .number({ error: () => t('Portions per day must be a number') })
    .int({ error: () => t('Portions per day must be a whole number') })
    .min(1, { error: () => t('Portions per day must be at least 1 (or empty for no limit)') })
    .max(MAX_PORTIONS_PER_DAY, {
      error: () => t('Portions per day must be at most {max}', { max: String(MAX_PORTIONS_PER_DAY) }),
    })
    .nullable()
    .optional(),
});

/**
 * The cook's form of a dish: a new one is checked as NewMenuItemInput; an edit (MenuItemUpdateInput) may keep an
 * undeclared dish's answers unanswered.
 */
export const MenuItemFormInput = MenuItemFields.superRefine((value, ctx) =>
  checkPictureChoice(value, ctx, ITEM_LINK_LABEL, true),
);
export type MenuItemFormInput = z.infer<typeof MenuItemFormInput>;

/**
 * A new dish: answered for every allergen before it is published (`allergenAnswers`; an unanswered one is refused
 * naming it). Dishes of before, undeclared, show 'Allergens not declared' and are listed for their cook.
 */
export const MenuItemInput = MenuItemFields.extend({ allergenAnswers: AllergenAnswers }).superRefine(
  (value, ctx) => checkPictureChoice(value, ctx, ITEM_LINK_LABEL, true),
);
export type MenuItemInput = z.infer<typeof MenuItemInput>;

/** The cook's form for a new dish: the same rules as the API's. */
export const NewMenuItemInput = MenuItemInput;

/** Editing a menu item: any of its fields, each checked as when adding it. */
export const MenuItemUpdateInput = MenuItemFields.partial()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), {
    error: () => t('Change at least one field'),
  })
  .superRefine((value, ctx) => checkPictureChoice(value, ctx, ITEM_LINK_LABEL, false));
export type MenuItemUpdateInput = z.infer<typeof MenuItemUpdateInput>;

export const MenuItemParams = z.object({
  id: z.string().uuid({ error: () => t('Menu item id must be a uuid') }),
});
