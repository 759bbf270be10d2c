import { and, desc, eq, gt, max, sql } from 'drizzle-orm';
import { isEnded } from '../../shared/order-states.js';
import {
  ORDER_MESSAGE_RATE_LIMIT,
  ORDER_MESSAGES_OPEN_MS,
  ORDER_MESSAGES_SHOWN,
  type OrderConversation,
  type OrderMessage,
  type OrderMessageAuthor,
} from '../../shared/order-messages.js';
import type { DbOrTx } from '../db/database.js';
import { orderEvents, orderMessages, orders } from '../db/schema.js';
import { msg } from '../../shared/i18n/translator.js';

/** What the conversation of an order needs to know of it: its two parties, whether it was paid, when it ended. */
export interface OrderParties {
  id: string;
  /** Null once the customer deleted their account. */
  customerId: string | null;
  /** The kitchen's uid (its owner's user id); null once the kitchen was deleted. */
  kitchenUid: string | null;
  /** False for an order never paid (awaiting its card payment, or given up): its kitchen does not see it. */
  paid: boolean;
  /** When it ended (delivered, declined, cancelled, or deleted from the kitchen's list); null while in progress. */
  endedAt: Date | null;
}

/** An order's parties and dates (undefined: no such order), in a transaction: locked until it ends. */
export async function findOrderParties(
  db: DbOrTx,
  orderId: string,
  lock = false,
): Promise<OrderParties | undefined> {
  const query = db
    .select({
      id: orders.id,
      customerId: orders.customerId,
      kitchenUid: orders.kitchenId,
      state: orders.state,
      paymentState: orders.paymentState,
      archivedAt: orders.archivedAt,
      updatedAt: orders.updatedAt,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  const [row] = await (lock ? query.for('share') : query);
  if (!row) return undefined;
  let endedAt = row.archivedAt;
  if (isEnded(row.state)) {
    // The ending move is its last event.
    const [last] = await db
      .select({ at: max(orderEvents.createdAt) })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId));
    endedAt = last?.at ?? row.updatedAt;
  }
  return {
    id: row.id,
    customerId: row.customerId,
    kitchenUid: row.kitchenUid,
    paid: row.state !== 'awaiting payment' && row.paymentState !== 'unpaid',
    endedAt,
  };
}

/** Until when an order's conversation stays open: a week after it ended (null while it is in progress). */
export const closesAt = (order: OrderParties): Date | null =>
  order.endedAt && new Date(order.endedAt.getTime() + ORDER_MESSAGES_OPEN_MS);

/** Why nobody may write on this order now (undefined: they may), at `now`. */
export function whyClosed(order: OrderParties, now: number): string | undefined {
  if (!order.paid) return msg('You can write to the kitchen once your order is paid');
  if (order.kitchenUid === null) return msg('This kitchen is no longer on HomeCooked');
  if (order.customerId === null) return msg('This customer has deleted their account');
  const closes = closesAt(order);
  if (closes && now >= closes.getTime())
    return msg('Messages are closed for this order: it ended more than a week ago');
  return undefined;
}

const messageFields = {
  id: orderMessages.id,
  from: orderMessages.authorRole,
  text: orderMessages.text,
  createdAt: orderMessages.createdAt,
};
const toMessage = (row: { id: string; from: OrderMessageAuthor; text: string; createdAt: Date }) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

/** The order's conversation (null: no such order) as both sides see it, at `now`. */
export async function loadConversation(
  db: DbOrTx,
  orderId: string,
  now: number,
): Promise<OrderConversation | null> {
  const order = await findOrderParties(db, orderId);
  if (!order) return null;
  const rows = await db
    .select(messageFields)
    .from(orderMessages)
    .where(eq(orderMessages.orderId, orderId))
    .orderBy(desc(orderMessages.createdAt), desc(orderMessages.id))
    .limit(ORDER_MESSAGES_SHOWN);
  const closed = whyClosed(order, now);
  return {
    messages: rows.reverse().map(toMessage),
    open: closed === undefined,
    closedBecause: closed ?? null,
    closesAt: closesAt(order)?.toISOString() ?? null,
  };
}

/** Advisory-lock namespace of order message authors (chat senders use 7254002, reporters 7254003). */
const AUTHOR_LOCK_CLASS = 7254030;

/**
 * Serialises one author's messages until the transaction ends, so that counting their recent messages and
 * inserting one is atomic across connections and instances.
 */
export async function lockAuthor(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUTHOR_LOCK_CLASS}, hashtext(${userId}))`);
}

/**
 * Seconds until the author may write on this order again (0: within the limit), by the database's clock, as chat
 * counts. Counted per order, on the conversation's (order, time) index.
 */
export async function secondsUntilAuthorMayWrite(
  tx: DbOrTx,
  orderId: string,
  userId: string,
): Promise<number> {
  const { messages, windowSeconds } = ORDER_MESSAGE_RATE_LIMIT;
  const windowStart = sql`(clock_timestamp() - make_interval(secs => ${windowSeconds}))`;
  const rows = await tx
    .select({ wait: sql<string>`extract(epoch from ${orderMessages.createdAt} - ${windowStart})` })
    .from(orderMessages)
    .where(
      and(
        eq(orderMessages.orderId, orderId),
        gt(orderMessages.createdAt, windowStart),
        eq(orderMessages.authorId, userId),
      ),
    )
    .orderBy(desc(orderMessages.createdAt))
    .offset(messages - 1)
    .limit(1);
  const wait = rows[0] ? Number(rows[0].wait) : 0;
  return wait > 0 ? Math.max(1, Math.ceil(wait)) : 0;
}

/** Inserts a message, timed by the database's clock at insert, cut to milliseconds (as browsers order them). */
export async function insertOrderMessage(
  tx: DbOrTx,
  message: { orderId: string; authorId: string; from: OrderMessageAuthor; text: string },
): Promise<OrderMessage> {
  const [row] = await tx
    .insert(orderMessages)
    .values({
      orderId: message.orderId,
      authorId: message.authorId,
      authorRole: message.from,
      text: message.text,
      createdAt: sql`date_trunc('milliseconds', clock_timestamp())`,
    })
    .returning(messageFields);
  if (!row) throw new Error('insert returned no row');
  return toMessage(row);
}
