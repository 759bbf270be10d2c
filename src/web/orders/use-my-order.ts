import { useQuery } from '@tanstack/react-query';
import type { CustomerOrder } from '../../shared/orders.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const myOrderKey = ['orders', 'mine'] as const;
export const myOrdersKey = ['orders', 'all'] as const;
const MY_ORDER_URL = '/api/orders/mine';

/** The signed-in customer's order in progress, or else their latest (null if none), kept current. */
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

/** 'Your orders': the customer's orders, newest first, kept current. */
export function useMyOrders() {
  return useLiveQuery<CustomerOrder[]>({ queryKey: myOrdersKey, url: '/api/orders' });
}
