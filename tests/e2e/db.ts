import pino from 'pino';
import { loadConfig } from '../../src/server/lib/config.js';
import type { Payments } from '../../src/server/payments/payments.js';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { createSession } from '../../src/server/identity/sessions.js';
import { openPostgres, type Database } from '../../src/server/db/database.js';
import { upsertUser } from '../../src/server/identity/users.js';
import { registerKitchen } from '../../src/server/kitchens/kitchen-service.js';
import { ChangeBus } from '../../src/server/live/bus.js';
import { mutate } from '../../src/server/events/mutate.js';
import { reactions } from '../../src/server/reactions.js';
import { postMessage } from '../../src/server/chat/chat-service.js';
import { kitchenMealCounts, kitchens, menuItems, orders, users } from '../../src/server/db/schema.js';
import { noGeocoder } from '../../src/server/geocode/geocoder.js';
import { addMenuItem } from '../../src/server/menu/menu-service.js';
import { placeOrder } from '../../src/server/orders/place-order.js';
import { placeDuePlans } from '../../src/server/orders/plan-placement.js';
import { loadJurisdictions } from '../../src/server/data/jurisdictions.js';
import { addDemoHistory } from '../../src/server/insights/demo-history.js';
import { systemClock } from '../../src/server/lib/clock.js';
import type { DietaryTag } from '../../src/shared/dietary.js';
import { answersWith } from '../../src/shared/allergen-declaration.js';
import type { Allergen } from '../../src/shared/allergen-set.js';
import { ALL_DAY_HOURS, type WeeklyHours } from '../../src/shared/opening-hours.js';

let database: Promise<Database> | undefined;

/** The end-to-end server's own database (PostgreSQL), for writes a screen of this test does not make. */
export function e2eDatabase(): Promise<Database> {
  database ??= openPostgres(process.env.E2E_DATABASE_URL ?? '', { poolSize: 2 });
  return database;
}

/**
 * The database with a change bus of its own: this process holds no live streams, so its writes reach the running
 * server only through the database's notifications, as another instance's would.
 */
async function writer(location?: { lat: number; lon: number }) {
  const database = await e2eDatabase();
  // The kitchen's address is "placed" where the test says (the server's own geocoder is the fake Photon).
  const geocoder = location ? { ...noGeocoder, locate: async () => location } : noGeocoder;
  // A place no profile covers: the permissive rules, as the e2e server's (the tests' kitchens are listed at once).
  return {
    db: database.db,
    bus: new ChangeBus(database),
    reactions,
    geocoder,
    jurisdictions: loadJurisdictions('none'),
  };
}

/** Registers a kitchen (and its dishes, if given) through the services the API uses; their commits notify the
 * running server. */
export async function createKitchen(name: string, options: KitchenOptions = {}) {
  return (await createKitchenWithOwner(name, options)).kitchen;
}

interface KitchenOptions {
  category?: string;
  /** Its weekly hours (default: open around the clock; null: the spec's 10:00–20:15). */
  hours?: WeeklyHours | null;
  /** Where its address is on the map (else nowhere). */
  location?: { lat: number; lon: number };
  dishes?: {
    item: string;
    secondName?: string;
    dietary?: DietaryTag[];
    portionsPerDay?: number;
    soldOut?: boolean;
  }[];
}

/**
 * Many kitchens at once (open around the clock, no dishes), registered in one transaction in the order given, each a
 * millisecond after the one before: one change for the server to hear instead of one per kitchen, for tests that
 * need a long list (a loaded machine takes minutes to register 60 one by one).
 */
export async function createKitchens(names: string[]): Promise<{ uid: string; name: string }[]> {
  const start = Date.now();
  return mutate(await writer(), async (tx, record) => {
    const owners = await tx
      .insert(users)
      .values(
        names.map(() => ({
          issuer: 'urn:e2e',
          subject: randomUUID(),
          email: `${randomUUID()}@e2e.test`,
          displayName: 'E2E Cook',
        })),
      )
      .returning({ id: users.id, email: users.email });
    await tx.insert(kitchens).values(
      names.map((name, i) => ({
        ownerId: owners[i]!.id,
        name,
        category: 'Fusion',
        address: '5 Test Road',
        imageLink: 'https://images.invalid/broken.png',
        ownerName: 'E2E Cook',
        ownerEmail: owners[i]!.email,
        openingHours: ALL_DAY_HOURS,
        createdAt: new Date(start + i),
      })),
    );
    for (const owner of owners) record({ type: 'kitchen.registered', kitchenUid: owner.id });
    return names.map((name, i) => ({ uid: owners[i]!.id, name }));
  });
}

