import type { ChatMessage } from '../../shared/chat.js';
import { requestSessionHashes, requireAnyUser } from '../auth/sessions.js';
import { defineTopic } from '../live/topic.js';
import { listLatestMessages } from './chat-queries.js';

/** What a visitor who is not signed in is told by the chat's routes. */
export const CHAT_SIGN_IN = 'Please sign in to chat';

/** The chat room's latest page, for signed-in users. */
export const chatTopic = defineTopic<void, ChatMessage[]>({
  key: () => 'chat',
  load: (db) => listLatestMessages(db),
  access: async (request) => {
    await requireAnyUser(request, CHAT_SIGN_IN);
    return { params: undefined, sessions: requestSessionHashes(request) };
  },
});
