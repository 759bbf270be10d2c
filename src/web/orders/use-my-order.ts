import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerOrder, PlaceOrderInput } from '../../shared/orders.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const myOrderKey = ['orders', 'mine'] as const;
const MY_ORDER_URL = '/api/orders/mine';

/** The signed-in customer's open order (or null), kept current as the kitchen changes its status. */
export function useMyOrder(enabled = true) {
  return useLiveQuery<CustomerOrder | null>({ queryKey: myOrderKey, url: MY_ORDER_URL, enabled });
}

/** The open order as it is now on the server, asked afresh (not from the cache) each time a page mounts. */
export function useMyOrderOnEntry() {
  return useQuery({
    queryKey: myOrderKey,
    queryFn: () => api.get<CustomerOrder | null>(MY_ORDER_URL),
    refetchOnMount: 'always',
  });
}

/** Places the order; the answer becomes the customer's open order in the cache. */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlaceOrderInput) => api.post<CustomerOrder>('/api/orders', input),
    onSuccess: (order) => queryClient.setQueryData(myOrderKey, order),
  });
}
