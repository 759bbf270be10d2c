import { sql } from 'drizzle-orm';
import type { WeeklyHours } from '../../shared/opening-hours.js';
import { OPERATOR_ACTION_KINDS, REPORT_TARGET_KINDS } from '../../shared/moderation.js';
import { ORDER_STATES, PROGRESS_STATES } from '../../shared/order-states.js';
import { FULFILMENTS } from '../../shared/ordering.js';
import { NOTICE_KINDS } from '../../shared/notifications.js';
import { DOCUMENT_KINDS } from '../../shared/kitchen-documents.js';
import { KITCHEN_LISTINGS, OVERRIDE_KEYS, OVERRIDE_SCOPES } from '../../shared/jurisdictions.js';
import { PAYMENT_METHODS, PAYMENT_STATES, PAYOUT_STATES } from '../../shared/payments.js';
import { REFUND_PAYERS, REFUND_STATES } from '../../shared/refunds.js';
import { CODE_PAYERS } from '../../shared/code-input.js';
import { PROBLEM_REASONS } from '../../shared/problem-reports.js';
import { CREDIT_KINDS, REFUND_AS } from '../../shared/credit.js';
import { ALLERGENS, type Allergen } from '../../shared/allergen-set.js';
import { PLAN_STATUSES, PLAN_WEEK_STATES } from '../../shared/plans.js';
import { WEEKDAYS } from '../../shared/opening-hours-rules.js';
import {
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A person known through an OpenID provider; the same (issuer, subject) is always the same user. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    photoUrl: text('photo_url'),
    /** The language they chose (src/shared/i18n/locales.ts), for what reaches them with no page open: emails, pushes. */
    locale: text('locale'),
    /** Their customer at the payment provider (`cus_…`), on whom saved cards are kept: made once, when first needed. */
    paymentCustomerId: text('payment_customer_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_issuer_subject_key').on(t.issuer, t.subject)],
);

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['kitchen', 'customer', 'operator'] }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    check('sessions_role_check', sql`${t.role} in ('kitchen', 'customer', 'operator')`),
  ],
);

/** A list of texts for `in (...)` in a check or index (constants of ours, never input). */
const sqlTextList = (states: readonly string[]) =>
  sql.raw(`(${states.map((state) => `'${state}'`).join(', ')})`);

/** A text array literal, for `<@` in a check (constants of ours, never input). */
const sqlTextArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value}'`).join(', ')}]::text[]`);

/** One kitchen per owner: the owner's user id is the kitchen's public id (the spec's uid). */
export const kitchens = pgTable(
  'kitchens',
  {
    ownerId: uuid('owner_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: text('category').notNull(),
    address: text('address').notNull(),
    /** The cook's picture: a link they typed, or a picture they uploaded (exactly one of the two). */
    imageLink: text('image_link'),
    imageId: uuid('image_id').references((): AnyPgColumn => images.id),
    ownerName: text('owner_name').notNull(),
    ownerEmail: text('owner_email').notNull(),
    /** Where the address was placed by the geocoder when saved; null when it could not be placed. */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** Its country (ISO 3166-1 alpha-2), region and county as the geocoder named them: they pick its rules. */
    countryCode: text('country_code'),
    region: text('region'),
    county: text('county'),
    deliveryRadiusKm: integer('delivery_radius_km').notNull().default(5),
    /** The kitchen's IANA time zone (its hours and its "today" are in it), from the cook's browser. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Weekly opening hours (src/shared/opening-hours.ts); null: never set, the spec's 10:00–20:15 every day. */
    openingHours: jsonb('opening_hours').$type<WeeklyHours>(),
    /** 'Pause new orders': since when (null: taking orders), and until when (null: until the cook resumes). */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    /** 'About the cook': the cook's story, shown on the menu page ('' until written). */
    about: text('about').notNull().default(''),
    /** Suspended by an operator: hidden from the landing page and search, its menu page unavailable, orders refused. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /**
     * Whether its place's rules let it be listed yet (src/shared/jurisdictions.ts, KITCHEN_LISTINGS): only a 'listed'
     * kitchen is on the landing page and in search and takes orders. Kitchens from before the rules stay listed.
     */
    listing: text('listing', { enum: KITCHEN_LISTINGS }).notNull().default('listed'),
    /** The operator's reason when they asked for changes or refused it. */
    listingReason: text('listing_reason').notNull().default(''),
    listingDecidedAt: timestamp('listing_decided_at', { withTimezone: true }),
    /** The kitchen's connected account at the payment provider (null: payouts never set up). */
    payoutAccountId: text('payout_account_id'),
    /**
     * When a payout account was first asked of the provider: an attempt whose answer was lost is looked up before
     * another is made (an idempotency key lives 24 hours at Stripe).
     */
    payoutAccountRequestedAt: timestamp('payout_account_requested_at', { withTimezone: true }),
    /** Where its payouts stand ('payouts-on': it can take card orders), as the provider last said. */
    payoutState: text('payout_state', { enum: PAYOUT_STATES }).notNull().default('not-set-up'),
    /** 'Accept cash on delivery'. */
    acceptsCash: boolean('accepts_cash').notNull().default(false),
    /** 'Accept tips': its customers may tip at checkout and for 48 hours after delivery (card payments only). */
    acceptsTips: boolean('accepts_tips').notNull().default(true),
    /** How it takes orders (src/shared/ordering.ts): delivery, pickup or both; now, in slots ahead, or both. */
    offersDelivery: boolean('offers_delivery').notNull().default(true),
    offersPickup: boolean('offers_pickup').notNull().default(false),
    /** Where to collect a pickup order, and how: told to a customer once their pickup order is accepted. */
    pickupAddress: text('pickup_address').notNull().default(''),
    pickupInstructions: text('pickup_instructions').notNull().default(''),
    takesAsap: boolean('takes_asap').notNull().default(true),
    /** Slots' length in minutes; null: no orders for later. */
    slotMinutes: integer('slot_minutes'),
    priorNoticeMinutes: integer('prior_notice_minutes').notNull().default(120),
    daysAhead: integer('days_ahead').notNull().default(2),
    /** 'HH:MM' local: no orders for today's slots after it (null: none). */
    sameDayCutoff: text('same_day_cutoff'),
    /** How many orders a slot takes (null: no cap). */
    ordersPerSlot: integer('orders_per_slot'),
    /** Its dishes must total at least this for an order (0: no minimum). */
    minimumOrderCents: integer('minimum_order_cents').notNull().default(0),
    /** 'Offer weekly plans' (ADR 26), and each week's cut-off: how many hours before its slot its order is placed. */
    plansOffered: boolean('plans_offered').notNull().default(false),
    planCutoffHours: integer('plan_cutoff_hours').notNull().default(48),
    /** 'Cook's choice allowed': a plan may let the cook choose its dishes within its budget, or replace a gone dish. */
    planCooksChoice: boolean('plan_cooks_choice').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('kitchens_created_at_idx').on(t.createdAt.desc()),
    uniqueIndex('kitchens_payout_account_key').on(t.payoutAccountId),
    check('kitchens_payout_state_check', sql`${t.payoutState} in ${sqlTextList(PAYOUT_STATES)}`),
    check('kitchens_listing_check', sql`${t.listing} in ${sqlTextList(KITCHEN_LISTINGS)}`),
    // The operator's queue: kitchens waiting for a decision, oldest first.
    index('kitchens_awaiting_approval_idx')
      .on(t.createdAt)
      .where(sql`${t.listing} = 'awaiting-approval'`),
    index('kitchens_image_idx').on(t.imageId),
    check('kitchens_one_picture_check', sql`num_nonnulls(${t.imageLink}, ${t.imageId}) = 1`),
    check('kitchens_delivery_radius_check', sql`${t.deliveryRadiusKm} between 1 and 100`),
    check('kitchens_fulfilment_check', sql`${t.offersDelivery} or ${t.offersPickup}`),
    check('kitchens_when_check', sql`${t.takesAsap} or ${t.slotMinutes} is not null`),
    check('kitchens_plan_cutoff_check', sql`${t.planCutoffHours} between 1 and 120`),
    check(
      'kitchens_slots_check',
      sql`${t.slotMinutes} between 15 and 240 and ${t.priorNoticeMinutes} between 0 and 2880 and ${t.daysAhead} between 0 and 5 and ${t.ordersPerSlot} >= 1 and ${t.minimumOrderCents} >= 0`,
    ),
    check(
      'kitchens_location_check',
      sql`(${t.latitude} is null) = (${t.longitude} is null) and ${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180`,
    ),
  ],
);

export const menuItems = pgTable(
  'menu_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    item: text('item').notNull(),
    /** The dish's name in a second script or language ('मसाला डोसा' beside 'Masala dosa'); search finds either. */
    secondName: text('second_name'),
    imageLink: text('image_link'),
    imageId: uuid('image_id').references((): AnyPgColumn => images.id),
    priceCents: integer('price_cents').notNull(),
    wait: text('wait').notNull(),
    /** Dietary tags and declared allergens (src/shared/dietary.ts names the allowed values). */
    dietary: text('dietary')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The allergens it contains; `may_contain` those it may (cross-contact); every other 'no' once declared. */
    allergens: text('allergens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    mayContain: text('may_contain')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When the cook last answered for every allergen of the set (null: 'Allergens not declared'). */
    allergensDeclaredAt: timestamp('allergens_declared_at', { withTimezone: true }),
    /** The ingredients as the cook lists them (shown on the menu and the labels). */
    ingredients: text('ingredients').notNull().default(''),
    /** For labels: the days it keeps after the day it is made (the use-by date), and how to reheat it. */
    keepsDays: integer('keeps_days'),
    reheating: text('reheating').notNull().default(''),
    /** Marked 'Sold out' by the cook (until unmarked). */
    soldOut: boolean('sold_out').notNull().default(false),
    /** Portions the cook makes a day (null: no limit); counted down by orders, afresh at the kitchen's midnight. */
    portionsPerDay: integer('portions_per_day'),
    createdAt: createdAt(),
  },
  (t) => [
    index('menu_items_kitchen_idx').on(t.kitchenId, t.createdAt),
    index('menu_items_image_idx').on(t.imageId),
    index('menu_items_dietary_idx').using('gin', t.dietary),
    check('menu_items_price_check', sql`${t.priceCents} >= 0`),
    check('menu_items_one_picture_check', sql`num_nonnulls(${t.imageLink}, ${t.imageId}) = 1`),
    check(
      'menu_items_allergens_check',
      sql`${t.allergens} <@ ${sqlTextArray(ALLERGENS)} and ${t.mayContain} <@ ${sqlTextArray(ALLERGENS)} and not ${t.allergens} && ${t.mayContain}`,
    ),
    check('menu_items_keeps_days_check', sql`${t.keepsDays} between 0 and 30`),
  ],
);

/** Every declaration a dish made (its allergens and ingredients), with its time: its history. */
export const dishDeclarations = pgTable(
  'dish_declarations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    menuItemId: uuid('menu_item_id')
      .notNull()
      .references(() => menuItems.id, { onDelete: 'cascade' }),
    contains: text('contains').array().notNull(),
    mayContain: text('may_contain').array().notNull(),
    /** Whether it answered for every allergen. */
    declared: boolean('declared').notNull(),
    ingredients: text('ingredients').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dish_declarations_item_idx').on(t.menuItemId, t.createdAt)],
);

/** 'Your allergies': a customer's allergens, and whether 'may contain' matters to them. Goes with the account. */
export const allergyProfiles = pgTable(
  'allergy_profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    allergens: text('allergens').array().notNull(),
    mayContainMatters: boolean('may_contain_matters').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('allergy_profiles_allergens_check', sql`${t.allergens} <@ ${sqlTextArray(ALLERGENS)}`)],
);

