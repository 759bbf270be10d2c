import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/database.js';
import { noteCommittedWrite } from '../db/read-replica.js';
import type { BusMessage } from '../live/bus.js';
import type { DomainEvent, RecordEvent } from './domain-events.js';
import { enqueueing, type Notice } from './notices.js';

/**
 * What follows events: the bus messages they send (the live lists they change, the sessions they end, the
 * notification workers they wake), and the notifications they enqueue.
 */
export interface Reactions {
  messagesOf(events: readonly DomainEvent[]): BusMessage[];
  noticesOf(events: readonly DomainEvent[]): Notice[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The one map from what happened to what follows (src/server/reactions.ts). */
    reactions: Reactions;
  }
}

type MutatingApp = Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>;

/**
 * Runs a write in one transaction: `record(event)` says what happened, and what follows from it (the change notices
 * of the lists it changes, on the change bus) travels with the transaction, delivered to every instance only if it
 * commits. After the commit this instance handles them at once, so the writer reads its own write.
 */
export async function mutate<T>(
  app: MutatingApp,
  fn: (tx: Tx, record: RecordEvent) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  let messages: BusMessage[] = [];
  const result = await app.db.transaction(async (tx) => {
    const value = await fn(tx, (event) => void events.push(event));
    messages = app.reactions.messagesOf(events);
    // What people are to be told, in the outbox, with the change it tells of.
    const notices = app.reactions.noticesOf(events);
    if (notices.length > 0) await tx.execute(sql`select ${enqueueing(notices)}`);
    // All of the write's messages in one statement, just before the commit that delivers them.
    await app.bus.send(tx, messages);
    return value;
  });
  committed(app, messages);
  return result;
}

/**
 * A write that is one statement (fewer round trips on a hot path; a single statement needs no transaction), whose
 * events are known before it runs: `write(sending)` must select `sending` (one or two select-list expressions: the
 * change notices, and the notices it enqueues), so that what follows commits with it.
 */
export async function mutateInOneStatement<T>(
  app: Pick<FastifyInstance, 'bus' | 'reactions'>,
  events: readonly DomainEvent[],
  write: (sending: SQL) => Promise<T>,
): Promise<T> {
  const messages = app.reactions.messagesOf(events);
  const notices = app.reactions.noticesOf(events);
  const sending =
    notices.length === 0
      ? app.bus.sendingIn(messages)
      : sql`${app.bus.sendingIn(messages)}, ${enqueueing(notices)}`;
  const result = await write(sending);
  committed(app, messages);
  return result;
}

/**
 * After a write's commit: this instance handles its messages at once, and a write that changed a list has the
 * request it ran in tell its client to read from the primary until a replica has replayed it (db/read-replica.ts).
 */
function committed(app: Pick<FastifyInstance, 'bus'>, messages: readonly BusMessage[]): void {
  app.bus.afterCommit(messages);
  if (messages.some((m) => m.type === 'changed')) noteCommittedWrite();
}
