// Rating an order and replying to a review: apart from use-reviews.ts, which a kitchen's page reads on its first
// view, so that the first view does not carry them (issue 32).
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { CustomerOrder } from '../../shared/orders.js';
import type { Review, ReviewInput } from '../../shared/reviews.js';
import { api } from '../lib/api-client.js';
import { myOrderKey, myOrdersKey } from '../orders/use-my-order.js';
import { reviewsKey } from './use-reviews.js';

/** 'Rate your order': the answer shows at once on the order (the stream confirms it). */
export function useRateOrder(order: CustomerOrder) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewInput) =>
      api.post<Review>(`/api/orders/${encodeURIComponent(order.id)}/review`, input),
    onSuccess: (review) => {
      const rated = { stars: review.stars, text: review.text, createdAt: review.createdAt };
      queryClient.setQueryData<CustomerOrder | null>(myOrderKey, (o) =>
        o?.id === order.id ? { ...o, review: rated } : o,
      );
      queryClient.setQueryData<CustomerOrder[]>(myOrdersKey, (list) =>
        list?.map((o) => (o.id === order.id ? { ...o, review: rated } : o)),
      );
    },
  });
}

/** The cook's one reply to a review of their kitchen. */
export function useReplyToReview(kitchenUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reply }: { id: string; reply: string }) =>
      api.post<Review>(`/api/kitchen/reviews/${encodeURIComponent(id)}/reply`, { reply }),
    onSuccess: (review) => {
      const swap = (list: Review[]) => list.map((r) => (r.id === review.id ? review : r));
      // The latest page is a list; the older pages an infinite query's pages.
      queryClient.setQueriesData<Review[] | InfiniteData<Review[]>>(
        { queryKey: reviewsKey(kitchenUid) },
        (data) =>
          data === undefined
            ? data
            : Array.isArray(data)
              ? swap(data)
              : { ...data, pages: data.pages.map(swap) },
      );
    },
  });
}
