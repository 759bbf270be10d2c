import { z } from 'zod';
import { Allergens, DietaryTags, type Allergen, type DietaryTag } from './dietary.js';
import { imageLink, requiredText } from './fields.js';
import { parsePriceToCents } from './money.js';

export const MenuItem = z.object({
  id: z.string().uuid(),
  kitchenUid: z.string().uuid(),
  item: z.string(),
  imageLink: z.string(),
  priceCents: z.number().int(),
  wait: z.string(),
  dietary: z.array(z.string()) as z.ZodType<DietaryTag[]>,
  allergens: z.array(z.string()) as z.ZodType<Allergen[]>,
});
export type MenuItem = z.infer<typeof MenuItem>;

export const MenuList = z.array(MenuItem);
export type MenuList = z.infer<typeof MenuList>;

/** What a cook types: price is text (as in the form), turned into cents here so both sides agree. */
export const MenuItemInput = z.object({
  item: requiredText('Item', 80),
  imageLink: imageLink('Image of your Item Link'),
  price: z
    .string({ error: 'Price is required' })
    .trim()
    .min(1, 'Price is required')
    .refine(
      (v) => parsePriceToCents(v) !== null,
      'Price must be an amount like 12.50 (0 or more, 2 decimals at most)',
    ),
  wait: requiredText('Wait Time', 40),
  dietary: DietaryTags.optional(),
  allergens: Allergens.optional(),
});
export type MenuItemInput = z.infer<typeof MenuItemInput>;

/** Editing a menu item: any of its fields, each checked as when adding it. */
export const MenuItemUpdateInput = MenuItemInput.partial().refine(
  (patch) => Object.values(patch).some((v) => v !== undefined),
  'Change at least one field',
);
export type MenuItemUpdateInput = z.infer<typeof MenuItemUpdateInput>;

export const MenuItemParams = z.object({ id: z.string().uuid('Menu item id must be a uuid') });
