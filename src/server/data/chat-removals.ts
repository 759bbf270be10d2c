import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';
import { chatMessageRemovals, chatMessages } from '../db/schema.js';

/** How long the ids of messages deleted with an account are kept for open pages to drop them. */
const REMOVALS_KEPT_DAYS = 7;

/**
 * Deletes `userId`'s messages and keeps their ids for a while (so that open pages drop them), forgetting ids kept
 * longer than that. Returns how many were deleted.
 */
export async function deleteMessagesOf(tx: DbOrTx, userId: string): Promise<number> {
  const deleted = await tx
    .delete(chatMessages)
    .where(eq(chatMessages.userId, userId))
    .returning({ id: chatMessages.id });
  await tx
    .delete(chatMessageRemovals)
    .where(lt(chatMessageRemovals.removedAt, sql`now() - make_interval(days => ${REMOVALS_KEPT_DAYS})`));
  if (deleted.length > 0)
    await tx
      .insert(chatMessageRemovals)
      .values(deleted.map(({ id }) => ({ messageId: id })))
      .onConflictDoNothing();
  return deleted.length;
}