/** Portions of a dish ordered on one day of its kitchen (its local date); declined and cancelled orders give back. */
export const dishPortions = pgTable(
  'dish_portions',
  {
    menuItemId: uuid('menu_item_id')
      .notNull()
      .references(() => menuItems.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    taken: integer('taken').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.menuItemId, t.day] }),
    check('dish_portions_taken_check', sql`${t.taken} >= 0`),
  ],
);

/**
 * An order. A customer has at most one order 'As soon as possible' in progress (not ended: delivered, declined,
 * cancelled; not archived: the kitchen's Delete), and at most one per kitchen and slot; pre-orders for other slots
 * (a weekly plan's among them) do not count against the one for now (ADR 31). Fees and totals are stored as
 * computed on the server when it was placed.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the kitchen was deleted: its customers keep the order in their history (kitchen_name stays). */
    kitchenId: uuid('kitchen_id').references(() => kitchens.ownerId, { onDelete: 'set null' }),
    kitchenName: text('kitchen_name').notNull(),
    /** Null once the customer deleted their account: the kitchen keeps the order, customer_email anonymised. */
    customerId: uuid('customer_id').references(() => users.id, { onDelete: 'set null' }),
    customerEmail: text('customer_email').notNull(),
    address: text('address').notNull(),
    /** The spec's free-text status (each move sets it to the state's name; the kitchen's Update to anything). */
    status: text('status').notNull().default('recieved'),
    state: text('state', { enum: ORDER_STATES }).notNull().default('recieved'),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /** The kitchen's local day whose portions this order took (null: none of its dishes is counted). */
    portionsDay: date('portions_day'),
    /**
     * The kitchen's local day whose meal caps (its jurisdiction's meals a day, a week, gross a year) this order
     * counts against, and how many meals it counted (null, 0: its kitchen's rules cap nothing).
     */
    capsDay: date('caps_day'),
    capsMeals: integer('caps_meals').notNull().default(0),
    /** Why the order was declined or cancelled. */
    endReason: text('end_reason'),
    itemsCents: integer('items_cents').notNull(),
    deliveryFeeCents: integer('delivery_fee_cents').notNull(),
    feesAndTaxCents: integer('fees_and_tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    /**
     * The tip chosen at checkout, in `total_cents` (the customer pays it with the order) and outside
     * `platform_fee_cents`: it goes to the kitchen whole. Tips given after delivery are `order_tips` rows.
     */
    tipCents: integer('tip_cents').notNull().default(0),
    /**
     * The part of `total_cents` paid with the customer's store credit (ADR 29), taken from their credit account when
     * the order was placed; the card is charged the rest. The platform funds it: the kitchen's part is unchanged.
     */
    creditCents: integer('credit_cents').notNull().default(0),
    /**
     * The transfer from the platform's balance that pays the kitchen the part of its share the card charge cannot
     * carry (credit above the platform's fee), once made; and whether a full refund reversed it.
     */
    creditTransferId: text('credit_transfer_id'),
    creditTransferReversed: boolean('credit_transfer_reversed').notNull().default(false),
    /**
     * A promotion code's discount (ADR 30), taken off what the customer pays: `total_cents` is after it. The code as
     * applied (normalised) and who pays it: `platform` (its fee first, then a transfer of its own, the kitchen's part
     * unchanged) or `kitchen` (the kitchen's part is lowered). Zero and null without a code.
     */
    discountCents: integer('discount_cents').notNull().default(0),
    discountCode: text('discount_code'),
    discountPaidBy: text('discount_paid_by', { enum: CODE_PAYERS }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** What was asked with the idempotency key (a hash): the same key with another cart is refused. */
    requestHash: text('request_hash'),
    /** How it is paid, and where that payment stands (src/shared/payments.ts). */
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('cash'),
    paymentState: text('payment_state', { enum: PAYMENT_STATES }).notNull().default('cash-due'),
    /** The platform's part of the total (fees and tax, and its commission on the items), kept from a card payment. */
    platformFeeCents: integer('platform_fee_cents').notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    /** The provider's checkout session, its page, and the payment it authorises. */
    checkoutSessionId: text('checkout_session_id'),
    checkoutUrl: text('checkout_url'),
    /** When its payment page closes unpaid (the session's `expires_at`). */
    checkoutExpiresAt: timestamp('checkout_expires_at', { withTimezone: true }),
    paymentIntentId: text('payment_intent_id'),
    /** When the payment was authorised (the kitchen sees the order from then on). */
    authorisedAt: timestamp('authorised_at', { withTimezone: true }),
    /** Until when the authorised payment can be captured: its charge's `capture_before`, as the provider says. */
    holdUntil: timestamp('hold_until', { withTimezone: true }),
    /** The card that paid, as its charge says ('visa', '4242'), learnt once the payment is authorised: for the receipt. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** When its payment state last changed: a step pending too long is retried by the poll. */
    paymentUpdatedAt: timestamp('payment_updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A pending step that failed: how many times in a row, when the poll tries it next (backing off), why the last
     * try failed, and when it was given up on (the operator's 'Money' tab lists it; the poll leaves it).
     */
    paymentFailures: integer('payment_failures').notNull().default(0),
    paymentRetryAt: timestamp('payment_retry_at', { withTimezone: true }),
    paymentError: text('payment_error'),
    paymentGaveUpAt: timestamp('payment_gave_up_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Delivered to `address`, or collected from the kitchen's pickup address. */
    fulfilment: text('fulfilment', { enum: FULFILMENTS }).notNull().default('delivery'),
    /** A pre-order's slot, in the kitchen's slots (null: 'As soon as possible'). */
    slotStart: timestamp('slot_start', { withTimezone: true }),
    slotEnd: timestamp('slot_end', { withTimezone: true }),
    /** Until when the kitchen may answer it (a pre-order: until its slot's prior notice begins); null: the default. */
    answerBy: timestamp('answer_by', { withTimezone: true }),
    /** 'A note for the cook'. */
    note: text('note').notNull().default(''),
    /** The customer's allergies when they placed it (shown to the cook), and those they acknowledged it holds. */
    customerAllergies: text('customer_allergies')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    allergensAcknowledged: text('allergens_acknowledged')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_one_in_progress_per_customer')
      .on(t.customerId)
      .where(
        sql`${t.archivedAt} is null and ${t.state} in ${sqlTextList(PROGRESS_STATES)} and ${t.slotStart} is null`,
      ),
    uniqueIndex('orders_one_in_progress_per_customer_slot')
      .on(t.customerId, t.kitchenId, t.slotStart)
      .where(
        sql`${t.archivedAt} is null and ${t.state} in ${sqlTextList(PROGRESS_STATES)} and ${t.slotStart} is not null`,
      ),
    index('orders_customer_idx').on(t.customerId, t.createdAt.desc()),
    check('orders_state_check', sql`${t.state} in ${sqlTextList(ORDER_STATES)}`),
    uniqueIndex('orders_customer_idempotency_key').on(t.customerId, t.idempotencyKey),
    index('orders_kitchen_idx').on(t.kitchenId, t.createdAt.desc()),
    check(
      'orders_totals_check',
      sql`${t.totalCents} = ${t.itemsCents} + ${t.deliveryFeeCents} + ${t.feesAndTaxCents} + ${t.tipCents} - ${t.discountCents}`,
    ),
    check(
      'orders_discount_check',
      sql`${t.discountCents} between 0 and ${t.itemsCents} and (${t.discountCents} = 0) = (${t.discountPaidBy} is null)`,
    ),
    check('orders_tip_check', sql`${t.tipCents} >= 0`),
    check('orders_credit_check', sql`${t.creditCents} between 0 and ${t.totalCents}`),
    check('orders_payment_method_check', sql`${t.paymentMethod} in ${sqlTextList(PAYMENT_METHODS)}`),
    check('orders_payment_state_check', sql`${t.paymentState} in ${sqlTextList(PAYMENT_STATES)}`),
    check(
      'orders_platform_fee_check',
      sql`${t.platformFeeCents} between 0 and ${t.totalCents} + ${t.discountCents}`,
    ),
    uniqueIndex('orders_payment_intent_key').on(t.paymentIntentId),
    check('orders_fulfilment_check', sql`${t.fulfilment} in ${sqlTextList(FULFILMENTS)}`),
    check(
      'orders_slot_check',
      sql`(${t.slotStart} is null) = (${t.slotEnd} is null) and ${t.slotEnd} > ${t.slotStart}`,
    ),
    check('orders_note_check', sql`char_length(${t.note}) <= 300`),
    index('orders_kitchen_slot_idx')
      .on(t.kitchenId, t.slotStart)
      .where(sql`${t.slotStart} is not null`),
    // The poll's work: payment steps pending, payments awaited, orders waiting for the kitchen's answer.
    index('orders_payment_pending_idx')
      .on(t.paymentUpdatedAt)
      .where(
        sql`${t.paymentState} in ('awaiting-payment', 'authorised', 'capturing', 'releasing', 'refunding') or ${t.state} = 'recieved'`,
      ),
  ],
);

/**
 * A customer's weekly plan at a kitchen (ADR 26): every week on `weekday` at `slot_time` (the kitchen's zone), the
 * same dishes (`item_ids`, a dish repeated for each portion), placed at the kitchen's cut-off as a pre-order. Weeks
 * whose slot is before `starts_on` or `paused_until` are not placed.
 */
export const mealPlans = pgTable(
  'meal_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    weekday: text('weekday', { enum: WEEKDAYS }).notNull(),
    /** 'HH:MM': the slot's start in the kitchen's time zone. */
    slotTime: text('slot_time').notNull(),
    itemIds: uuid('item_ids').array().notNull(),
    fulfilment: text('fulfilment', { enum: FULFILMENTS }).notNull(),
    address: text('address').notNull().default(''),
    location: jsonb('location').$type<{ lat: number; lon: number }>(),
    note: text('note').notNull().default(''),
    allergensAcknowledged: text('allergens_acknowledged')
      .array()
      .$type<Allergen[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull(),
    /**
     * A card plan: the provider's page on which its customer saves the card (Checkout in setup mode), and the card
     * it saved (a PaymentMethod, `pm_…`); none saved yet: 'Waiting for your card', and no week is charged.
     */
    cardSetupSessionId: text('card_setup_session_id'),
    cardSetupUrl: text('card_setup_url'),
    cardPaymentMethodId: text('card_payment_method_id'),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('active'),
    /** The local date of its first week's slot. */
    startsOn: date('starts_on').notNull(),
    /** 'Pause until': no week whose slot's date is before it is placed. */
    pausedUntil: date('paused_until'),
    /**
     * When the pause was set, and when the plan was cancelled: a week whose cut-off came before either is placed
     * all the same (a change after a week's cut-off does not reach that week).
     */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * What the customer spends on dishes each week, in minor units: the dishes' prices when they were chosen, or the
     * budget they set for the cook's choice (null on plans older than it). A dish gone from the menu is replaced
     * within what it leaves, where the kitchen allows the cook's choice.
     */
    budgetCents: integer('budget_cents'),
    /** 'Let the cook choose': each week's dishes are picked from the menu at the cut-off within `budgetCents`. */
    cooksChoice: boolean('cooks_choice').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('meal_plans_customer_idx').on(t.customerId),
    index('meal_plans_active_kitchen_idx')
      .on(t.kitchenId)
      .where(sql`${t.status} = 'active'`),
    check('meal_plans_status_check', sql`${t.status} in ${sqlTextList(PLAN_STATUSES)}`),
    check('meal_plans_weekday_check', sql`${t.weekday} in ${sqlTextList(WEEKDAYS)}`),
    check('meal_plans_slot_time_check', sql`${t.slotTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('meal_plans_fulfilment_check', sql`${t.fulfilment} in ${sqlTextList(FULFILMENTS)}`),
    check('meal_plans_payment_check', sql`${t.paymentMethod} in ${sqlTextList(PAYMENT_METHODS)}`),
    check('meal_plans_items_check', sql`cardinality(${t.itemIds}) between 1 and 50`),
  ],
);

/**
 * One week of a plan, once something happened to it: skipped, being placed, placed (its order), failed (why). Its
 * key (plan, local date of the week's slot) is what makes a week placed once, whatever runs the job how often.
 */
export const mealPlanWeeks = pgTable(
  'meal_plan_weeks',
  {
    /** The notice of a failed week names it. */
    id: uuid('id').notNull().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => mealPlans.id, { onDelete: 'cascade' }),
    slotDate: date('slot_date').notNull(),
    state: text('state', { enum: PLAN_WEEK_STATES }).notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** A failed week: the refusal's code and its words (English; translated as shown). */
    reasonCode: text('reason_code'),
    reason: text('reason'),
    reasonValues: jsonb('reason_values').$type<Record<string, string | number>>(),
    /** A placement holds a 'placing' week until then: after, another may take it over (the first one died). */
    heldUntil: timestamp('held_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.slotDate] }),
    uniqueIndex('meal_plan_weeks_id_key').on(t.id),
    index('meal_plan_weeks_order_idx').on(t.orderId),
    check('meal_plan_weeks_state_check', sql`${t.state} in ${sqlTextList(PLAN_WEEK_STATES)}`),
  ],
);

/**
 * A plan's dishes changed for one week only (the customer's 'Change dishes' for that week): its week's order is of
 * these, the plan's own dishes stay for the other weeks. Written only before that week's cut-off.
 */
export const mealPlanWeekDishes = pgTable(
  'meal_plan_week_dishes',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => mealPlans.id, { onDelete: 'cascade' }),
    slotDate: date('slot_date').notNull(),
    itemIds: uuid('item_ids').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.slotDate] })],
);

/**
 * A PDF of a kitchen's paper, as its cook uploaded it (checked to start as a PDF does, 5 MB at most): private, shown
 * only to the cook and operators. A photo of a paper is a private picture in `images` instead.
 */
export const documentFiles = pgTable(
  'document_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  // A cook's account deleted finds their files by it (the foreign key's cascade).
  (t) => [index('document_files_owner_idx').on(t.ownerId)],
);

/**
 * A kitchen's papers as its cook typed them: its permit, the operator's food safety certificate, each helper's food
 * handler card, with its number and the last day it is valid. A renewal is a new row; what is in force is decided by
 * the expiry dates (src/server/data/kitchen-documents.ts).
 */
export const kitchenDocuments = pgTable(
  'kitchen_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    number: text('number').notNull(),
    /** Whose it is (a helper's name for a food handler card), '' for the kitchen's own. */
    holder: text('holder').notNull().default(''),
    expiresOn: date('expires_on').notNull(),
    /** A photo of the paper (a private picture) or, instead, a PDF of it; neither when the cook gave none. */
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'set null' }),
    fileId: uuid('file_id').references(() => documentFiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('kitchen_documents_one_file_check', sql`${t.imageId} is null or ${t.fileId} is null`),
    index('kitchen_documents_kitchen_idx').on(t.kitchenId, t.kind, t.expiresOn.desc()),
    // A picture or PDF removed finds the document that showed it (the foreign keys' set null); most have none.
    index('kitchen_documents_image_idx')
      .on(t.imageId)
      .where(sql`${t.imageId} is not null`),
    index('kitchen_documents_file_idx')
      .on(t.fileId)
      .where(sql`${t.fileId} is not null`),
    // The reminders' sweep: documents by the day they expire.
    index('kitchen_documents_expires_idx').on(t.expiresOn),
    check('kitchen_documents_kind_check', sql`${t.kind} in ${sqlTextList(DOCUMENT_KINDS)}`),
    check('kitchen_documents_number_check', sql`char_length(${t.number}) between 1 and 60`),
  ],
);

/**
 * The people who cook with a kitchen's cook (its helpers), with the day each started: where the kitchen's rules ask
 * helpers for a food handler card within N days (California: 30 days of hire), the day it is due. A helper's card is
 * a food handler card in kitchen_documents whose holder is the helper's name (without case).
 */
export const kitchenHelpers = pgTable(
  'kitchen_helpers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The day they started (hired), in the kitchen's calendar. */
    startedOn: date('started_on').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One helper by a name in a kitchen (their card is found by it); the kitchen's helpers found by it too.
    uniqueIndex('kitchen_helpers_name_key').on(t.kitchenId, sql`lower(${t.name})`),
    check('kitchen_helpers_name_check', sql`char_length(${t.name}) between 1 and 100`),
  ],
);

/**
 * Operators' overrides of a jurisdiction profile's values (ADR 27): for every kitchen under a profile (`scope`
 * 'profile', `target` its id) or for one kitchen ('kitchen', its uid). One row per scope, target and key, replaced by
 * the next override of it; each is also in the operators' log, with who and why.
 */
export const ruleOverrides = pgTable(
  'rule_overrides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: text('scope', { enum: OVERRIDE_SCOPES }).notNull(),
    target: text('target').notNull(),
    key: text('key', { enum: OVERRIDE_KEYS }).notNull(),
    /** Meals, or gross in minor units; null: no cap. */
    value: integer('value'),
    reason: text('reason').notNull(),
    operatorId: uuid('operator_id').references(() => users.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rule_overrides_target_key').on(t.scope, t.target, t.key),
    check('rule_overrides_scope_check', sql`${t.scope} in ${sqlTextList(OVERRIDE_SCOPES)}`),
    check('rule_overrides_key_check', sql`${t.key} in ${sqlTextList(OVERRIDE_KEYS)}`),
    check('rule_overrides_value_check', sql`${t.value} is null or ${t.value} >= 1`),
  ],
);

/**
 * Changes of the platform's commission on card orders' dishes, announced to every cook at least 30 days before the
 * day they apply from (California Health and Safety Code §114367.6; ADR 27). The latest change whose day has come
 * is in force; before the first, PLATFORM_COMMISSION_PERCENT.
 */
export const feeChanges = pgTable(
  'fee_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The commission in hundredths of a percent (12.5 % is 1250). */
    commissionBasisPoints: integer('commission_basis_points').notNull(),
    /** The first day (UTC) it applies to orders placed. */
    effectiveOn: date('effective_on').notNull(),
    operatorId: uuid('operator_id').references(() => users.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('fee_changes_effective_idx').on(t.effectiveOn.desc(), t.createdAt.desc()),
    check('fee_changes_commission_check', sql`${t.commissionBasisPoints} between 0 and 10000`),
  ],
);

export const CAP_PERIODS = ['day', 'week', 'year'] as const;

/**
 * Meals and gross sales (its dishes' prices) a kitchen's orders counted in each of its local days, weeks (from
 * Monday) and years, for its jurisdiction's caps: taken in the order's transaction by one guarded upsert, given back
 * by a declined or cancelled order. Kept only for kitchens whose rules cap something.
 */
export const kitchenMealCounts = pgTable(
  'kitchen_meal_counts',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    period: text('period', { enum: CAP_PERIODS }).notNull(),
    starts: date('starts').notNull(),
    meals: integer('meals').notNull(),
    grossMinor: integer('gross_minor').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kitchenId, t.period, t.starts] }),
    check('kitchen_meal_counts_period_check', sql`${t.period} in ${sqlTextList(CAP_PERIODS)}`),
    check('kitchen_meal_counts_counts_check', sql`${t.meals} >= 0 and ${t.grossMinor} >= 0`),
  ],
);

/** How many orders a kitchen's slot has taken (declined, cancelled and unpaid ones give their place back). */
export const slotBookings = pgTable(
  'slot_bookings',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    slotStart: timestamp('slot_start', { withTimezone: true }).notNull(),
    taken: integer('taken').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kitchenId, t.slotStart] }),
    check('slot_bookings_taken_check', sql`${t.taken} >= 0`),
  ],
);

/**
 * The conversation of one order: its customer and its cook write to each other, from placing it until a week
 * after it ended. Only the two (and operators) read it.
 */
export const orderMessages = pgTable(
  'order_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Null once its author deleted their account (the message stays for the other side, by role). */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorRole: text('author_role', { enum: ['customer', 'kitchen'] }).notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('order_messages_order_idx').on(t.orderId, t.createdAt, t.id),
    // An account's deletion sets its messages' author null: found by this index, not by reading every message.
    index('order_messages_author_idx').on(t.authorId),
    check('order_messages_role_check', sql`${t.authorRole} in ('customer', 'kitchen')`),
    check('order_messages_text_check', sql`char_length(${t.text}) between 1 and 500`),
  ],
);

/**
 * The notifications outbox: what a person is to be told, written in the transaction of the change it reports (so
 * that nothing is told of a change that did not commit, and nothing committed goes untold). One row per notice and
 * recipient, its key making a change told once (`order:<id>:accepted:<recipient>`); the worker sends its email and
 * its pushes at least once, marking each channel done as it goes, and retries with backoff what failed.
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    /**
     * No foreign key: the order's statement enqueues its cook's notice while it holds the kitchen's row, and an
     * account deletion holds the user's row before it deletes the kitchen; a key-share lock on the user would make
     * the two deadlock. The deletion deletes its person's notices; the worker drops one whose person is gone.
     */
    recipientId: uuid('recipient_id').notNull(),
    kind: text('kind', { enum: NOTICE_KINDS }).notNull(),
    /** The order, review or kitchen it is about. */
    subjectId: uuid('subject_id').notNull(),
    /** When each channel was done (sent, or nothing to send: turned off, no device). */
    emailDoneAt: timestamp('email_done_at', { withTimezone: true }),
    pushDoneAt: timestamp('push_done_at', { withTimezone: true }),
    /**
     * The devices (push_subscriptions ids) it has reached: an attempt after one failed at another device pushes to
     * those it has not reached only.
     */
    pushedTo: uuid('pushed_to')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    attempts: integer('attempts').notNull().default(0),
    /** Not to be tried before (backoff after a failure); a worker's claim moves it past its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The claim that holds it (a new one each time a worker claims it): a worker renews its lease, and marks what it
     * sent, only while the claim is still its own, so that one whose lease ran out never sends what another took.
     */
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_outbox_key').on(t.key),
    index('notification_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.emailDoneAt} is null or ${t.pushDoneAt} is null`),
    index('notification_outbox_recipient_idx').on(t.recipientId),
    check('notification_outbox_kind_check', sql`${t.kind} in ${sqlTextList(NOTICE_KINDS)}`),
  ],
);

/** A device's Web Push subscription: where the push service takes this person's notifications. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    name: text('name').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** A person's email setting for a kind of notice (no row: on). */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTICE_KINDS }).notNull(),
    email: boolean('email').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('notification_settings_kind_check', sql`${t.kind} in ${sqlTextList(NOTICE_KINDS)}`),
  ],
);

