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
    const source = new EventSource(url);
    const onSnapshot = (event: MessageEvent<string>) => {
      queryClient.setQueryData(JSON.parse(keyText) as QueryKey, JSON.parse(event.data) as T);
    };
    source.addEventListener('snapshot', onSnapshot);
    return () => {
      source.removeEventListener('snapshot', onSnapshot);
      source.close();
    };
  }, [ready, url, keyText, queryClient]);

  return query;
}