/** A kitchen (as createKitchen) and its owner's kitchen session cookie, for tests about running orders. */
export async function createKitchenWithOwner(
  name: string,
  { category = 'Fusion', dishes = [], location, hours = ALL_DAY_HOURS }: KitchenOptions = {},
) {
  const app = await writer(location);
  const { db } = app;
  const owner = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: randomUUID(),
    email: `${randomUUID()}@e2e.test`,
    displayName: 'E2E Cook',
    photoUrl: null,
  });
  const kitchen = await registerKitchen(app, owner, {
    name,
    category,
    address: '5 Test Road',
    imageLink: 'https://images.invalid/broken.png',
    hours,
  });
  if (!kitchen) throw new Error('kitchen not created');
  const items = [];
  for (const dish of dishes)
    items.push(
      await addMenuItem(
        app,
        kitchen.uid,
        {
          allergenAnswers: answersWith(),
          ...dish,
          price: '9.00',
          wait: '20 min',
          imageLink: 'https://images.invalid/d.png',
        },
        'USD',
      ),
    );
  const token = await createSession(db, owner.id, 'kitchen');
  return {
    kitchen,
    items,
    ownerEmail: owner.email,
    cookie: { name: 'kitchen_session', value: token, url: process.env.E2E_BASE_URL ?? '' },
  };
}

/** One order's row as the database holds it now. */
export async function readOrder(id: string) {
  const { db } = await e2eDatabase();
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

/** A customer signed in through the database (for tests about the cart, not about signing in). */
export async function customerSessionCookie(email: string) {
  const { db } = await e2eDatabase();
  const user = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'E2E Customer',
    photoUrl: null,
  });
  const token = await createSession(db, user.id, 'customer');
  return { name: 'customer_session', value: token, url: process.env.E2E_BASE_URL ?? '' };
}

/** A session cookie of `role` for the person with this email (made if new): an operator's is one listed in OPERATOR_EMAILS. */
export async function sessionCookieAs(email: string, role: 'kitchen' | 'customer' | 'operator') {
  const { db } = await e2eDatabase();
  const user = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'E2E Person',
    photoUrl: null,
  });
  const token = await createSession(db, user.id, role);
  return { name: `${role}_session`, value: token, url: process.env.E2E_BASE_URL ?? '' };
}

/**
 * What the kitchen's status update does to a customer's open order: change it and announce it on the topics
 * the screens watch (the running server hears it through the database's notification).
 */
export async function setOpenOrderStatus(customerEmail: string, status: string) {
  return mutate(await writer(), async (tx, record) => {
    const [order] = await tx
      .update(orders)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(orders.customerEmail, customerEmail), isNull(orders.archivedAt)))
      .returning();
    if (!order) throw new Error(`no open order for ${customerEmail}`);
    record({
      type: 'order.status-set',
      orderId: order.id,
      kitchenUid: order.kitchenId,
      customerId: order.customerId,
    });
    return order;
  });
}

/** How many orders (open or not) a customer has, by the email the order carries. */
export async function countOrders(customerEmail: string): Promise<number> {
  const { db } = await e2eDatabase();
  return (await db.select().from(orders).where(eq(orders.customerEmail, customerEmail))).length;
}

/** A new customer's order of these dishes, placed through the service the API uses (its rules, its notices). */
export async function placeOrderAs(kitchenUid: string, itemIds: string[]) {
  // The suite's servers take cash only (PAYMENTS=off): the order goes straight to its kitchen.
  const payments: Payments = {
    config: { kind: 'off', currency: 'USD', commissionPercent: 0, acceptWithinMinutes: 30, pollSeconds: 0 },
    provider: undefined,
    local: undefined,
    close: async () => {},
  };
  const app = {
    ...(await writer()),
    clock: systemClock,
    payments,
    config: loadConfig({ NODE_ENV: 'test', PAYMENTS: 'off' }),
    log: pino({ enabled: false }),
    jurisdictions: loadJurisdictions('none'),
  };
  const email = `${randomUUID()}@e2e.test`;
  const customer = await upsertUser(app.db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'E2E Customer',
    photoUrl: null,
  });
  return placeOrder(app, customer, { kitchenUid, itemIds, address: '1 Road', idempotencyKey: randomUUID() });
}

