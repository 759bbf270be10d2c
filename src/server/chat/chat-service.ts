import type { FastifyInstance } from 'fastify';
import { CHAT_RATE_LIMIT, type ChatMessage } from '../../shared/chat.js';
import type { User } from '../identity/users.js';
import { tooManyRequests } from '../lib/errors.js';
import { mutate } from '../events/mutate.js';
import { insertMessage, lockSender, secondsUntilSenderMayPost } from './chat-queries.js';

/** Posts `text` as `sender` unless they are over the rate limit (429), and announces the new message. */
export function postMessage(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions'>,
  sender: User,
  text: string,
): Promise<ChatMessage> {
  return mutate(app, async (tx, record) => {
    await lockSender(tx, sender.id);
    const wait = await secondsUntilSenderMayPost(tx, sender.id);
    if (wait > 0) {
      const { messages, windowSeconds } = CHAT_RATE_LIMIT;
      throw tooManyRequests(
        'You are sending messages too fast (at most {messages} every {windowSeconds} seconds). Please wait {wait, plural, one {# second} other {# seconds}} and try again.',
        wait,
        { messages, windowSeconds, wait },
      );
    }
    const message = await insertMessage(tx, sender, text);
    record({ type: 'chat.posted', messageId: message.id });
    return message;
  });
}
