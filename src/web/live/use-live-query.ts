import { useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LIVE_EVENT, parseLivePing } from '../../shared/live.js';
import { api } from '../lib/api-client.js';
import { keepStreamOpen } from './keep-stream-open.js';

export interface LiveQueryOptions {
  queryKey: QueryKey;
  /** An API URL that answers JSON to a GET and a server-sent event stream to EventSource. */
  url: string;
  enabled?: boolean;
}

interface SharedStream {
  users: number;
  /** It has delivered a snapshot and not failed since: the cache holds the latest the server sent. */
  live: boolean;
  stop: () => void;
}

/**
 * The streams this tab holds, one per URL however many components follow it: a browser keeps at most six
 * connections to a site over HTTP/1.1, streams included, and a request beyond them waits for one to close.
 */
const streams = new Map<string, SharedStream>();

/** Follows `url`'s stream into the query `keyText` names, sharing it with every other follower in this tab. */
function followStream(url: string, keyText: string, queryClient: QueryClient): () => void {
  const id = `${url} ${keyText}`;
  let stream = streams.get(id);
  if (!stream) {
    const state = { live: false };
    const keeper = keepStreamOpen((signals) => {
      const source = new EventSource(url);
      source.addEventListener(LIVE_EVENT.snapshot, (event: MessageEvent<string>) => {
        queryClient.setQueryData(JSON.parse(keyText) as QueryKey, JSON.parse(event.data) as unknown);
        state.live = true;
        signals.snapshot();
      });
      // Gone for good (a deleted kitchen): no more reopening; the GET's 404 puts the query in its error state.
      source.addEventListener(LIVE_EVENT.missing, () => {
        keeper.stop();
        streams.delete(id);
        void queryClient.refetchQueries({ queryKey: JSON.parse(keyText) as QueryKey, exact: true });
      });
      source.addEventListener(LIVE_EVENT.ping, (event: MessageEvent<string>) => {
        const heartbeatMs = parseLivePing(event.data);
        if (heartbeatMs) signals.heartbeat(heartbeatMs);
      });
      // The keeper reopens, with backoff: EventSource's own retry stops for good at any answer but 200.
      source.addEventListener('error', () => {
        state.live = false;
        signals.failed();
      });
      return () => {
        state.live = false;
        source.close();
      };
    });
    // A network change can leave the old connection silently dead: drop it when the browser goes offline and
    // open a new one, which starts with a full snapshot, when it is back online.
    const online = () => keeper.restart();
    window.addEventListener('offline', keeper.stop);
    window.addEventListener('online', online);
    stream = {
      users: 0,
      get live() {
        return state.live;
      },
      stop: () => {
        window.removeEventListener('offline', keeper.stop);
        window.removeEventListener('online', online);
        keeper.stop();
      },
    };
    streams.set(id, stream);
  }
  const shared = stream;
  shared.users++;
  return () => {
    if (--shared.users > 0) return;
    shared.stop();
    if (streams.get(id) === shared) streams.delete(id);
  };
}

/**
 * A query whose data stays current: the first answer comes from a GET, later ones from the server's event
 * stream, which sends a full snapshot on every (re)connect and after every change. Both land in the same
 * query cache, so a page does not care where data came from. The stream is reopened whenever it fails or
 * goes silent (see keep-stream-open.ts), and shared by every component of the tab that follows it.
 */
export function useLiveQuery<T>({ queryKey, url, enabled = true }: LiveQueryOptions) {
  const queryClient = useQueryClient();
  const keyText = JSON.stringify(queryKey);
  const query = useQuery<T>({
    queryKey,
    // While the stream is live the cache already holds the server's latest snapshot, and a GET asked now (a
    // mutation's invalidation) could answer after a newer snapshot and put the older list back: an order placed
    // as the cook pressed 'Delivered' vanished from their screen until the next change. Only a stream that is not
    // live (opening, failed, offline) needs the GET.
    queryFn: () =>
      streams.get(`${url} ${keyText}`)?.live && queryClient.getQueryData<T>(queryKey) !== undefined
        ? (queryClient.getQueryData<T>(queryKey) as T)
        : api.get<T>(url),
    enabled,
    staleTime: Infinity,
  });
  // A server-rendered page seeds `null` for a thing that does not exist (an unknown kitchen): nothing to follow.
  const ready = enabled && query.isSuccess && query.data !== null;

  useEffect(() => {
    if (!ready) return;
    return followStream(url, keyText, queryClient);
  }, [ready, url, keyText, queryClient]);

  return query;
}