/**
 * The weekly plans' placement (src/server/orders/plan-placement.ts) run as the server's job runs it, with its clock
 * at `at` (a week's cut-off, days ahead): the end-to-end server's clock is the real one, so the test runs the job
 * itself at the time it needs. Its orders reach the running server as any other instance's would.
 */
export async function placePlansAt(at: Date) {
  const payments: Payments = {
    config: { kind: 'off', currency: 'USD', commissionPercent: 0, acceptWithinMinutes: 30, pollSeconds: 0 },
    provider: undefined,
    local: undefined,
    close: async () => {},
  };
  return placeDuePlans({
    ...(await writer()),
    clock: { ...systemClock, now: () => at.getTime() },
    payments,
    config: loadConfig({ NODE_ENV: 'test', PAYMENTS: 'off' }),
    log: pino({ enabled: false }),
    jurisdictions: loadJurisdictions('none'),
  });
}

/** What the cook's 'Sold out' tick does: the dish is marked, and its menu announced. */
export async function markSoldOut(kitchenUid: string, itemId: string) {
  await mutate(await writer(), async (tx, record) => {
    await tx.update(menuItems).set({ soldOut: true }).where(eq(menuItems.id, itemId));
    record({ type: 'dish.changed', kitchenUid, dishId: itemId });
  });
}

/**
 * A dish as the move to declarations left those of before (its allergens as tags, nothing declared), announced: the
 * API publishes no such dish any more.
 */
export async function undeclareDish(kitchenUid: string, itemId: string, allergens: Allergen[]) {
  await mutate(await writer(), async (tx, record) => {
    await tx
      .update(menuItems)
      .set({ allergens, mayContain: [], allergensDeclaredAt: null })
      .where(eq(menuItems.id, itemId));
    record({ type: 'dish.changed', kitchenUid, dishId: itemId });
  });
}

/**
 * Moves these kitchens to the end of the newest-first list (registered in 2000), announced as kitchens changing:
 * a test that adds many kitchens gives the first page back to its worker's later tests (the demo kitchens on it).
 */
export async function backdateKitchens(uids: string[]) {
  if (uids.length === 0) return;
  await mutate(await writer(), async (tx, record) => {
    await tx
      .update(kitchens)
      .set({ createdAt: new Date('2000-01-01T00:00:00Z') })
      .where(inArray(kitchens.ownerId, uids));
    for (const kitchenUid of uids) record({ type: 'kitchen.updated', kitchenUid, zoneChanged: false });
  });
}

/**
 * The demo kitchens become the newest again (each as far apart as they were), announced as changes: tests look for
 * them on the landing page's first page, which the kitchens earlier tests on the same server added push them off.
 */
export async function demoKitchensNewest() {
  await mutate(await writer(), async (tx, record) => {
    const demo = await tx
      .select({ uid: kitchens.ownerId })
      .from(kitchens)
      .innerJoin(users, eq(users.id, kitchens.ownerId))
      .where(eq(users.issuer, 'urn:marketplace:demo'))
      .orderBy(desc(kitchens.createdAt));
    // Just before now, a millisecond apart, in their order: newer than every kitchen the worker's earlier tests added
    // (their seeding's own spacing, kept, let a busy worker's kitchens of the last minutes in between them).
    for (const [i, { uid }] of demo.entries()) {
      await tx
        .update(kitchens)
        .set({ createdAt: sql`now() - (${i}::int * interval '1 millisecond')` })
        .where(eq(kitchens.ownerId, uid));
      record({ type: 'kitchen.updated', kitchenUid: uid, zoneChanged: false });
    }
  });
}

