import { useMutation } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { ChatMessage, ChatMessageList, HiddenChatMessageIds } from '../../shared/chat.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';
import { applyOlder, applySent, applySnapshot, emptyLog, withoutHidden } from './merge-messages.js';

export const chatKey = ['chat'] as const;
export const chatHiddenKey = ['chat', 'hidden'] as const;

const historyUrl = (before: string) => `/api/chat/history?before=${encodeURIComponent(before)}`;

/**
 * The chat as this reader holds it: every live snapshot (the latest page) merged by id with the older pages
 * loaded on request and the reader's own sent messages, so a reconnect neither loses nor repeats a message; less
 * the messages operators hid.
 */
export function useChatMessages() {
  const live = useLiveQuery<ChatMessageList>({ queryKey: chatKey, url: '/api/chat' });
  // Messages an operator hid, or deleted with their author's account, leave the page at once, also from history
  // loaded before.
  const hidden = useLiveQuery<HiddenChatMessageIds>({ queryKey: chatHiddenKey, url: '/api/chat/hidden' });
  const [log, setLog] = useState(emptyLog);
  const [merged, setMerged] = useState<ChatMessageList | undefined>(undefined);
  // Merge each new snapshot while rendering (React's pattern for state derived from changing input).
  if (live.data && live.data !== merged) {
    setMerged(live.data);
    setLog((current) => applySnapshot(current, live.data));
  }

  const older = useMutation({
    mutationFn: (before: string) => api.get<ChatMessageList>(historyUrl(before)),
    onSuccess: (page) => setLog((current) => applyOlder(current, page)),
  });
  const { mutate: fetchOlder } = older;
  const oldestId = log.messages[0]?.id;
  const loadOlder = useCallback(() => {
    if (oldestId) fetchOlder(oldestId);
  }, [oldestId, fetchOlder]);

  const messages = useMemo(() => withoutHidden(log.messages, hidden.data), [log.messages, hidden.data]);

  const addSent = useCallback((message: ChatMessage) => setLog((current) => applySent(current, message)), []);

  return {
    live,
    messages,
    hasOlder: log.hasOlder,
    loadOlder,
    loadingOlder: older.isPending,
    olderError: older.error,
    addSent,
  };
}
