import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import {
  CHAT_PAGE_SIZE,
  type ChatMessage,
  type ChatMessageList,
  type HiddenChatMessageIds,
} from '../../shared/chat.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';
import {
  applyOlder,
  applySent,
  applySnapshot,
  compareMessages,
  emptyLog,
  withoutHidden,
} from './merge-messages.js';

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
  // History ('Load older messages'): an infinite query of pages, the first before the oldest message held when the
  // reader first asked, each next one before the oldest of the page before.
  const [from, setFrom] = useState<string>();
  // Merge each new snapshot while rendering (React's pattern for state derived from changing input).
  if (live.data && live.data !== merged) {
    setMerged(live.data);
    const next = applySnapshot(log, live.data);
    // More was said while the stream was down than a snapshot holds: the history loaded no longer reaches the
    // latest page, so it starts again (a silent gap otherwise).
    const [first] = log.messages;
    const [nextFirst] = next.messages;
    if (first && nextFirst && compareMessages(nextFirst, first) > 0) setFrom(undefined);
    setLog(next);
  }

  const older = useInfiniteQuery({
    queryKey: [...chatKey, 'older', from ?? null],
    queryFn: ({ pageParam }) => api.get<ChatMessageList>(historyUrl(pageParam)),
    initialPageParam: from ?? '',
    getNextPageParam: (page: ChatMessageList) => (page.length < CHAT_PAGE_SIZE ? undefined : page[0]?.id),
    enabled: from !== undefined,
    staleTime: Infinity,
  });
  const olderPages = older.data?.pages;
  const withHistory = useMemo(
    () => (olderPages ? olderPages.reduce((held, page) => applyOlder(held, page), log) : log),
    [log, olderPages],
  );
  const oldestId = log.messages[0]?.id;
  const asked = from !== undefined;
  const { fetchNextPage } = older;
  const loadOlder = useCallback(() => {
    if (!asked) setFrom(oldestId);
    else void fetchNextPage();
  }, [asked, oldestId, fetchNextPage]);

  const messages = useMemo(
    () => withoutHidden(withHistory.messages, hidden.data),
    [withHistory.messages, hidden.data],
  );

  const addSent = useCallback((message: ChatMessage) => setLog((current) => applySent(current, message)), []);

  return {
    live,
    messages,
    hasOlder: asked ? older.hasNextPage || older.isPending : log.hasOlder,
    loadOlder,
    loadingOlder: older.isFetching,
    olderError: older.error,
    addSent,
  };
}
