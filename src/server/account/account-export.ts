import { asc, eq } from 'drizzle-orm';
import { DATA_EXPORT_FORMAT, type DataExport } from '../../shared/account.js';
import { imageUrl } from '../../shared/images.js';
import type { User } from '../identity/users.js';
import type { DbOrTx } from '../db/database.js';
import {
  chatMessages,
  creditAccounts,
  creditEntries,
  images,
  kitchens,
  menuItems,
  orders,
  reports,
  reviews,
  sessions,
  users,
  allergyProfiles,
} from '../db/schema.js';
import { loadOrders } from '../data/order-queries.js';

type LoadedOrder = Awaited<ReturnType<typeof loadOrders>>[number];
type ReviewRow = typeof reviews.$inferSelect;

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** What both sides' copies of an order share: money, state, lines and history. */
function orderFields({ row, items, events }: LoadedOrder) {
  return {
    id: row.id,
    items,
    itemsCents: row.itemsCents,
    deliveryFeeCents: row.deliveryFeeCents,
    feesAndTaxCents: row.feesAndTaxCents,
    totalCents: row.totalCents,
    status: row.status,
    state: row.state,
    readyAt: iso(row.readyAt),
    reason: row.endReason,
    deleted: row.archivedAt !== null,
    events,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function review(row: ReviewRow) {
  return {
    id: row.id,
    orderId: row.orderId,
    stars: row.stars,
    text: row.text,
    reply: row.reply,
    repliedAt: iso(row.repliedAt),
    hidden: row.hiddenAt !== null,
    hiddenAt: iso(row.hiddenAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Everything held about `user` ('Download my data'), read in one snapshot: their profile, sessions (never the
 * token hashes), orders placed, chat messages (hidden ones marked), reviews and reports written, pictures uploaded,
 * their store credit (balance and every entry), and their kitchen with its menu, the orders it received and its
 * reviews. `currentSession` is the hash of the session asking, marked `current`.
 */
export async function exportUserData(
  db: DbOrTx,
  user: User,
  currentSession: string | undefined,
  now: Date,
): Promise<DataExport> {
  // One after another: a transaction's statements share its connection.
  // The language as it is now (the session's user may be a few seconds old).
  const [chosen] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, user.id));
  const sessionRows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, user.id))
    .orderBy(asc(sessions.createdAt));
  const placed = await loadOrders(db, eq(orders.customerId, user.id));
  const messageRows = await db
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.userId, user.id))
    .orderBy(asc(chatMessages.createdAt));
  const reviewRows = await db
    .select({ review: reviews, kitchenName: kitchens.name })
    .from(reviews)
    .leftJoin(kitchens, eq(kitchens.ownerId, reviews.kitchenId))
    .where(eq(reviews.customerId, user.id))
    .orderBy(asc(reviews.createdAt));
  const reportRows = await db
    .select()
    .from(reports)
    .where(eq(reports.reporterId, user.id))
    .orderBy(asc(reports.createdAt));
  const imageRows = await db
    .select()
    .from(images)
    .where(eq(images.ownerId, user.id))
    .orderBy(asc(images.createdAt));
  const [kitchenRow] = await db.select().from(kitchens).where(eq(kitchens.ownerId, user.id));
  const [allergies] = await db.select().from(allergyProfiles).where(eq(allergyProfiles.userId, user.id));
  const [credit] = await db.select().from(creditAccounts).where(eq(creditAccounts.customerId, user.id));
  const creditRows = credit
    ? await db
        .select({ entry: creditEntries, kitchenName: orders.kitchenName })
        .from(creditEntries)
        .leftJoin(orders, eq(orders.id, creditEntries.orderId))
        .where(eq(creditEntries.customerId, user.id))
        .orderBy(asc(creditEntries.createdAt), asc(creditEntries.id))
    : [];
  return {
    format: DATA_EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    profile: {
      id: user.id,
      name: user.displayName,
      email: user.email,
      picture: user.photoUrl,
      language: chosen ? chosen.locale : user.locale,
      createdAt: user.createdAt.toISOString(),
    },
    allergies: allergies
      ? {
          allergens: allergies.allergens,
          mayContainMatters: allergies.mayContainMatters,
          updatedAt: allergies.updatedAt.toISOString(),
        }
      : null,
    sessions: sessionRows.map((s) => ({
      role: s.role,
      createdAt: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      current: s.tokenHash === currentSession,
    })),
    orders: placed.map((order) => ({
      ...orderFields(order),
      kitchenUid: order.row.kitchenId,
      kitchenName: order.row.kitchenName,
      email: order.row.customerEmail,
      address: order.row.address,
      customerAllergies: order.row.customerAllergies,
      allergensAcknowledged: order.row.allergensAcknowledged,
    })),
    chatMessages: messageRows.map((m) => ({
      id: m.id,
      text: m.text,
      createdAt: m.createdAt.toISOString(),
      hidden: m.hiddenAt !== null,
      hiddenAt: iso(m.hiddenAt),
    })),
    reviews: reviewRows.map((r) => ({
      ...review(r.review),
      kitchenUid: r.review.kitchenId,
      kitchenName: r.kitchenName,
    })),
    reports: reportRows.map((r) => ({
      id: r.id,
      targetKind: r.targetKind,
      targetId: r.targetId,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      closedAt: iso(r.closedAt),
    })),
    pictures: imageRows.map((i) => ({
      id: i.id,
      width: i.width,
      height: i.height,
      urls: i.widths.map((width) => imageUrl(i.id, width)),
      createdAt: i.createdAt.toISOString(),
    })),
    storeCredit: credit
      ? {
          currency: credit.currency,
          balanceCents: credit.balanceCents,
          entries: creditRows.map(({ entry, kitchenName }) => ({
            id: entry.id,
            kind: entry.kind,
            amountCents: entry.amountCents,
            orderId: entry.orderId,
            kitchenName: kitchenName ?? null,
            createdAt: entry.createdAt.toISOString(),
          })),
        }
      : null,
    kitchen: kitchenRow ? await exportKitchen(db, kitchenRow) : null,
  };
}

