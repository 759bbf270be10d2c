import { z } from 'zod';
import { t } from './i18n/translator.js';

/** The label sizes printers take: 62 mm continuous rolls, 4 × 6 in shipping labels, A4 sheets of 8. */
export const LABEL_SIZES = ['62mm', '4x6', 'a4'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];

export const LabelQuery = z.object({
  size: z.enum(LABEL_SIZES, { error: () => t("Size must be '62mm', '4x6' or 'a4'") }).default('62mm'),
});

/** A prep sheet's slot: its start (ISO 8601), or 'asap' for the orders for 'As soon as possible'. */
export const PrepSheetQuery = z.object({
  slot: z
    .string({ error: () => t("Slot must be a time or 'asap'") })
    .max(40, { error: () => t("Slot must be a time or 'asap'") })
    .refine((v) => v === 'asap' || (/^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(Date.parse(v))), {
      error: () => t("Slot must be a time or 'asap'"),
    }),
});

/** The states in which an order's labels can be printed: once the kitchen accepted it. */
export const LABELLED_STATES = ['accepted', 'preparing', 'out for delivery', 'delivered'] as const;

/** The refusal code of labels asked for an order not accepted. */
export const NOT_ACCEPTED = 'NOT_ACCEPTED';
