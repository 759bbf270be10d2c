import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
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

/**
 * A query whose data stays current: the first answer comes from a GET, later ones from the server's event
 * stream, which sends a full snapshot on every (re)connect and after every change. Both land in the same
 * query cache, so a page does not care where data came from. The stream is reopened whenever it fails or
 * goes silent (see keep-stream-open.ts).
 */
export function useLiveQuery<T>({ queryKey, url, enabled = true }: LiveQueryOptions) {
  const queryClient = useQueryClient();
  const query = useQuery<T>({ queryKey, queryFn: () => api.get<T>(url), enabled, staleTime: Infinity });
  const ready = enabled && query.isSuccess;
  const keyText = JSON.stringify(queryKey);

  useEffect(() => {
    if (!ready) return;
    const keeper = keepStreamOpen((signals) => {
      const source = new EventSource(url);
      source.addEventListener(LIVE_EVENT.snapshot, (event: MessageEvent<string>) => {
        queryClient.setQueryData(JSON.parse(keyText) as QueryKey, JSON.parse(event.data) as T);
        signals.snapshot();
      });
      source.addEventListener(LIVE_EVENT.ping, (event: MessageEvent<string>) => {
        const heartbeatMs = parseLivePing(event.data);
        if (heartbeatMs) signals.heartbeat(heartbeatMs);
      });
      // The keeper reopens, with backoff: EventSource's own retry stops for good at any answer but 200.
      source.addEventListener('error', signals.failed);
      return () => source.close();
    });
    // A network change can leave the old connection silently dead: drop it when the browser goes offline and
    // open a new one, which starts with a full snapshot, when it is back online.
    const online = () => keeper.restart();
    window.addEventListener('offline', keeper.stop);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', keeper.stop);
      window.removeEventListener('online', online);
      keeper.stop();
    };
  }, [ready, url, keyText, queryClient]);

  return query;
}
