import { z } from 'zod';
import { multilineText } from './fields.js';
import { TimeOfDay } from './opening-hours.js';
import { msg, t, translator } from './i18n/translator.js';

export * from './fulfilments.js';

/**
 * How a kitchen takes orders: delivery, pickup or both; 'As soon as possible' while open, time slots ahead, or both;
 * a minimum order amount. Times are the kitchen's (its time zone), amounts integer cents.
 */

/** The lengths a kitchen may give its slots, in minutes. */
export const SLOT_LENGTHS = [15, 30, 45, 60, 90, 120] as const;
/** At most this many days ahead (today is day 0): a card hold (7 days) outlives the furthest slot. */
export const MAX_DAYS_AHEAD = 5;
/** Prior notice: from none up to two days. */
export const MAX_PRIOR_NOTICE_MINUTES = 48 * 60;
export const MAX_ORDERS_PER_SLOT = 500;
/** A kitchen's minimum order amount (its dishes' total): at most $500.00. */
export const MAX_MINIMUM_ORDER_CENTS = 50_000;
/** 'A note for the cook'. */
export const MAX_NOTE_LENGTH = 300;

/** A pre-order's slot is full (its cap of orders is reached), or was when the order was placed (409). */
export const SLOT_FULL = 'SLOT_FULL';
/** The slot asked for cannot be chosen: passed, too soon, too far ahead, after the cut-off, outside the hours (409). */
export const SLOT_UNAVAILABLE = 'SLOT_UNAVAILABLE';
/** The cart's dishes total less than the kitchen's minimum order amount (409). */
export const BELOW_MINIMUM = 'BELOW_MINIMUM';
/** The kitchen does not offer the fulfilment asked for (delivery or pickup), or not 'As soon as possible' (409). */
export const FULFILMENT_REFUSED = 'FULFILMENT_REFUSED';

const wholeMinutes = (label: string, min: number, max: number) =>
  z
    .number({ error: () => t('{label} must be a number of minutes', { label: t(label) }) })
    .int({ error: () => t('{label} must be a whole number of minutes', { label: t(label) }) })
    .min(min, {
      error: () => t('{label} must be at least {min} minutes', { label: t(label), min: String(min) }),
    })
    .max(max, {
      error: () => t('{label} must be at most {max} minutes', { label: t(label), max: String(max) }),
    });

/** What the public (the menu page, the cart) knows of how a kitchen takes orders. */
export const PublicOrdering = z.object({
  offersDelivery: z.boolean(),
  offersPickup: z.boolean(),
  /** Orders for 'As soon as possible' (while open). */
  takesAsap: z.boolean(),
  /** The length of its slots in minutes; null: no orders for later. */
  slotMinutes: z.number().int().nullable(),
  priorNoticeMinutes: z.number().int(),
  daysAhead: z.number().int(),
  /** Its dishes must total at least this (0: no minimum). */
  minimumOrderCents: z.number().int(),
});
export type PublicOrdering = z.infer<typeof PublicOrdering>;

/** The ordering options of a kitchen that never set them: delivery as soon as possible, as the spec has it. */
export const DEFAULT_ORDERING: OrderingSettings = {
  offersDelivery: true,
  offersPickup: false,
  pickupAddress: '',
  pickupInstructions: '',
  takesAsap: true,
  slotMinutes: null,
  priorNoticeMinutes: 120,
  daysAhead: 2,
  sameDayCutoff: null,
  ordersPerSlot: null,
  minimumOrderCents: 0,
};

/** All of a kitchen's ordering options, as its cook sets them (and the server reads them). */
export const OrderingSettings = PublicOrdering.extend({
  /** Shown only to a customer whose pickup order was accepted. */
  pickupAddress: z.string(),
  pickupInstructions: z.string(),
  /** 'HH:MM' local: after it no more orders for today's slots; null: none. */
  sameDayCutoff: z.string().nullable(),
  /** How many orders one slot takes; null: no cap. */
  ordersPerSlot: z.number().int().nullable(),
});
export type OrderingSettings = z.infer<typeof OrderingSettings>;

