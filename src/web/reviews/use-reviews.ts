import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { REVIEWS_SHOWN } from '../../shared/review-texts.js';
import type { Review } from '../../shared/reviews.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const reviewsKey = (kitchenUid: string) => ['reviews', kitchenUid] as const;

/** A kitchen's latest reviews with the cook's replies, newest first, kept current on the tab's one stream. */
export function useReviews(kitchenUid: string) {
  return useLiveQuery<Review[]>({
    queryKey: reviewsKey(kitchenUid),
    url: `/api/kitchens/${encodeURIComponent(kitchenUid)}/reviews`,
  });
}

const olderReviewsKey = (kitchenUid: string) => [...reviewsKey(kitchenUid), 'older'] as const;

/**
 * The live latest page of a kitchen's reviews, and the older pages the reader asked for ('Show older reviews') after
 * it, as one list: the older pages are an infinite query whose first page starts at the oldest review the latest
 * page held when the reader first asked. A reply updates both (`useReplyToReview` writes every list under
 * `reviewsKey`).
 */
export function useReviewPages(kitchenUid: string) {
  const latest = useReviews(kitchenUid);
  const [from, setFrom] = useState<string>();
  const older = useInfiniteQuery({
    queryKey: [...olderReviewsKey(kitchenUid), from ?? null],
    queryFn: ({ pageParam }) =>
      api.get<Review[]>(
        `/api/kitchens/${encodeURIComponent(kitchenUid)}/reviews/older?before=${encodeURIComponent(pageParam)}`,
      ),
    initialPageParam: from ?? '',
    getNextPageParam: (page: Review[]) => (page.length < REVIEWS_SHOWN ? undefined : page.at(-1)?.id),
    enabled: from !== undefined,
    staleTime: Infinity,
  });
  const reviews = useMemo(() => {
    if (!latest.data) return undefined;
    const ids = new Set(latest.data.map((r) => r.id));
    return [...latest.data, ...(older.data?.pages.flat() ?? []).filter((r) => !ids.has(r.id))];
  }, [latest.data, older.data]);
  const asked = from !== undefined;
  return {
    latest,
    reviews,
    /** Whether there may be older reviews than those held: the last page was full. */
    hasOlder: asked ? older.hasNextPage || older.isPending : latest.data?.length === REVIEWS_SHOWN,
    showOlder: () => {
      if (!asked) setFrom(latest.data?.at(-1)?.id);
      else void older.fetchNextPage();
    },
    loadingOlder: older.isFetching,
    olderError: older.error,
  };
}