async function exportKitchen(db: DbOrTx, k: typeof kitchens.$inferSelect): Promise<DataExport['kitchen']> {
  const menu = await db
    .select()
    .from(menuItems)
    .where(eq(menuItems.kitchenId, k.ownerId))
    .orderBy(asc(menuItems.createdAt), asc(menuItems.id));
  const received = await loadOrders(db, eq(orders.kitchenId, k.ownerId));
  const reviewRows = await db
    .select()
    .from(reviews)
    .where(eq(reviews.kitchenId, k.ownerId))
    .orderBy(asc(reviews.createdAt));
  return {
    uid: k.ownerId,
    name: k.name,
    category: k.category,
    address: k.address,
    about: k.about,
    imageLink: k.imageLink,
    imageId: k.imageId,
    ownerName: k.ownerName,
    ownerEmail: k.ownerEmail,
    location: k.latitude === null || k.longitude === null ? null : { lat: k.latitude, lon: k.longitude },
    deliveryRadiusKm: k.deliveryRadiusKm,
    timeZone: k.timeZone,
    hours: k.openingHours,
    pausedAt: iso(k.pausedAt),
    pausedUntil: iso(k.pausedUntil),
    suspendedAt: iso(k.suspendedAt),
    createdAt: k.createdAt.toISOString(),
    menu: menu.map((m) => ({
      id: m.id,
      item: m.item,
      secondName: m.secondName,
      priceCents: m.priceCents,
      wait: m.wait,
      imageLink: m.imageLink,
      imageId: m.imageId,
      dietary: m.dietary,
      allergens: m.allergens,
      mayContain: m.mayContain,
      allergensDeclaredAt: iso(m.allergensDeclaredAt),
      ingredients: m.ingredients,
      keepsDays: m.keepsDays,
      reheating: m.reheating,
      soldOut: m.soldOut,
      portionsPerDay: m.portionsPerDay,
      createdAt: m.createdAt.toISOString(),
    })),
    ordersReceived: received.map((order) => ({
      ...orderFields(order),
      customerEmail: order.row.customerEmail,
      address: order.row.address,
    })),
    reviews: reviewRows.map(review),
  };
}