/**
 * The money ledger: every movement of an order's money, in integer minor units, written in the transaction of the
 * order change it belongs to. One row per order and kind, so that a step done twice is recorded once. Signed:
 * releases, refunds and reversals are negative. Kinds: `authorised` (a hold), `released`, `captured`, its split
 * into `platform_fee` and `kitchen_transfer`, `refunded` with `platform_fee_refunded` and
 * `kitchen_transfer_reversed`, and `cash_collected` (paid to the cook on delivery).
 */
export const LEDGER_KINDS = [
  'authorised',
  'released',
  'captured',
  'platform_fee',
  'kitchen_transfer',
  'refunded',
  'platform_fee_refunded',
  'kitchen_transfer_reversed',
  'cash_collected',
  /** A dispute's entry (`dispute:<id>`): the amount taken from the platform's balance, its fee, and what a won one gives back. */
  'dispute_withdrawn',
  'dispute_fee',
  'dispute_reinstated',
  'dispute_fee_returned',
  /**
   * A tip, outside the platform's fee (ADR 25): its own entry, `tip:checkout` for one paid with the order (its money
   * is in the order's `captured`; `tip_transfer` is its part of the transfer, `tip_reversed` when the order is
   * refunded in full) or `tip:<id>` for one paid after delivery (`tip` what the customer paid, `tip_transfer` all of
   * it to the kitchen).
   */
  'tip',
  'tip_transfer',
  'tip_reversed',
  /**
   * Store credit (ADR 29). An order paid partly or wholly with credit: `credit_spent` (what the customer paid with
   * credit, beside `captured`) and `credit_fee_funded` (the part of the platform's fee taken in credit rather than
   * card money: the platform funds credit) at capture, entry `credit`; `credit_returned` and
   * `credit_fee_funded_reversed` when the whole order is refunded. A refund (or its part) given as credit, entry
   * `refund:<id>`: `credit_issued` (what the customer got back as credit) and `credit_platform_funded` (who pays: the
   * platform). `credit_transfer` and `credit_transfer_reversed` note the transfer from the platform's balance that
   * pays the kitchen what the card charge could not carry: they are in `kitchen_transfer` already, and are taken out
   * of it where the ledger is compared with the order's payment at the provider.
   */
  'credit_spent',
  'credit_fee_funded',
  'credit_returned',
  'credit_fee_funded_reversed',
  'credit_issued',
  'credit_platform_funded',
  'credit_transfer',
  'credit_transfer_reversed',
  /**
   * A promotion code's discount (ADR 30), entry `discount`, written when the order is paid (captured, or cash paid):
   * `discount_given` (what the customer did not pay, beside `captured`) and who pays it: `discount_fee_funded` (a
   * platform code: the part of the platform's fee it stands for; what is beyond the fee is in the `credit_transfer`
   * the platform pays the kitchen) or `discount_kitchen_funded` (a kitchen's code: its transfer is lowered by it).
   * Their `_reversed` rows when the whole order is refunded.
   */
  'discount_given',
  'discount_fee_funded',
  'discount_kitchen_funded',
  'discount_given_reversed',
  'discount_fee_funded_reversed',
  'discount_kitchen_funded_reversed',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** No foreign key: the ledger outlives a deleted kitchen. */
    kitchenId: uuid('kitchen_id'),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** The provider's id of what moved the money (a payment intent). */
    providerRef: text('provider_ref'),
    /**
     * Which movement of the order this row belongs to: `order` for the order's own steps (one of each kind), or one
     * of several of the same kind, such as `refund:<id>` for each partial refund.
     */
    entry: text('entry').notNull().default('order'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_order_entry_kind_key').on(t.orderId, t.entry, t.kind),
    index('ledger_entries_kitchen_idx').on(t.kitchenId, t.createdAt),
    index('ledger_entries_created_idx').on(t.createdAt),
    check('ledger_entries_kind_check', sql`${t.kind} in ${sqlTextList(LEDGER_KINDS)}`),
  ],
);

