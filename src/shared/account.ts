import { z } from 'zod';
import { CREDIT_KINDS } from './credit.js';
import { WeeklyHours } from './opening-hours.js';
import { OrderEvent, OrderLine, OrderStateSchema } from './orders.js';
import { LOCALES } from './i18n/locales.js';
import { msg, t } from './i18n/translator.js';

/**
 * `/api/account/:role/...`: the session (customer or kitchen) that speaks for the account. Operators are staff,
 * not account holders here.
 */
export const AccountRole = z.enum(['customer', 'kitchen'], {
  error: () => t('role must be customer or kitchen'),
});
export const AccountParams = z.object({ role: AccountRole });

/** 'Language': the one a person chose, for what reaches them with no page open (emails, pushes). */
export const LanguageInput = z.object({
  locale: z.enum(LOCALES, {
    error: () => t('locale must be one of {locales}', { locales: LOCALES.join(', ') }),
  }),
});
export type LanguageInput = z.infer<typeof LanguageInput>;
export type AccountParams = z.infer<typeof AccountParams>;

/** 'Delete my account' is refused (409) while an order of theirs, placed or received, is in progress. */
export const ORDERS_IN_PROGRESS = 'ORDERS_IN_PROGRESS';

/** What an anonymised order shows in place of the deleted customer's email and address. */
export const DELETED_CUSTOMER_EMAIL = msg('Deleted customer');
export const REMOVED_ADDRESS = msg('Removed');

/** The export's format name and version, first in the file, so a reader knows what it holds. */
export const DATA_EXPORT_FORMAT = 'homecooked-data/1';

/** The file name a download gets: `homecooked-data-2026-11-24.json`. */
export const dataExportFileName = (at: Date) => `homecooked-data-${at.toISOString().slice(0, 10)}.json`;

const when = z.string().describe('ISO 8601 time');
const maybeWhen = when.nullable();

/** One order's money, state and history, as both sides have it. */
const OrderFields = {
  id: z.string().uuid(),
  items: z.array(OrderLine),
  itemsCents: z.number().int(),
  deliveryFeeCents: z.number().int(),
  feesAndTaxCents: z.number().int(),
  totalCents: z.number().int(),
  status: z.string(),
  state: OrderStateSchema,
  readyAt: maybeWhen,
  reason: z.string().nullable(),
  /** Taken off the kitchen's list (the kitchen's Delete). */
  deleted: z.boolean(),
  events: z.array(OrderEvent),
  createdAt: when,
  updatedAt: when,
};

const Review = z.object({
  id: z.string().uuid(),
  orderId: z.string().uuid(),
  stars: z.number().int(),
  text: z.string(),
  reply: z.string().nullable(),
  repliedAt: maybeWhen,
  /** Hidden by an operator. */
  hidden: z.boolean(),
  hiddenAt: maybeWhen,
  createdAt: when,
});

const Picture = z.object({
  id: z.string().uuid(),
  width: z.number().int(),
  height: z.number().int(),
  /** Where each stored size is served (the bytes are not in the file). */
  urls: z.array(z.string()),
  createdAt: when,
});

/** Everything HomeCooked holds about one person, as 'Download my data' gives it (see docs/architecture.md, 'Your data'). */
export const DataExport = z.object({
  format: z.literal(DATA_EXPORT_FORMAT),
  exportedAt: when,
  profile: z.object({
    id: z.string().uuid(),
    name: z.string(),
    email: z.string(),
    picture: z.string().nullable(),
    /** The language they chose for emails and pushes (null: none chosen, English). */
    language: z.string().nullable(),
    createdAt: when,
  }),
  /** 'Your allergies', as they saved them (null: never saved). */
  allergies: z
    .object({ allergens: z.array(z.string()), mayContainMatters: z.boolean(), updatedAt: when })
    .nullable(),
  /** Signed-in browsers (never their tokens). */
  sessions: z.array(z.object({ role: z.string(), createdAt: when, expiresAt: when, current: z.boolean() })),
  /** Orders they placed as a customer. */
  orders: z.array(
    z.object({
      ...OrderFields,
      kitchenUid: z.string().uuid().nullable(),
      kitchenName: z.string(),
      email: z.string(),
      address: z.string(),
      /** The allergies shown to the cook with it, and those they acknowledged it holds. */
      customerAllergies: z.array(z.string()),
      allergensAcknowledged: z.array(z.string()),
    }),
  ),
  chatMessages: z.array(
    z.object({
      id: z.string().uuid(),
      text: z.string(),
      createdAt: when,
      hidden: z.boolean(),
      hiddenAt: maybeWhen,
    }),
  ),
  /** Reviews they wrote, with the cook's reply. */
  reviews: z.array(Review.extend({ kitchenUid: z.string().uuid(), kitchenName: z.string().nullable() })),
  reports: z.array(
    z.object({
      id: z.string().uuid(),
      targetKind: z.string(),
      targetId: z.string().uuid(),
      reason: z.string(),
      createdAt: when,
      closedAt: maybeWhen,
    }),
  ),
  /** Pictures they uploaded. */
  pictures: z.array(Picture),
  /**
   * Their store credit (ADR 29): the balance now and every movement of it, oldest first, signed (given back is
   * positive, spent negative), with the order and kitchen it was about. Null: they never had any.
   */
  storeCredit: z
    .object({
      currency: z.string(),
      balanceCents: z.number().int(),
      entries: z.array(
        z.object({
          id: z.string().uuid(),
          kind: z.enum(CREDIT_KINDS),
          amountCents: z.number().int(),
          orderId: z.string().uuid().nullable(),
          kitchenName: z.string().nullable(),
          createdAt: when,
        }),
      ),
    })
    .nullable(),
  /** Their kitchen, when they own one. */
  kitchen: z
    .object({
      uid: z.string().uuid(),
      name: z.string(),
      category: z.string(),
      address: z.string(),
      about: z.string(),
      imageLink: z.string().nullable(),
      imageId: z.string().uuid().nullable(),
      ownerName: z.string(),
      ownerEmail: z.string(),
      location: z.object({ lat: z.number(), lon: z.number() }).nullable(),
      deliveryRadiusKm: z.number().int(),
      timeZone: z.string(),
      hours: WeeklyHours.nullable(),
      pausedAt: maybeWhen,
      pausedUntil: maybeWhen,
      suspendedAt: maybeWhen,
      createdAt: when,
      menu: z.array(
        z.object({
          id: z.string().uuid(),
          item: z.string(),
          secondName: z.string().nullable(),
          priceCents: z.number().int(),
          wait: z.string(),
          imageLink: z.string().nullable(),
          imageId: z.string().uuid().nullable(),
          dietary: z.array(z.string()),
          allergens: z.array(z.string()),
          mayContain: z.array(z.string()),
          allergensDeclaredAt: maybeWhen,
          ingredients: z.string(),
          keepsDays: z.number().int().nullable(),
          reheating: z.string(),
          soldOut: z.boolean(),
          portionsPerDay: z.number().int().nullable(),
          createdAt: when,
        }),
      ),
      /** Orders the kitchen received, with the customer's email and address as its dashboard shows them. */
      ordersReceived: z.array(z.object({ ...OrderFields, customerEmail: z.string(), address: z.string() })),
      /** Customers' reviews of the kitchen, with its replies. */
      reviews: z.array(Review),
    })
    .nullable(),
});
export type DataExport = z.infer<typeof DataExport>;
