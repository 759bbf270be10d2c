import type { OrderConversation } from '../../shared/order-messages.js';
import { defineTopic } from '../live/topic.js';
import { orderIdOf, partyTo, signedInAs } from './order-message-access.js';
import { loadConversation } from './order-message-queries.js';
import { msg } from '../../shared/i18n/translator.js';

/**
 * An order's conversation, for its customer, its kitchen's owner and operators; null (missing) once there is no such
 * order. The same snapshot for all of them: who wrote a message is said by role, never as "mine".
 */
export const orderMessagesTopic = defineTopic<string, OrderConversation | null>({
  key: (orderId) => `order-messages:${orderId}`,
  load: (db, orderId, clock) => loadConversation(db, orderId, clock.now()),
  access: async (request) => {
    const orderId = orderIdOf(request);
    const signedIn = await signedInAs(request, 'read');
    const { party } = await partyTo(request, request.server.db, orderId, signedIn);
    return { params: orderId, sessions: [party.sessionHash] };
  },
  missing: { when: (conversation) => conversation === null, message: msg('You have no order with this id') },
});
