import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { KitchenSearchHit } from '../../shared/search.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';
import { searchQueryString, type SearchFilters } from './use-search-filters.js';

export const kitchenSearchKey = ['kitchens', 'search'] as const;

/**
 * The kitchens matching the filters. A result stays live without a topic per query: while a search is open the
 * page follows the catalogue's changes (a tiny stream published with every kitchen and dish write) and asks again,
 * once per change, instead of the server reloading every distinct search on every change.
 */
export function useKitchenSearch(filters: SearchFilters, enabled: boolean) {
  const queryClient = useQueryClient();
  const query = searchQueryString(filters);
  const changes = useLiveQuery<{ changedAt: string }>({
    queryKey: ['kitchens', 'search-changes'],
    url: '/api/kitchens/search/changes',
    enabled,
  });
  const version = changes.data?.changedAt;
  const seenVersion = useRef(version);
  useEffect(() => {
    if (seenVersion.current === version) return;
    const first = seenVersion.current === undefined;
    seenVersion.current = version;
    if (!first) void queryClient.invalidateQueries({ queryKey: kitchenSearchKey });
  }, [version, queryClient]);
  return useQuery({
    queryKey: [...kitchenSearchKey, query],
    queryFn: () => api.get<KitchenSearchHit[]>(`/api/kitchens/search?${query}`),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
