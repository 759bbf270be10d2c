import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../lib/api-client.js';
import { tabStream } from './tab-stream.js';

export interface LiveQueryOptions {
  queryKey: QueryKey;
  /** A live list's API URL: JSON to a GET, and a topic of the tab's one stream. */
  url: string;
  enabled?: boolean;
}

/**
 * A query whose data stays current: the first answer comes from a GET (or the server-rendered page), later ones
 * from the tab's one live stream (tab-stream.ts), which writes every snapshot into the same query cache, so a page
 * does not care where data came from. A topic the stream stops serving (its subject deleted, a sign-out, a
 * suspension) is asked for again by GET, whose answer (data, or a 401/404) the query then holds; it is followed again
 * once that succeeds.
 */
export function useLiveQuery<T>({ queryKey, url, enabled = true }: LiveQueryOptions) {
  const queryClient = useQueryClient();
  const keyText = JSON.stringify(queryKey);
  const query = useQuery<T>({
    queryKey,
    // While the stream is live the cache already holds the server's latest snapshot, and a GET asked now (a
    // mutation's invalidation) could answer after a newer snapshot and put the older list back: an order placed
    // as the cook pressed 'Delivered' vanished from their screen until the next change. Only a topic that is not
    // live (opening, failed, offline) needs the GET.
    queryFn: () =>
      tabStream?.isLive(url) && queryClient.getQueryData<T>(queryKey) !== undefined
        ? (queryClient.getQueryData<T>(queryKey) as T)
        : api.get<T>(url),
    enabled,
    staleTime: Infinity,
  });
  // A server-rendered page seeds `null` for a thing that does not exist (an unknown kitchen): nothing to follow.
  const ready = enabled && query.isSuccess && query.data !== null;
  // Bumped when the stream stopped serving the topic and a GET has answered since: follow it again.
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!ready || !tabStream) return;
    const key = JSON.parse(keyText) as QueryKey;
    let current = true;
    const unfollow = tabStream.follow(url, {
      snapshot: (data) => queryClient.setQueryData(key, data),
      gone: () => {
        void queryClient.refetchQueries({ queryKey: key, exact: true }).then(() => {
          if (current && queryClient.getQueryState(key)?.status === 'success') setRound((n) => n + 1);
        });
      },
    });
    return () => {
      current = false;
      unfollow();
    };
  }, [ready, url, keyText, queryClient, round]);

  return query;
}
