import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api-client.js';

export interface LiveQueryOptions {
  queryKey: QueryKey;
  /** An API URL that answers JSON to a GET and a server-sent event stream to EventSource. */
  url: string;
  enabled?: boolean;
}

/**
 * A query whose data stays current: the first answer comes from a GET, later ones from the server's event
 * stream, which sends a full snapshot on every (re)connect and after every change. Both land in the same
 * query cache, so a page does not care where data came from.
 */
export function useLiveQuery<T>({ queryKey, url, enabled = true }: LiveQueryOptions) {
  const queryClient = useQueryClient();
  const query = useQuery<T>({ queryKey, queryFn: () => api.get<T>(url), enabled, staleTime: Infinity });
  const ready = enabled && query.isSuccess;
  const keyText = JSON.stringify(queryKey);

  useEffect(() => {
    if (!ready) return;
    const onSnapshot = (event: MessageEvent<string>) => {
      queryClient.setQueryData(JSON.parse(keyText) as QueryKey, JSON.parse(event.data) as T);
    };
    let source: EventSource | undefined;
    const open = () => {
      source = new EventSource(url);
      source.addEventListener('snapshot', onSnapshot);
    };
    const close = () => {
      source?.removeEventListener('snapshot', onSnapshot);
      source?.close();
      source = undefined;
    };
    // A network change can leave the old connection silently dead: drop it when the browser goes offline and
    // open a new one, which starts with a full snapshot, when it is back online.
    const reopen = () => {
      close();
      open();
    };
    open();
    window.addEventListener('offline', close);
    window.addEventListener('online', reopen);
    return () => {
      window.removeEventListener('offline', close);
      window.removeEventListener('online', reopen);
      close();
    };
  }, [ready, url, keyText, queryClient]);

  return query;
}