/** What the cook's profile form does when it renames the kitchen: the new name, announced as the kitchen changing. */
export async function renameKitchen(kitchenUid: string, name: string) {
  await mutate(await writer(), async (tx, record) => {
    await tx.update(kitchens).set({ name }).where(eq(kitchens.ownerId, kitchenUid));
    record({ type: 'kitchen.updated', kitchenUid, zoneChanged: false });
  });
}

/** A kitchen owner who has not registered a kitchen yet, signed in (the registration screens come next). */
export async function newKitchenOwnerCookie() {
  const { db } = await e2eDatabase();
  const email = `${randomUUID()}@e2e.test`;
  const owner = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'E2E New Cook',
    photoUrl: null,
  });
  const token = await createSession(db, owner.id, 'kitchen');
  return { name: 'kitchen_session', value: token, url: process.env.E2E_BASE_URL ?? '' };
}

/** `count` delivered orders of one customer at `kitchen`, each reviewed ('Review 1' the oldest), a minute apart. */
export async function addReviews(kitchen: { uid: string; name: string }, count: number) {
  const { db } = await e2eDatabase();
  const email = `${randomUUID()}@e2e.test`;
  const customer = await upsertUser(db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'Regular Reviewer',
    photoUrl: null,
  });
  await db.execute(sql`
    with made as (
      insert into orders (kitchen_id, kitchen_name, customer_id, customer_email, address, idempotency_key, state,
        items_cents, delivery_fee_cents, fees_and_tax_cents, total_cents, created_at)
      select ${kitchen.uid}, ${kitchen.name}, ${customer.id}, ${email}, '1 Review Road', 'review-' || n,
        'delivered', 900, 0, 0, 900, now() - make_interval(mins => ${count} + 1 - n)
      from generate_series(1, ${count}) as n
      returning id, created_at, idempotency_key
    )
    insert into reviews (order_id, kitchen_id, customer_id, stars, text, created_at)
    select id, ${kitchen.uid}, ${customer.id}, 5, 'Review ' || substr(idempotency_key, 8), created_at from made`);
}

/** A message posted to the chat by someone else (a new user), through the service the API uses. */
export async function postChatAs(email: string, text: string) {
  const app = await writer();
  const user = await upsertUser(app.db, {
    issuer: 'urn:e2e',
    subject: email,
    email,
    displayName: 'Someone Else',
    photoUrl: null,
  });
  return postMessage(app, user, text);
}

/** `days` days of past orders at a kitchen, with their figures (src/server/insights/demo-history.ts). */
/**
 * Moves a kitchen to Santa Barbara County, California (jurisdictions/us.yaml: 30 meals a day, 60 a week), listed,
 * with the meals its caps counted on each of the last `days` days and in their weeks, as orders placed there would
 * have counted them (`meals(daysAgo)`).
 */
export async function countMealsInSantaBarbara(
  kitchenUid: string,
  days: number,
  meals: (daysAgo: number) => number,
) {
  const { db } = await e2eDatabase();
  await db
    .update(kitchens)
    .set({
      countryCode: 'US',
      region: 'California',
      county: 'Santa Barbara County',
      timeZone: 'America/Los_Angeles',
    })
    .where(eq(kitchens.ownerId, kitchenUid));
  const weeks = new Map<string, number>();
  const rows: (typeof kitchenMealCounts.$inferInsert)[] = [];
  for (let ago = 0; ago < days; ago++) {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(
      new Date(Date.now() - ago * 86_400_000),
    );
    const at = new Date(`${day}T00:00:00Z`);
    const monday = new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    rows.push({
      kitchenId: kitchenUid,
      period: 'day',
      starts: day,
      meals: meals(ago),
      grossMinor: meals(ago) * 950,
    });
    weeks.set(monday, (weeks.get(monday) ?? 0) + meals(ago));
  }
  for (const [monday, count] of weeks)
    rows.push({
      kitchenId: kitchenUid,
      period: 'week',
      starts: monday,
      meals: count,
      grossMinor: count * 950,
    });
  await db.insert(kitchenMealCounts).values(rows);
}

export async function addOrderHistory(kitchenUid: string, days: number): Promise<number> {
  const { db } = await e2eDatabase();
  return db.transaction((tx) => addDemoHistory(tx, kitchenUid, { days, now: new Date() }));
}
