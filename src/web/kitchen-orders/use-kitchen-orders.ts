import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KitchenOrder } from '../../shared/orders.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const allKitchenOrdersKey = ['kitchen-orders'] as const;
export const kitchenOrdersKey = (kitchenUid: string) => ['kitchen-orders', kitchenUid] as const;
const ordersUrl = '/api/kitchen/orders';
const orderUrl = (id: string) => `${ordersUrl}/${encodeURIComponent(id)}`;

/** The signed-in kitchen's open orders, newest first, kept current by the server's stream. */
export function useKitchenOrders(kitchenUid: string) {
  return useLiveQuery<KitchenOrder[]>({ queryKey: kitchenOrdersKey(kitchenUid), url: ordersUrl });
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: string }) =>
      api.patch<KitchenOrder>(orderUrl(id), { status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allKitchenOrdersKey }),
  });
}

export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(orderUrl(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allKitchenOrdersKey }),
  });
}
