import { keepPreviousData, useInfiniteQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from '../router/router.js';
import type { Kitchen, KitchenFirstPage } from '../../shared/kitchens.js';
import { KITCHEN_PAGE_SIZE } from '../../shared/search-params.js';
import type { KitchenPage } from '../../shared/search.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const kitchensKey = ['kitchens', 'first-page'] as const;
export const kitchenKey = (uid: string) => ['kitchen', uid] as const;

/** How many kitchens the URL says the visitor had shown (`?shown=48`): whole pages, at least one. */
function shownIn(params: URLSearchParams): number {
  const shown = Number(params.get('shown'));
  if (!Number.isInteger(shown) || shown <= KITCHEN_PAGE_SIZE) return KITCHEN_PAGE_SIZE;
  return Math.min(Math.ceil(shown / KITCHEN_PAGE_SIZE), 100) * KITCHEN_PAGE_SIZE;
}

/**
 * How many kitchens the visitor asked to see (`?shown=48` in the URL: pages after the first, `more`), and the step
 * that shows one page more, replacing the history entry so that back returns to the same place.
 */
export function useShown() {
  const [params, setParams] = useSearchParams();
  const shown = shownIn(params);
  const grow = useCallback(() => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('shown', String(shownIn(current) + KITCHEN_PAGE_SIZE));
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [setParams]);
  return { shown, more: shown / KITCHEN_PAGE_SIZE - 1, grow };
}

/**
 * The landing page's kitchens, newest first, a page at a time: the first page is live (the server's stream: a new
 * kitchen appears on it), the pages after it are asked for by cursor as the visitor wants more ('Show more
 * kitchens', or scrolling near the end) and are not live. How many are shown is kept in the URL (`?shown=48`,
 * replacing the history entry), so the back button comes back to the same place. The pages after the first are
 * keyed by the first page's `next`: a new kitchen moving the first page reads them again from its new end.
 */
export function useKitchens() {
  const first = useLiveQuery<KitchenFirstPage>({ queryKey: kitchensKey, url: '/api/kitchens/first-page' });
  const { more: wanted, grow } = useShown();
  const start = first.data?.next ?? null;
  const more = useInfiniteQuery({
    queryKey: ['kitchens', 'more', start],
    queryFn: ({ pageParam }) =>
      api.get<KitchenPage>(
        `/api/kitchens/page?limit=${KITCHEN_PAGE_SIZE}&cursor=${encodeURIComponent(pageParam ?? '')}`,
      ),
    initialPageParam: start,
    getNextPageParam: (page) => page.next,
    enabled: start !== null && wanted > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const loaded = more.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = more;
  useEffect(() => {
    if (start !== null && wanted > loaded && loaded > 0 && hasNextPage && !isFetching) void fetchNextPage();
  }, [start, wanted, loaded, hasNextPage, isFetching, fetchNextPage]);

  const kitchens = useMemo(() => {
    if (!first.data) return undefined;
    const list: Kitchen[] = [...first.data.kitchens];
    const seen = new Set(list.map((k) => k.uid));
    for (const page of (more.data?.pages ?? []).slice(0, wanted))
      for (const k of page.kitchens) if (!seen.has(k.uid) && seen.add(k.uid)) list.push(k);
    return list;
  }, [first.data, more.data, wanted]);
  const lastNext =
    wanted > 0 && loaded > 0 ? (more.data?.pages[Math.min(loaded, wanted) - 1]?.next ?? null) : start;
  const hasMore = lastNext !== null;
  const loadingMore = wanted > 0 && start !== null && (more.isFetching || loaded < wanted) && !more.isError;

  const { isError: moreFailed, refetch } = more;
  const showMore = useCallback(() => {
    // After a failed page: ask for it again (the first of the pages after the first page, or the next one).
    if (moreFailed) void (loaded === 0 ? refetch() : fetchNextPage());
    else if (hasMore && !loadingMore) grow();
  }, [moreFailed, loaded, refetch, fetchNextPage, hasMore, loadingMore, grow]);

  const list = useMemo(
    // The first page's state (pending, failed, refetch) with every kitchen shown as its data.
    () => ({ ...first, data: kitchens }) as unknown as UseQueryResult<Kitchen[]>,
    [first, kitchens],
  );
  return {
    list,
    total: first.data?.total,
    cuisines: first.data?.cuisines,
    hasMore: hasMore || moreFailed,
    loadingMore,
    showMore,
    moreFailed,
  };
}

export type { Kitchen };
