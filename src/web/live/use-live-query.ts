import { replaceEqualDeep, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError } from '../lib/api-client.js';
import { tabStream } from './tab-stream.js';

/** The live topics' versions a server-rendered page was rendered from, by query hash (`PageData.versions`). */
const pageVersions = new Map<string, string>();

/** Keeps the versions of the page's data: the first follow of each query tells the stream it holds that one. */
export function rememberPageVersions(versions: Record<string, string> = {}): void {
  for (const [hash, etag] of Object.entries(versions)) pageVersions.set(hash, etag);
}

export interface LiveQueryOptions {
  queryKey: QueryKey;
  /** A live list's API URL: JSON to a GET, and a topic of the tab's one stream. */
  url: string;
  enabled?: boolean;
}

/**
 * A query whose data stays current: the first answer comes from a GET (or the server-rendered page), later ones
 * from the tab's one live stream (tab-stream.ts), which writes every snapshot into the same query cache, so a page
 * does not care where data came from. A topic the stream refuses or finds gone puts the query in the error its GET
 * would answer (401, 404), without a GET; a refused one is asked for again now and then, one it ends without a
 * reason (a sign-out, a suspension) at once.
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
  // Refused by the stream (a suspended kitchen's dishes): the query holds the refusal, and the topic is asked for
  // again now and then, so that it comes back when it is served again. Reset by the next snapshot.
  const [refusals, setRefusals] = useState(0);
  // Bumped to follow the topic again after the stream ended or refused it.
  const [round, setRound] = useState(0);
  // A server-rendered page seeds `null` for a thing that does not exist (an unknown kitchen): nothing to follow.
  const follow = enabled && query.data !== null && (query.isSuccess || refusals > 0);

  useEffect(() => {
    if (!follow || !tabStream) return;
    const key = JSON.parse(keyText) as QueryKey;
    let current = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    const askAgainIn = (ms: number) => {
      again = setTimeout(() => current && setRound((n) => n + 1), ms);
    };
    // The first follow after a server-rendered page: what the cache holds is the version the page was rendered from.
    const version = pageVersions.get(keyText);
    pageVersions.delete(keyText);
    const state = version === undefined ? undefined : queryClient.getQueryState(key);
    const held =
      version !== undefined && state?.status === 'success' ? { etag: version, data: state.data } : undefined;
    const unfollow = tabStream.follow(
      url,
      {
        snapshot: (data) => {
          // What the query already holds (a list the page that came before also showed, or one unchanged across a
          // reconnect that named no version): the page is not rendered again for it (a new `dataUpdatedAt` alone
          // would render every component using it).
          // The snapshot written shares what did not change with it, so the cache's own comparison is short.
          const held = queryClient.getQueryState(key);
          if (held?.status !== 'success') queryClient.setQueryData(key, data);
          else {
            const shared = replaceEqualDeep(held.data, data);
            if (shared !== held.data) queryClient.setQueryData(key, shared);
          }
          setRefusals(0);
        },
        gone: ({ status, message }, how) => {
          if (status === undefined) return askAgainIn(500); // ended by a sign-out or a suspension: asked again
          // The query holds the answer its GET would give (401, 403, 404), without asking for it.
          const refusal = new ApiError(status, {
            code: how === 'missing' ? 'NOT_FOUND' : 'REFUSED',
            message: message ?? '',
          });
          void queryClient
            .fetchQuery({ queryKey: key, queryFn: () => Promise.reject(refusal), retry: false, staleTime: 0 })
            .catch(() => undefined);
          if (how === 'missing') return; // gone for good (a deleted kitchen)
          setRefusals((n) => n + 1);
          askAgainIn(Math.min(60_000, 5000 * 2 ** refusals));
        },
      },
      held,
    );
    return () => {
      current = false;
      clearTimeout(again);
      unfollow();
    };
    // `refusals` only sets the next delay: a change of it alone is no reason to follow again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [follow, url, keyText, queryClient, round]);

  return query;
}