/**
 * A part of a captured card payment given back, one row per refund (several per order): asked in a transaction that
 * checks, under the order's lock, that the refunds never add up to more than was captured; carried out at the
 * provider with its own idempotency key (`order:<id>:refund:<refund id>`); recorded once with its ledger rows.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The client's key for the request: a repeat of it gives the same refund. */
    requestKey: text('request_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    whoPays: text('who_pays', { enum: REFUND_PAYERS }).notNull(),
    /** Whether the platform's fee on the refunded part is given back (to the kitchen's account, as Stripe does). */
    refundPlatformFee: boolean('refund_platform_fee').notNull(),
    /**
     * The part given back as store credit rather than to the card (ADR 29): all of it when the customer asked for
     * credit, or what is beyond the card's part of an order paid partly with credit. The platform funds it.
     */
    creditCents: integer('credit_cents').notNull().default(0),
    state: text('state', { enum: REFUND_STATES }).notNull().default('refunding'),
    reason: text('reason').notNull().default(''),
    /** The dishes it is for, as the refund was asked: [{ name, quantity, cents }] (empty: an amount). */
    lines: jsonb('lines').$type<{ name: string; quantity: number; cents: number }[]>().notNull().default([]),
    byRole: text('by_role', { enum: ['kitchen', 'operator'] }).notNull(),
    byUserId: uuid('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The provider's refund, and what it took back from the kitchen's transfer and gave back of the fee. */
    providerRefundId: text('provider_refund_id'),
    transferReversedCents: integer('transfer_reversed_cents'),
    feeRefundedCents: integer('fee_refunded_cents'),
    failures: integer('failures').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    error: text('error'),
    createdAt: createdAt(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_refunds_request_key').on(t.orderId, t.requestKey),
    // Deleting a user sets who asked for a refund to null: the index finds their rows.
    index('order_refunds_by_user_idx').on(t.byUserId),
    index('order_refunds_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'refunding'`),
    check('order_refunds_amount_check', sql`${t.amountCents} > 0`),
    check('order_refunds_credit_check', sql`${t.creditCents} between 0 and ${t.amountCents}`),
    check('order_refunds_who_pays_check', sql`${t.whoPays} in ${sqlTextList(REFUND_PAYERS)}`),
    check('order_refunds_state_check', sql`${t.state} in ${sqlTextList(REFUND_STATES)}`),
    check('order_refunds_reason_check', sql`char_length(${t.reason}) <= 300`),
  ],
);

/**
 * A customer's store credit account (ADR 29): its balance, kept by the same statement that writes each of its
 * `credit_entries` (never below zero: the check decides two spends at once). One account per customer, in the
 * marketplace's currency; referral credit and gift cards (issue 55) are entries of other kinds in it.
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    customerId: uuid('customer_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    balanceCents: integer('balance_cents').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_accounts_balance_check', sql`${t.balanceCents} >= 0`)],
);

/**
 * The movements of a credit account, signed: `refund` (a refund given as credit), `spent` (on an order),
 * `returned` (an order's credit given back: it ended unpaid, was released or refunded, or a refund's credit part).
 * `entry` names the movement once per account (`refund:<id>`, `order:<id>:spent`, `order:<id>:returned`): a repeat
 * writes nothing. The account's balance is their sum.
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => creditAccounts.customerId, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CREDIT_KINDS }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    entry: text('entry').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('credit_entries_entry_key').on(t.customerId, t.entry),
    index('credit_entries_customer_idx').on(t.customerId, t.createdAt),
    index('credit_entries_order_idx').on(t.orderId),
    check('credit_entries_kind_check', sql`${t.kind} in ${sqlTextList(CREDIT_KINDS)}`),
    check('credit_entries_amount_check', sql`${t.amountCents} <> 0`),
  ],
);

/**
 * A promotion code (ADR 30): the platform's (an operator made it, `paid_by` platform, optionally for one kitchen) or
 * a kitchen's (its cook made it, `paid_by` kitchen, for that kitchen only). Stored normalised (upper case), unique.
 * A fixed amount off or a percentage of the dishes with an optional cap; a minimum of dishes; a window; uses in all
 * (`uses_count` moved by one conditional update in the order's transaction: the last use goes to one order) and per
 * customer; first orders only; `active` turns it off at once.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    paidBy: text('paid_by', { enum: CODE_PAYERS }).notNull(),
    /** The one kitchen it is for (a kitchen's own code always; a platform code optionally); null: any kitchen. */
    kitchenId: uuid('kitchen_id').references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    amountOffCents: integer('amount_off_cents'),
    percentOff: integer('percent_off'),
    /** The most a percentage takes off (minor units); null: no cap. */
    maxDiscountCents: integer('max_discount_cents'),
    minOrderCents: integer('min_order_cents').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    usesCount: integer('uses_count').notNull().default(0),
    firstOrderOnly: boolean('first_order_only').notNull().default(false),
    active: boolean('active').notNull().default(true),
    currency: text('currency').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_code_key').on(t.code),
    index('promo_codes_kitchen_idx').on(t.kitchenId),
    index('promo_codes_created_by_idx').on(t.createdBy),
    check('promo_codes_paid_by_check', sql`${t.paidBy} in ${sqlTextList(CODE_PAYERS)}`),
    check('promo_codes_kitchen_check', sql`${t.paidBy} = 'platform' or ${t.kitchenId} is not null`),
    check('promo_codes_code_check', sql`${t.code} ~ '^[A-Z0-9-]{3,32}$'`),
    check(
      'promo_codes_amount_check',
      sql`(${t.amountOffCents} is null) <> (${t.percentOff} is null) and coalesce(${t.amountOffCents}, 1) > 0 and coalesce(${t.percentOff}, 1) between 1 and 100`,
    ),
    check(
      'promo_codes_uses_check',
      sql`${t.usesCount} >= 0 and ${t.usesCount} <= coalesce(${t.maxUses}, ${t.usesCount})`,
    ),
  ],
);

