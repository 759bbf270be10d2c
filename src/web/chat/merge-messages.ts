import { CHAT_PAGE_SIZE, type ChatMessage } from '../../shared/chat.js';

/**
 * The messages a reader holds: contiguous from the oldest loaded up to `syncedUntil` (the newest message of
 * the latest snapshot), plus any of their own just-sent messages the stream has not brought yet.
 */
export interface ChatLog {
  messages: ChatMessage[];
  /** Whether older messages than the first held may exist on the server. */
  hasOlder: boolean;
  syncedUntil: ChatMessage | undefined;
}

export const emptyLog: ChatLog = { messages: [], hasOlder: false, syncedUntil: undefined };

/** The server's order: by time, then id (times are milliseconds, so ISO strings compare correctly). */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The union of both lists by id (the later list wins), in the server's order. */
export function mergeMessages(held: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const m of held) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

/**
 * Merges a snapshot (the latest page). If the snapshot does not reach back to what we held (more than a page
 * was sent while the stream was down), keeping the old messages would leave a silent gap: start again from
 * the snapshot, and let "Load older messages" walk back through history.
 */
export function applySnapshot(log: ChatLog, snapshot: readonly ChatMessage[]): ChatLog {
  const first = snapshot[0];
  const last = snapshot.at(-1);
  if (!first) return { ...log, hasOlder: false, syncedUntil: undefined };
  const complete = snapshot.length < CHAT_PAGE_SIZE;
  if (log.messages.length === 0) return { messages: [...snapshot], hasOlder: !complete, syncedUntil: last };
  const reachesHeld =
    complete || (log.syncedUntil !== undefined && compareMessages(first, log.syncedUntil) <= 0);
  if (reachesHeld)
    return {
      messages: mergeMessages(log.messages, snapshot),
      hasOlder: complete ? false : log.hasOlder,
      syncedUntil: last,
    };
  const unsentYet = log.messages.filter((m) => compareMessages(m, first) > 0);
  return { messages: mergeMessages(unsentYet, snapshot), hasOlder: true, syncedUntil: last };
}

/** Adds a page of history (the page before the first held message). */
export function applyOlder(log: ChatLog, page: readonly ChatMessage[]): ChatLog {
  return { ...log, messages: mergeMessages(page, log.messages), hasOlder: page.length >= CHAT_PAGE_SIZE };
}

/** Adds the reader's own message as soon as the server accepted it. */
export function applySent(log: ChatLog, message: ChatMessage): ChatLog {
  return { ...log, messages: mergeMessages(log.messages, [message]) };
}

/** The messages without those an operator hid. */
export function withoutHidden(
  messages: ChatMessage[],
  hiddenIds: readonly string[] | undefined,
): ChatMessage[] {
  if (!hiddenIds?.length) return messages;
  const hidden = new Set(hiddenIds);
  return messages.some((m) => hidden.has(m.id)) ? messages.filter((m) => !hidden.has(m.id)) : messages;
}