/** The cook's form: every option, checked together. */
export const OrderingSettingsInput = z
  .object({
    offersDelivery: z.boolean({ error: () => t('Delivery must be on or off') }),
    offersPickup: z.boolean({ error: () => t('Pickup must be on or off') }),
    pickupAddress: multilineText(msg('Pickup address'), 300),
    pickupInstructions: multilineText(msg('Pickup instructions'), 500),
    takesAsap: z.boolean({ error: () => t('As soon as possible must be on or off') }),
    slotMinutes: z
      .number({ error: () => t('Slot length must be a number of minutes') })
      .refine((n) => (SLOT_LENGTHS as readonly number[]).includes(n), {
        error: () => t('Slot length must be one of {lengths} minutes', { lengths: SLOT_LENGTHS.join(', ') }),
      })
      .nullable(),
    priorNoticeMinutes: wholeMinutes(msg('Prior notice'), 0, MAX_PRIOR_NOTICE_MINUTES),
    daysAhead: z
      .number({ error: () => t('Days ahead must be a number of days') })
      .int({ error: () => t('Days ahead must be a whole number of days') })
      .min(0, { error: () => t('Days ahead must be 0 (today only) or more') })
      .max(MAX_DAYS_AHEAD, {
        error: () => t('Days ahead must be at most {max}', { max: String(MAX_DAYS_AHEAD) }),
      }),
    sameDayCutoff: TimeOfDay.nullable(),
    ordersPerSlot: z
      .number({ error: () => t('Orders per slot must be a number') })
      .int({ error: () => t('Orders per slot must be a whole number') })
      .min(1, { error: () => t('Orders per slot must be at least 1') })
      .max(MAX_ORDERS_PER_SLOT, {
        error: () => t('Orders per slot must be at most {max}', { max: String(MAX_ORDERS_PER_SLOT) }),
      })
      .nullable(),
    minimumOrderCents: z
      .number({ error: () => t('Minimum order must be an amount in cents') })
      .int({ error: () => t('Minimum order must be a whole number of cents') })
      .min(0, { error: () => t('Minimum order must not be negative') })
      .max(MAX_MINIMUM_ORDER_CENTS, {
        error: () =>
          t('Minimum order must be at most {amount}', {
            amount: translator().money(MAX_MINIMUM_ORDER_CENTS),
          }),
      }),
  })
  .superRefine((value, ctx) => {
    if (!value.offersDelivery && !value.offersPickup)
      ctx.addIssue({
        code: 'custom',
        path: ['offersDelivery'],
        message: t('Offer delivery, pickup or both'),
      });
    if (value.offersPickup && value.pickupAddress === '')
      ctx.addIssue({
        code: 'custom',
        path: ['pickupAddress'],
        message: t('Pickup address is required for pickup'),
      });
    if (!value.takesAsap && value.slotMinutes === null)
      ctx.addIssue({
        code: 'custom',
        path: ['takesAsap'],
        message: t("Take orders 'As soon as possible', in time slots, or both"),
      });
  });
export type OrderingSettingsInput = z.infer<typeof OrderingSettingsInput>;

/** A slot of a kitchen's day: its start and end (ISO), its local date, and how many more orders it takes. */
export const Slot = z.object({
  start: z.string(),
  end: z.string(),
  /** The kitchen's local date, 'YYYY-MM-DD'. */
  date: z.string(),
  /** Orders it still takes (null: no cap). */
  left: z.number().int().nullable(),
  /** Whether it can be chosen now (false: full). */
  available: z.boolean(),
});
export type Slot = z.infer<typeof Slot>;

/** GET /api/kitchens/:uid/slots: how the kitchen takes orders, and when an order can be for. */
export const KitchenSlots = PublicOrdering.extend({
  timeZone: z.string(),
  /** 'As soon as possible' can be chosen now (the kitchen takes it and is open). */
  asap: z.boolean(),
  slots: z.array(Slot),
});
export type KitchenSlots = z.infer<typeof KitchenSlots>;

/** A pre-order's slot, as an order carries it. */
export const OrderSlot = z.object({ start: z.string(), end: z.string() });
export type OrderSlot = z.infer<typeof OrderSlot>;

/** Where to collect a pickup order: given to its customer once the kitchen accepted it. */
export const PickupPlace = z.object({ address: z.string(), instructions: z.string() });
export type PickupPlace = z.infer<typeof PickupPlace>;

/** The note a customer leaves with an order. */
export const orderNote = () => multilineText('A note for the cook', MAX_NOTE_LENGTH);