/** One use of a code, by one order; `returned_at` once the order ended early (cancelled, declined, never paid): it counts no more. */
export const promoCodeUses = pgTable(
  'promo_code_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeId: uuid('code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => users.id, { onDelete: 'set null' }),
    discountCents: integer('discount_cents').notNull(),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('promo_code_uses_order_key').on(t.orderId),
    index('promo_code_uses_code_customer_idx').on(t.codeId, t.customerId),
    index('promo_code_uses_customer_idx').on(t.customerId),
    check('promo_code_uses_discount_check', sql`${t.discountCents} > 0`),
  ],
);

export const TIP_STATES = ['paying', 'paid', 'expired'] as const;

/**
 * A tip given after delivery (within 48 hours): a card payment of its own through the provider, a destination charge
 * without an application fee (the kitchen gets it whole), captured at once. Written `paying` with its payment page;
 * `paid` (with its ledger entry `tip:<id>`) once the provider says so; `expired` when the page closed unpaid.
 */
export const orderTips = pgTable(
  'order_tips',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => users.id, { onDelete: 'set null' }),
    /** The client's key for the request: a repeat of it gives the same tip (and the same payment page). */
    requestKey: text('request_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    state: text('state', { enum: TIP_STATES }).notNull().default('paying'),
    checkoutSessionId: text('checkout_session_id'),
    checkoutUrl: text('checkout_url'),
    paymentIntentId: text('payment_intent_id'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_tips_request_key').on(t.orderId, t.requestKey),
    index('order_tips_customer_idx').on(t.customerId),
    index('order_tips_paying_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'paying'`),
    check('order_tips_amount_check', sql`${t.amountCents} > 0`),
    check('order_tips_state_check', sql`${t.state} in ${sqlTextList(TIP_STATES)}`),
  ],
);

/**
 * A problem a customer reported with a delivered (or collected) order, within 48 hours: the dishes concerned as the
 * order has them, why, their words and photos. One open at a time per order (a refund of the order resolves it).
 */
export const problemReports = pgTable(
  'problem_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Null once the customer deleted their account (the kitchen keeps the report with the order). */
    customerId: uuid('customer_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason', { enum: PROBLEM_REASONS }).notNull(),
    dishes: jsonb('dishes').$type<{ item: string; priceCents: number; quantity: number }[]>().notNull(),
    details: text('details').notNull().default(''),
    /** The food-safety complaint it filed for the operators ('Made me ill'). */
    complaintId: uuid('complaint_id').references((): AnyPgColumn => reports.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /**
     * Closed without a refund (ADR 25): by the kitchen's cook or an operator, with a reason its customer reads (null:
     * open, or answered by a refund).
     */
    closedBy: text('closed_by', { enum: ['kitchen', 'operator'] }),
    closedReason: text('closed_reason'),
    /** How the customer wants the money back: to the card, or as store credit (ADR 29). */
    refundAs: text('refund_as', { enum: REFUND_AS }).notNull().default('card'),
    createdAt: createdAt(),
  },
  (t) => [
    check('problem_reports_refund_as_check', sql`${t.refundAs} in ${sqlTextList(REFUND_AS)}`),
    check('problem_reports_closed_reason_check', sql`char_length(${t.closedReason}) <= 500`),
    uniqueIndex('problem_reports_one_open')
      .on(t.orderId)
      .where(sql`${t.resolvedAt} is null`),
    index('problem_reports_order_idx').on(t.orderId, t.createdAt),
    index('problem_reports_customer_idx').on(t.customerId),
    index('problem_reports_complaint_idx').on(t.complaintId),
    index('problem_reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.resolvedAt} is null`),
    check('problem_reports_reason_check', sql`${t.reason} in ${sqlTextList(PROBLEM_REASONS)}`),
    check('problem_reports_details_check', sql`char_length(${t.details}) <= 1000`),
  ],
);

/**
 * A report's photos (at most 3), in the order the customer added them: a photo in use is never swept; it goes with
 * its uploader's account.
 */
export const problemReportPhotos = pgTable(
  'problem_report_photos',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => problemReports.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reportId, t.imageId] }),
    index('problem_report_photos_image_idx').on(t.imageId),
    check('problem_report_photos_position_check', sql`${t.position} between 0 and 2`),
  ],
);

