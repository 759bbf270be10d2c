import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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
    role: text('role', { enum: ['kitchen', 'customer'] }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    check('sessions_role_check', sql`${t.role} in ('kitchen', 'customer')`),
  ],
);

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
    imageLink: text('image_link').notNull(),
    ownerName: text('owner_name').notNull(),
    ownerEmail: text('owner_email').notNull(),
    /** Where the address was placed by the geocoder when saved; null when it could not be placed. */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    deliveryRadiusKm: integer('delivery_radius_km').notNull().default(5),
    createdAt: createdAt(),
  },
  (t) => [
    index('kitchens_created_at_idx').on(t.createdAt.desc()),
    check('kitchens_delivery_radius_check', sql`${t.deliveryRadiusKm} between 1 and 100`),
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
    imageLink: text('image_link').notNull(),
    priceCents: integer('price_cents').notNull(),
    wait: text('wait').notNull(),
    /** Dietary tags and declared allergens (src/shared/dietary.ts names the allowed values). */
    dietary: text('dietary')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    allergens: text('allergens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [
    index('menu_items_kitchen_idx').on(t.kitchenId, t.createdAt),
    index('menu_items_dietary_idx').using('gin', t.dietary),
    check('menu_items_price_check', sql`${t.priceCents} >= 0`),
  ],
);

/**
 * An order. A customer has at most one open (not archived) order; the kitchen archives it when done.
 * Fees and totals are stored as computed on the server when the order was placed.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kitchenId: uuid('kitchen_id')
      .notNull()
      .references(() => kitchens.ownerId, { onDelete: 'cascade' }),
    kitchenName: text('kitchen_name').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerEmail: text('customer_email').notNull(),
    address: text('address').notNull(),
    status: text('status').notNull().default('recieved'),
    itemsCents: integer('items_cents').notNull(),
    deliveryFeeCents: integer('delivery_fee_cents').notNull(),
    feesAndTaxCents: integer('fees_and_tax_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** What was asked with the idempotency key (a hash): the same key with another cart is refused. */
    requestHash: text('request_hash'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_one_open_per_customer')
      .on(t.customerId)
      .where(sql`${t.archivedAt} is null`),
    uniqueIndex('orders_customer_idempotency_key').on(t.customerId, t.idempotencyKey),
    index('orders_kitchen_idx').on(t.kitchenId, t.createdAt.desc()),
    check(
      'orders_totals_check',
      sql`${t.totalCents} = ${t.itemsCents} + ${t.deliveryFeeCents} + ${t.feesAndTaxCents}`,
    ),
  ],
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
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_created_idx').on(t.createdAt, t.id),
    check('chat_messages_text_check', sql`char_length(${t.text}) between 1 and 500`),
  ],
);
