import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '../../shared/chat.js';
import { sessionKey } from '../auth/use-session.js';
import { ApiError, api } from '../lib/api-client.js';

/** Posts a message; a 401 (the session ended elsewhere) refreshes who is signed in. */
export function useSendMessage(onSent: (message: ChatMessage) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.post<ChatMessage>('/api/chat', { text }),
    onSuccess: onSent,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401)
        void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