/**
 * A cardholder's dispute (chargeback) of an order's payment, as the provider's `charge.dispute.*` events tell it: its
 * amount, the provider's fee, its status and the deadline for evidence, and its outcome once closed. Its money is the
 * ledger entry `dispute:<id>`, written from the dispute's balance transactions.
 */
export const orderDisputes = pgTable(
  'order_disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    providerDisputeId: text('provider_dispute_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull().default(0),
    status: text('status').notNull(),
    reason: text('reason').notNull().default(''),
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true }),
    /** `won` or `lost` once closed. */
    outcome: text('outcome', { enum: ['won', 'lost'] }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_disputes_provider_key').on(t.providerDisputeId),
    index('order_disputes_order_idx').on(t.orderId),
  ],
);

/** Each provider event processed (its id is unique): a repeated delivery changes nothing twice. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

/** A difference the reconciliation found between the ledger and the provider, for the operator's 'Money' tab. */
export const paymentDifferences = pgTable(
  'payment_differences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What differs: `order:<id>`, `kitchen:<uid>` or `platform`. */
    scope: text('scope').notNull(),
    detail: text('detail').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payment_differences_created_idx').on(t.createdAt.desc())],
);

/** When the reconciliation last ran to the end (one row). */
export const reconciliationRuns = pgTable('reconciliation_runs', {
  id: integer('id').primaryKey(),
  finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
});

