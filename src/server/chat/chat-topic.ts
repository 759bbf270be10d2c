import type { ChatMessage } from '../../shared/chat.js';
import { requestSessionHashes, requireAnyUser } from '../identity/sessions.js';
import { defineTopic } from '../live/topic.js';
import { listHiddenMessageIds, listLatestMessages } from './chat-queries.js';
import { msg } from '../../shared/i18n/translator.js';

/** What a visitor who is not signed in is told by the chat's routes. */
export const CHAT_SIGN_IN = msg('Please sign in to chat');

/** The chat room's latest page, for signed-in users. */
export const chatTopic = defineTopic<void, ChatMessage[]>({
  key: () => 'chat',
  load: (db) => listLatestMessages(db),
  access: async (request) => {
    await requireAnyUser(request, CHAT_SIGN_IN);
    return { params: undefined, sessions: requestSessionHashes(request) };
  },
});

/**
 * The ids of messages an operator hid lately, for signed-in users: the latest page leaves a hidden message out by
 * itself, but a page may hold it in history it loaded before (or one that scrolled out of the latest page).
 */
export const chatHiddenTopic = defineTopic<void, string[]>({
  key: () => 'chat-hidden',
  load: (db) => listHiddenMessageIds(db),
  access: async (request) => {
    await requireAnyUser(request, CHAT_SIGN_IN);
    return { params: undefined, sessions: requestSessionHashes(request) };
  },
});
