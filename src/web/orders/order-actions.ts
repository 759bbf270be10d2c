// What a customer does to an order (place, cancel, order again): apart from use-my-order.ts, which the menu page
// reads on its first view, so that the first view does not carry them (issue 32).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerCancelInput, CustomerOrder, OrderAgain, PlaceOrderInput } from '../../shared/orders.js';
import { api } from '../lib/api-client.js';
import { myOrderKey } from './use-my-order.js';

/** 'Cancel order', while the kitchen has not accepted it yet. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & CustomerCancelInput) =>
      api.post<CustomerOrder>(`/api/orders/${encodeURIComponent(id)}/cancel`, body),
    onSuccess: (order) => queryClient.setQueryData(myOrderKey, order),
  });
}

/** What 'Order again' puts in the cart: the order's dishes still on the menu, and those gone. */
export const fetchOrderAgain = (id: string) =>
  api.get<OrderAgain>(`/api/orders/${encodeURIComponent(id)}/again`);

/** Places the order; the answer becomes the customer's open order in the cache. */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlaceOrderInput) => api.post<CustomerOrder>('/api/orders', input),
    onSuccess: (order) => queryClient.setQueryData(myOrderKey, order),
  });
}