/** Each state an order entered: when, by whom (role and user), and why (declined or cancelled). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ORDER_STATES }).notNull(),
    byRole: text('by_role', { enum: ['kitchen', 'customer'] }).notNull(),
    byUserId: uuid('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.createdAt)],
);

/** The items of an order as they were named and priced when it was placed. */
export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    menuItemId: uuid('menu_item_id').references(() => menuItems.id, { onDelete: 'set null' }),
    position: integer('position').notNull(),
    item: text('item').notNull(),
    priceCents: integer('price_cents').notNull(),
    /**
     * What its dish declared when the order was placed (null on orders older than declarations): allergens,
     * ingredients, and for its label how long it keeps and how to reheat it.
     */
    contains: text('contains').array(),
    mayContain: text('may_contain').array(),
    allergensDeclared: boolean('allergens_declared'),
    ingredients: text('ingredients'),
    keepsDays: integer('keeps_days'),
    reheating: text('reheating'),
  },
  (t) => [uniqueIndex('order_items_order_position_key').on(t.orderId, t.position)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** Hidden by an operator: gone for everyone. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_created_idx').on(t.createdAt, t.id),
    check('chat_messages_text_check', sql`char_length(${t.text}) between 1 and 500`),
  ],
);

/**
 * Messages deleted with their author's account, for a while: open chat pages drop them (with those an operator
 * hid), including from history they loaded before. Ids only, nothing of what was said.
 */
export const chatMessageRemovals = pgTable(
  'chat_message_removals',
  {
    messageId: uuid('message_id').primaryKey(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_message_removals_removed_idx').on(t.removedAt)],
);

/**
 * A picture a cook uploaded: who uploaded it (only they may attach it) and the sizes stored. Kitchens and menu
 * items refer to it; one that nothing refers to is deleted (at once when replaced, after a day when never used).
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    widths: integer('widths').array().notNull(),
    /**
     * Shown only to its uploader, the people an attachment names and operators (a customer's photo of a problem
     * with an order: its kitchen sees it), never to anyone holding its address; a cook's kitchen and dish pictures
     * are public.
     */
    private: boolean('private').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('images_owner_idx').on(t.ownerId), index('images_created_at_idx').on(t.createdAt)],
);

/** The stored sizes' bytes, when pictures are kept in the database (the default image store). */
export const imageVariants = pgTable(
  'image_variants',
  {
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.imageId, t.width] })],
);

/**
 * Rate-limit counters shared by every instance on PostgreSQL (src/server/lib/shared-rate-limit-store.ts): one row
 * per limit and key (an address, a session) with its hits in the current window. Expired rows are swept.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_window_ends_idx').on(t.windowEndsAt)],
);

/**
 * When each rate-limited outside service may next be called (Nominatim: once a second for the whole app), shared
 * by every instance: a caller takes the next slot by moving it forward in one atomic update.
 */
export const callSchedules = pgTable('call_schedules', {
  service: text('service').primaryKey(),
  nextSlotAt: timestamp('next_slot_at', { withTimezone: true }).notNull(),
});

/**
 * A customer's review of one delivered order (one per order): 1–5 stars and an optional text, and the cook's one
 * public reply. Hidden by an operator: gone for everyone, and not counted in the kitchen's average.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stars: integer('stars').notNull(),
    text: text('text').notNull().default(''),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reviews_order_key').on(t.orderId),
    index('reviews_kitchen_idx').on(t.kitchenId, t.createdAt.desc()),
    index('reviews_customer_idx').on(t.customerId),
    check('reviews_stars_check', sql`${t.stars} between 1 and 5`),
    check('reviews_text_check', sql`char_length(${t.text}) <= 1000`),
    check('reviews_reply_check', sql`(${t.reply} is null) = (${t.repliedAt} is null)`),
  ],
);

/** A signed-in user's report of a chat message, a review or a kitchen, until an operator closes it. */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetKind: text('target_kind', { enum: REPORT_TARGET_KINDS }).notNull(),
    /** The reported message's, review's or kitchen's id (no foreign key: the report outlives what it names). */
    targetId: uuid('target_id').notNull(),
    reason: text('reason').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_open_idx')
      .on(t.createdAt)
      .where(sql`${t.closedAt} is null`),
    index('reports_target_idx').on(t.targetKind, t.targetId),
    index('reports_reporter_idx').on(t.reporterId),
    check('reports_target_kind_check', sql`${t.targetKind} in ${sqlTextList(REPORT_TARGET_KINDS)}`),
    check('reports_reason_check', sql`char_length(${t.reason}) between 1 and 500`),
  ],
);

