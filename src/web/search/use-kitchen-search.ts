import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { KitchenSearchHit } from '../../shared/search.js';
import { api } from '../lib/api-client.js';
import { searchQueryString, type SearchFilters } from './use-search-filters.js';

export const kitchenSearchKey = ['kitchens', 'search'] as const;

/**
 * The kitchens matching the filters. A result stays live without a topic per query: the page keeps the kitchens
 * stream open, and `listVersion` (when its snapshot last changed) makes every open search ask again, once per
 * change, instead of the server reloading every distinct search on every change.
 */
export function useKitchenSearch(filters: SearchFilters, enabled: boolean, listVersion: number) {
  const queryClient = useQueryClient();
  const query = searchQueryString(filters);
  const seenVersion = useRef(listVersion);
  useEffect(() => {
    if (seenVersion.current === listVersion) return;
    seenVersion.current = listVersion;
    void queryClient.invalidateQueries({ queryKey: kitchenSearchKey });
  }, [listVersion, queryClient]);
  return useQuery({
    queryKey: [...kitchenSearchKey, query],
    queryFn: () => api.get<KitchenSearchHit[]>(`/api/kitchens/search?${query}`),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
