import {
  keepPreviousData,
  useInfiniteQuery,
  useQueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { KITCHEN_PAGE_SIZE } from '../../shared/search-params.js';
import type { KitchenPage, KitchenSearchHit } from '../../shared/search.js';
import { useShown } from '../kitchens/use-kitchens.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';
import { searchQueryString, type SearchFilters } from './use-search-filters.js';
import type { AvoidedAllergens } from '../allergies/use-allergy-profile.js';

export const kitchenSearchKey = ['kitchens', 'search'] as const;

/**
 * The kitchens matching the filters. A result stays live without a topic per query: while a search is open the
 * page follows the catalogue's changes (a tiny stream published with every kitchen and dish write) and asks again,
 * once per change, instead of the server reloading every distinct search on every change.
 */
export function useKitchenSearch(filters: SearchFilters, enabled: boolean, allergies?: AvoidedAllergens) {
  const queryClient = useQueryClient();
  const query = searchQueryString(filters, allergies);
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
  const { more: wanted, grow } = useShown();
  const pages = useInfiniteQuery({
    queryKey: [...kitchenSearchKey, query],
    queryFn: ({ pageParam }) =>
      api.get<KitchenPage>(
        `/api/kitchens/page?${query}${query ? '&' : ''}limit=${KITCHEN_PAGE_SIZE}` +
          (pageParam === null ? '' : `&cursor=${encodeURIComponent(pageParam)}`),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // Who is open changes with the clock, not only with the catalogue.
    refetchInterval: filters.open ? 60_000 : false,
  });
  const loaded = pages.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = pages;
  // As many pages as the URL says were shown (back to a search scrolled down).
  useEffect(() => {
    if (enabled && loaded > 0 && loaded <= wanted && hasNextPage && !isFetching) void fetchNextPage();
  }, [enabled, loaded, wanted, hasNextPage, isFetching, fetchNextPage]);
  const hits = useMemo(() => {
    if (!pages.data) return undefined;
    const seen = new Set<string>();
    return pages.data.pages
      .slice(0, wanted + 1)
      .flatMap((page) => page.kitchens)
      .filter((hit) => !seen.has(hit.uid) && !!seen.add(hit.uid));
  }, [pages.data, wanted]);
  const hasMore = loaded > 0 && (loaded > wanted + 1 || hasNextPage);
  const loadingMore = isFetching && loaded > 0 && loaded <= wanted;
  const showMore = useCallback(() => {
    if (hasMore && !loadingMore) grow();
  }, [hasMore, loadingMore, grow]);
  const list = useMemo(
    // The first page's state (pending, failed, refetch) with every hit shown as its data.
    () => ({ ...pages, data: hits }) as unknown as UseQueryResult<KitchenSearchHit[]>,
    [pages, hits],
  );
  return {
    list,
    total: pages.data?.pages[0]?.total,
    totalAtLeast: pages.data?.pages[0]?.totalAtLeast ?? false,
    hasMore,
    loadingMore,
    showMore,
    moreFailed: pages.isError && loaded > 0,
  };
}
