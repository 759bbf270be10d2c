import { z } from 'zod';
import { multilineText, outsideCalendar, requiredText, withinCalendar } from './fields.js';
import { StoredImage, checkPictureChoice, pictureFields } from './images.js';
import { TimeZoneName, WeeklyHours } from './opening-hours.js';
import { Rating } from './reviews.js';
import { msg, t } from './i18n/translator.js';

export const MAX_ABOUT_LENGTH = 1000;

export const DEFAULT_DELIVERY_RADIUS_KM = 5;
export const MAX_DELIVERY_RADIUS_KM = 100;

/** How far a kitchen delivers: whole kilometres, 1 to 100. */
export const DeliveryRadiusKm = z
  .number({ error: () => t('Delivery distance must be a number of km') })
  .int({ error: () => t('Delivery distance must be a whole number of km') })
  .min(1, { error: () => t('Delivery distance must be at least 1 km') })
  .max(MAX_DELIVERY_RADIUS_KM, {
    error: () => t('Delivery distance must be at most {max} km', { max: MAX_DELIVERY_RADIUS_KM }),
  });

/** A kitchen as the public sees it. `uid` is the owner's user id, which is also the kitchen's public id. */
export const Kitchen = z.object({
  uid: z.string().uuid(),
  name: z.string(),
  category: z.string(),
  address: z.string(),
  /** The cook's link, or null when the picture was uploaded (`image`). */
  imageLink: z.string().nullable(),
  image: StoredImage.nullable(),
  ownerName: z.string(),
  /** Where the geocoder placed the address when it was saved; null when it could not. */
  location: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  /** How far the kitchen delivers, in km. */
  deliveryRadiusKm: z.number().int(),
  /** Its IANA time zone; its weekly hours (null: never set, the spec's every day 10:00–20:15) are in it. */
  timeZone: z.string(),
  hours: WeeklyHours.nullable(),
  /** 'Pause new orders': since when (null: taking orders) and until when (null: until resumed), ISO. */
  pausedAt: z.string().nullable(),
  pausedUntil: z.string().nullable(),
  /** 'About the cook': the cook's story, several lines allowed ('' until written). */
  about: z.string(),
  /** The average of its visible reviews and their number; null before the first. */
  rating: Rating.nullable(),
  /** Suspended by an operator: off the landing page and search, its menu page unavailable, orders refused. */
  suspended: z.boolean(),
  createdAt: z.string(),
});
export type Kitchen = z.infer<typeof Kitchen>;

/** One kitchen as its menu page shows it: also how many orders it has delivered. */
export const KitchenProfile = Kitchen.extend({
  /**
   * Listed under its place's rules (ADR 19): false while it awaits an operator's approval, was refused, or is where
   * home kitchens may not sell. Then only its cook and operators see its menu and reviews; its picture and story are
   * withheld, and its page tells anyone else it is not available.
   */
  listed: z.boolean(),
  deliveredOrders: z.number().int(),
  /** When its reviews last changed (written, answered, hidden); null before the first. */
  reviewsChangedAt: z.string().nullable(),
});
export type KitchenProfile = z.infer<typeof KitchenProfile>;

export const KitchenList = z.array(Kitchen);
export type KitchenList = z.infer<typeof KitchenList>;

/**
 * The landing page's first page of kitchens, newest first (live): `next` asks `/api/kitchens/page` for the page
 * after it (null when there is none), `total` is how many kitchens there are.
 */
export const KitchenFirstPage = z.object({
  kitchens: KitchenList,
  next: z.string().nullable(),
  total: z.number().int(),
  /** The cuisines most kitchens cook (their categories, most common first, at most 12): the landing page's chips. */
  cuisines: z.array(z.string()),
});
export type KitchenFirstPage = z.infer<typeof KitchenFirstPage>;

const KITCHEN_LINK_LABEL = msg('Image of your kitchen link');

const KitchenFields = z.object({
  name: requiredText(msg('Name of Kitchen'), 80),
  category: requiredText(msg('Category'), 40),
  address: requiredText(msg('Address'), 200),
  ...pictureFields(KITCHEN_LINK_LABEL),
  deliveryRadiusKm: DeliveryRadiusKm.optional(),
  timeZone: TimeZoneName.optional(),
  /** null: back to the spec's hours. */
  hours: WeeklyHours.nullable().optional(),
  about: multilineText(msg('About the cook'), MAX_ABOUT_LENGTH).optional(),
});

export const KitchenInput = KitchenFields.superRefine((value, ctx) =>
  checkPictureChoice(value, ctx, KITCHEN_LINK_LABEL, true),
);
export type KitchenInput = z.infer<typeof KitchenInput>;

export const KitchenParams = z.object({
  uid: z.string().uuid({ error: () => t('Kitchen id must be a uuid') }),
});

/** Editing a kitchen: any of its fields, each checked as on registration. */
export const KitchenUpdateInput = KitchenFields.partial()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), {
    error: () => t('Change at least one field'),
  })
  .superRefine((value, ctx) => checkPictureChoice(value, ctx, KITCHEN_LINK_LABEL, false));
export type KitchenUpdateInput = z.infer<typeof KitchenUpdateInput>;

/**
 * The answer to "has the signed-in owner registered a kitchen?". A screen asks this rather than GET /api/kitchen,
 * whose 404 NO_KITCHEN would be an error for an expected state (and a console error in the browser).
 */
export const OwnKitchenCheck = z.object({ kitchen: Kitchen.nullable() });
export type OwnKitchenCheck = z.infer<typeof OwnKitchenCheck>;

/** The error code of the owner's kitchen routes when the signed-in owner has not registered a kitchen yet. */
export const NO_KITCHEN = 'NO_KITCHEN';

/** 'Pause new orders' (optionally until a time), or taking them again. */
export const PauseOrdersInput = z
  .object({
    paused: z.boolean({ error: () => t('paused must be true or false') }),
    until: z.iso
      .datetime({ offset: true, error: () => t('until must be a date and time') })
      .refine(withinCalendar, { error: () => outsideCalendar('until') })
      .nullable()
      .optional(),
  })
  .refine((v) => v.paused || !v.until, { error: () => t('Only a pause has an end'), path: ['until'] });
export type PauseOrdersInput = z.infer<typeof PauseOrdersInput>;
