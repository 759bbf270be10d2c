import type { QueryClient } from '@tanstack/react-query';
import type { PageData } from '../../shared/page-data.js';

/**
 * The query cache a page was rendered from, put in place before the first render, on the server and in the browser
 * alike: each query's data as of when the server read it. TanStack's `hydrate` does this too, but its module (with
 * its mutations, promises and dehydration options this app never uses) was 0.6 KiB of the first view's script; every
 * query a page carries succeeded (`DehydratedQuery`), so setting its data is all there is to it.
 */
export function seedQueryCache(queryClient: QueryClient, cache: PageData['cache']): void {
  for (const query of cache.queries)
    queryClient.setQueryData(query.queryKey, query.state.data, { updatedAt: query.state.dataUpdatedAt });
}