/** Every operator action: who (kept by email too, should the operator's user go), what, on what, and when. */
export const operatorActions = pgTable(
  'operator_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id').references(() => users.id, { onDelete: 'set null' }),
    operatorEmail: text('operator_email').notNull(),
    action: text('action', { enum: OPERATOR_ACTION_KINDS }).notNull(),
    targetKind: text('target_kind', { enum: REPORT_TARGET_KINDS }),
    targetId: uuid('target_id'),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('operator_actions_created_idx').on(t.createdAt.desc())],
);

/**
 * The change bus's outbox (BUS_URL=nats://…): a write's bus messages are rows inserted in its own transaction (by
 * `hc_bus_publish(payload)`, so that a single statement can select them), published to NATS JetStream after the
 * commit by a relay and deleted in the relay's transaction. A rolled-back write leaves none; a crash after the
 * commit leaves them for the next sweep. Unused with the default LISTEN/NOTIFY bus.
 */
export const busOutbox = pgTable('bus_outbox', {
  /** In commit-ish order; with the database's name, the JetStream message id (a repeated publish is deduplicated). */
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  payload: text('payload').notNull(),
  createdAt: createdAt(),
});

/**
 * The figures of the cook's 'Insights' and the operator's 'Overview' (src/server/data/order-figures.ts): kept as
 * orders change, in the change's own transaction, so that no view scans the orders. `order_figures` holds what each
 * order that reached its kitchen adds (its day and hour in the kitchen's zone when last recorded); the others sum it.
 * `npm run figures:rebuild` recomputes all four from the orders.
 */
const figureColumns = () => ({
  /** Orders that reached the kitchen (cash at once, card once authorised). */
  orders: integer('orders').notNull().default(0),
  /** Of them, a customer's first at this kitchen. */
  newCustomerOrders: integer('new_customer_orders').notNull().default(0),
  delivered: integer('delivered').notNull().default(0),
  accepted: integer('accepted').notNull().default(0),
  /** Declined by the cook; and declined by the marketplace, not answered in time. */
  declined: integer('declined').notNull().default(0),
  expired: integer('expired').notNull().default(0),
  cancelledByKitchen: integer('cancelled_by_kitchen').notNull().default(0),
  cancelledByCustomer: integer('cancelled_by_customer').notNull().default(0),
  /** Items and totals of orders not declined or cancelled (minor units). */
  itemsCents: integer('items_cents').notNull().default(0),
  grossCents: integer('gross_cents').notNull().default(0),
  /** Given back to customers (the ledger's refunds, positive). */
  refundedCents: integer('refunded_cents').notNull().default(0),
  /** From reaching the kitchen to 'accepted', summed over the accepted orders. */
  acceptSeconds: integer('accept_seconds').notNull().default(0),
  /** From 'accepted' to out for delivery (or delivered), summed over `readyCount` orders. */
  readyCount: integer('ready_count').notNull().default(0),
  readySeconds: integer('ready_seconds').notNull().default(0),
});

export const orderFigures = pgTable(
  'order_figures',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kitchenId: uuid('kitchen_id').notNull(),
    customerId: uuid('customer_id'),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull(),
    day: date('day').notNull(),
    hour: integer('hour').notNull(),
    /** Not declined or cancelled: its dishes count as sold. */
    kept: boolean('kept').notNull(),
    ...figureColumns(),
  },
  (t) => [index('order_figures_kitchen_idx').on(t.kitchenId, t.day)],
);

/** A kitchen's figures per local day and hour. */
export const kitchenHourFigures = pgTable(
  'kitchen_hour_figures',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    hour: integer('hour').notNull(),
    ...figureColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.kitchenId, t.day, t.hour] }),
    index('kitchen_hour_figures_day_idx').on(t.day),
    // A cook's heat map from the index alone (a busy kitchen's year is some 3,500 rows on as many heap pages).
    index('kitchen_hour_figures_heat_idx').on(t.kitchenId, t.day, t.hour, t.orders),
    check('kitchen_hour_figures_hour_check', sql`${t.hour} between 0 and 23`),
  ],
);

/** A kitchen's figures per local day: the hourly ones summed, what the charts per day and the Overview read. */
export const kitchenDayFigures = pgTable(
  'kitchen_day_figures',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    ...figureColumns(),
  },
  (t) => [primaryKey({ columns: [t.kitchenId, t.day] }), index('kitchen_day_figures_day_idx').on(t.day)],
);

/** A dish's portions and takings per local day (orders not declined or cancelled). No foreign key on the dish. */
export const dishDayFigures = pgTable(
  'dish_day_figures',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    menuItemId: uuid('menu_item_id').notNull(),
    day: date('day').notNull(),
    portions: integer('portions').notNull().default(0),
    itemsCents: integer('items_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kitchenId, t.day, t.menuItemId] })],
);

/** How many customers a kitchen has had (`kitchen_customer_figures` rows with orders), and of them returning (2+). */
export const kitchenCustomerCounts = pgTable('kitchen_customer_counts', {
  kitchenId: uuid('kitchen_id')
    .primaryKey()
    .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
  customers: integer('customers').notNull().default(0),
  returningCustomers: integer('returning_customers').notNull().default(0),
});

/**
 * A kitchen's month (of local days; `month` its first day), only what the Overview ranks kitchens by: a year is some
 * twelve rows a kitchen instead of some 365 of `kitchen_day_figures`, which the Overview reads for a period's edges.
 */
export const kitchenMonthFigures = pgTable(
  'kitchen_month_figures',
  {
    month: date('month').notNull(),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    orders: integer('orders').notNull().default(0),
    grossCents: integer('gross_cents').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    acceptSeconds: integer('accept_seconds').notNull().default(0),
    /** Declined, not answered in time, cancelled by the kitchen. */
    turnedDown: integer('turned_down').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.month, t.kitchenId] }),
    index('kitchen_month_figures_kitchen_idx').on(t.kitchenId),
  ],
);

/**
 * The whole marketplace's figures per day (each kitchen's local day): the kitchens' rows summed, and how many
 * kitchens had orders that day. What the operator's Overview reads for its days, in place of every kitchen's rows.
 * Not cascaded: a kitchen removed leaves its past in the marketplace's figures (until `figures:rebuild`).
 */
export const marketplaceDayFigures = pgTable(
  'marketplace_day_figures',
  {
    day: date('day').notNull(),
    /**
     * One of 16 rows a day, chosen by the kitchen (FIGURE_SHARD in src/server/data/order-figures.ts): every order's
     * change writes its day's row in its own transaction, and one row for the whole marketplace would make orders of
     * every kitchen wait for each other's commits. The Overview sums a day's 16.
     */
    shard: smallint('shard').notNull(),
    ...figureColumns(),
    activeKitchens: integer('active_kitchens').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.shard] })],
);

/** The whole marketplace's orders per local day and hour (in 16 rows each, as above): the Overview's by hour. */
export const marketplaceHourFigures = pgTable(
  'marketplace_hour_figures',
  {
    day: date('day').notNull(),
    hour: integer('hour').notNull(),
    shard: smallint('shard').notNull(),
    orders: integer('orders').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.hour, t.shard] }),
    check('marketplace_hour_figures_hour_check', sql`${t.hour} between 0 and 23`),
  ],
);

/** Each customer of a kitchen: their orders that reached it, what they spent, when they last ordered. */
export const kitchenCustomerFigures = pgTable(
  'kitchen_customer_figures',
  {
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orders: integer('orders').notNull().default(0),
    grossCents: integer('gross_cents').notNull().default(0),
    lastOrderedAt: timestamp('last_ordered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kitchenId, t.customerId] }),
    index('kitchen_customer_figures_best_idx').on(t.kitchenId, t.orders.desc(), t.lastOrderedAt.desc()),
    index('kitchen_customer_figures_customer_idx').on(t.customerId),
  ],
);
