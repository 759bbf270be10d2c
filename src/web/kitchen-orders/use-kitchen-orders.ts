import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KitchenOrder, OrderMoveInput } from '../../shared/orders.js';
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

export const pastKitchenOrdersKey = (kitchenUid: string) => ['kitchen-orders', kitchenUid, 'past'] as const;

/** The kitchen's ended and deleted orders ('Past'), newest first, kept current. */
export function usePastKitchenOrders(kitchenUid: string) {
  return useLiveQuery<KitchenOrder[]>({
    queryKey: pastKitchenOrdersKey(kitchenUid),
    url: `${ordersUrl}/past`,
  });
}

/** A lifecycle move ('Accept', 'Preparing', …); the lists update from the server's streams. */
export function useMoveOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & OrderMoveInput) =>
      api.post<KitchenOrder>(`${orderUrl(id)}/moves`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: allKitchenOrdersKey }),
  });
}
