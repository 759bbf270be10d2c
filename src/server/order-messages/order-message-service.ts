import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ORDER_MESSAGE_RATE_LIMIT,
  type OrderMessage,
  type OrderMessageInput,
} from '../../shared/order-messages.js';
import { mutate } from '../events/mutate.js';
import { conflict, tooManyRequests } from '../lib/errors.js';
import { noSuchConversation, partyTo, signedInAs } from './order-message-access.js';
import {
  insertOrderMessage,
  lockAuthor,
  secondsUntilAuthorMayWrite,
  whyClosed,
} from './order-message-queries.js';

/**
 * Writes `text` on order `orderId`'s conversation as the party the request speaks for (its customer or its cook;
 * `as` one of them when it says),
 * while writing is open (409 once it closed, or on an order never paid) and within the rate limit (429), and
 * announces it.
 */
export async function postOrderMessage(
  app: Pick<FastifyInstance, 'db' | 'bus' | 'reactions' | 'clock'>,
  request: FastifyRequest,
  orderId: string,
  { text, as }: OrderMessageInput,
): Promise<OrderMessage> {
  const signedIn = await signedInAs(request, 'write', as);
  return mutate(app, async (tx, record) => {
    const { party, order } = await partyTo(request, tx, orderId, signedIn, true);
    if (party.role === 'operator') throw noSuchConversation();
    const closed = whyClosed(order, app.clock.now());
    if (closed) throw conflict(closed, 'text');
    await lockAuthor(tx, party.user.id);
    const wait = await secondsUntilAuthorMayWrite(tx, orderId, party.user.id);
    if (wait > 0) {
      const { messages, windowSeconds } = ORDER_MESSAGE_RATE_LIMIT;
      throw tooManyRequests(
        'You are sending messages too fast (at most {messages} every {windowSeconds} seconds). Please wait {wait, plural, one {# second} other {# seconds}} and try again.',
        wait,
        { messages, windowSeconds, wait },
      );
    }
    const message = await insertOrderMessage(tx, {
      orderId,
      authorId: party.user.id,
      from: party.role,
      text,
    });
    record({
      type: 'order.message-sent',
      orderId,
      kitchenUid: order.kitchenUid,
      customerId: order.customerId,
    });
    return message;
  });
}
