import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderConversation, OrderMessage, OrderMessageAuthor } from '../../shared/order-messages.js';
import { sessionKey } from '../auth/use-session.js';
import { ApiError, api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const orderConversationKey = (orderId: string) => ['order-messages', orderId] as const;
const conversationUrl = (orderId: string) => `/api/orders/${encodeURIComponent(orderId)}/messages`;

/** An order's conversation, kept current through the tab's stream. */
export function useOrderConversation(orderId: string) {
  return useLiveQuery<OrderConversation>({
    queryKey: orderConversationKey(orderId),
    url: conversationUrl(orderId),
  });
}

/**
 * Writes on an order's conversation as side `as` (one browser may hold both a customer's and a kitchen's session);
 * the message shows at once (the next snapshot holds it too). A 401 (the
 * session ended elsewhere) refreshes who is signed in.
 */
export function useSendOrderMessage(orderId: string, as: OrderMessageAuthor) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.post<OrderMessage>(conversationUrl(orderId), { text, as }),
    onSuccess: (message) =>
      queryClient.setQueryData<OrderConversation>(orderConversationKey(orderId), (conversation) =>
        conversation && !conversation.messages.some((m) => m.id === message.id)
          ? { ...conversation, messages: [...conversation.messages, message] }
          : conversation,
      ),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401)
        void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
