import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { CHAT_HIDDEN_IDS, CHAT_PAGE_SIZE, CHAT_RATE_LIMIT, type ChatMessage } from '../../shared/chat.js';
import type { User } from '../identity/users.js';
import type { DbOrTx } from '../db/database.js';
import { chatMessageRemovals, chatMessages, users } from '../db/schema.js';

const messageFields = {
  id: chatMessages.id,
  text: chatMessages.text,
  createdAt: chatMessages.createdAt,
  uid: chatMessages.userId,
  displayName: users.displayName,
  photoURL: users.photoUrl,
};

type MessageRow = { createdAt: Date } & Omit<ChatMessage, 'createdAt'>;
const toMessage = (row: MessageRow): ChatMessage => ({ ...row, createdAt: row.createdAt.toISOString() });

/** The latest page of messages, oldest first; messages an operator hid are gone. */
export async function listLatestMessages(db: DbOrTx): Promise<ChatMessage[]> {
  const rows = await db
    .select(messageFields)
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.userId))
    .where(isNull(chatMessages.hiddenAt))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(CHAT_PAGE_SIZE);
  return rows.reverse().map(toMessage);
}

/**
 * Up to a page of messages older than message `beforeId` (by created_at, then id), oldest first, hidden ones
 * left out (a hidden message still works as the cursor: a browser may hold it); undefined when there is no such
 * message.
 */
export async function listMessagesBefore(db: DbOrTx, beforeId: string): Promise<ChatMessage[] | undefined> {
  const [cursor] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(eq(chatMessages.id, beforeId))
    .limit(1);
  if (!cursor) return undefined;
  // The cursor's timestamp is compared inside the database, at full precision.
  const rows = await db
    .select(messageFields)
    .from(chatMessages)
    .innerJoin(users, eq(users.id, chatMessages.userId))
    .where(
      and(
        sql`(${chatMessages.createdAt}, ${chatMessages.id}) < (select m.created_at, m.id from ${chatMessages} m where m.id = ${beforeId})`,
        isNull(chatMessages.hiddenAt),
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(CHAT_PAGE_SIZE);
  return rows.reverse().map(toMessage);
}

/** Advisory-lock namespace of chat senders (the migrations use the single-key lock 7254001). */
const CHAT_LOCK_CLASS = 7254002;

/**
 * Serialises the writes of one sender until the transaction ends, so that counting their recent messages
 * and inserting one is atomic across connections and instances.
 */
export async function lockSender(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CHAT_LOCK_CLASS}, hashtext(${userId}))`);
}

/**
 * Seconds until the sender may post again, or 0 when they are within the rate limit: they are over it
 * while their `messages`-th newest message is younger than the window. Uses the database's clock, which
 * every instance shares; the (created_at, id) index keeps this a scan of the last few seconds only.
 */
export async function secondsUntilSenderMayPost(tx: DbOrTx, userId: string): Promise<number> {
  const { messages, windowSeconds } = CHAT_RATE_LIMIT;
  const windowStart = sql`(clock_timestamp() - make_interval(secs => ${windowSeconds}))`;
  const rows = await tx
    .select({
      wait: sql<string>`extract(epoch from ${chatMessages.createdAt} - ${windowStart})`,
    })
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), gt(chatMessages.createdAt, windowStart)))
    .orderBy(desc(chatMessages.createdAt))
    .offset(messages - 1)
    .limit(1);
  const wait = rows[0] ? Number(rows[0].wait) : 0;
  return wait > 0 ? Math.max(1, Math.ceil(wait)) : 0;
}

/**
 * Inserts a message. Its time is the database clock at insert (not the transaction's start), cut to
 * milliseconds so that browsers order messages exactly as the database does.
 */
export async function insertMessage(tx: DbOrTx, sender: User, text: string): Promise<ChatMessage> {
  const [row] = await tx
    .insert(chatMessages)
    .values({ userId: sender.id, text, createdAt: sql`date_trunc('milliseconds', clock_timestamp())` })
    .returning({ id: chatMessages.id, text: chatMessages.text, createdAt: chatMessages.createdAt });
  if (!row) throw new Error('insert returned no row');
  return toMessage({ ...row, uid: sender.id, displayName: sender.displayName, photoURL: sender.photoUrl });
}

/** The ids of the messages hidden most recently, newest first. */
export async function listHiddenMessageIds(db: DbOrTx): Promise<string[]> {
  // Hidden by an operator, or deleted with their author's account: the latest of both, newest first.
  const hidden = db
    .select({ id: chatMessages.id, at: sql<Date>`${chatMessages.hiddenAt}`.as('at') })
    .from(chatMessages)
    .where(isNotNull(chatMessages.hiddenAt));
  const removed = db
    .select({ id: chatMessageRemovals.messageId, at: sql<Date>`${chatMessageRemovals.removedAt}`.as('at') })
    .from(chatMessageRemovals);
  const gone = unionAll(hidden, removed).as('gone');
  const rows = await db
    .select({ id: gone.id })
    .from(gone)
    .orderBy(desc(gone.at), desc(gone.id))
    .limit(CHAT_HIDDEN_IDS);
  return rows.map((r) => r.id);
}
