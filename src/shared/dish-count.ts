import { z } from 'zod';
import { t } from './i18n/translator.js';

/**
 * Some of an order's dishes: a line of it (its dish and price, as ordered) and how many of them. A refund and a
 * problem report name dishes so (without importing the order's schemas, which import the problem report's).
 */
export const DishCount = z.object({
  item: z.string({ error: () => t('Dish is required') }).max(200),
  priceCents: z
    .number({ error: () => t('Price must be a number of cents') })
    .int()
    .min(0),
  quantity: z
    .number({ error: () => t('Quantity must be a whole number') })
    .int({ error: () => t('Quantity must be a whole number') })
    .min(1, { error: () => t('Quantity must be at least 1') })
    .max(50, { error: () => t('Quantity must be at most 50') }),
});
export type DishCount = z.infer<typeof DishCount>;
