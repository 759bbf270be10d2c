// Checking a payment, and the cook's payouts: apart from use-payments.ts, which a kitchen's page reads on its first
// view, so that the first view does not carry them (issue 32).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomerOrder } from '../../shared/orders.js';
import type { PayoutSettings } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';
import { myOrderKey } from '../orders/use-my-order.js';

export const payoutsKey = ['kitchen', 'payouts'] as const;

/** Back from the payment page: the server asks the provider where the payment stands. */
export function useCheckPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      api.post<CustomerOrder>(`/api/orders/${encodeURIComponent(orderId)}/payment/check`, {}),
    onSuccess: (order) => queryClient.setQueryData(myOrderKey, order),
  });
}

/** The cook's 'Get paid' settings. */
export function usePayouts() {
  return useQuery({ queryKey: payoutsKey, queryFn: () => api.get<PayoutSettings>('/api/kitchen/payouts') });
}

export function usePayoutActions() {
  const queryClient = useQueryClient();
  const store = (settings: PayoutSettings) => queryClient.setQueryData(payoutsKey, settings);
  return {
    onboarding: useMutation({
      mutationFn: () => api.post<{ url: string }>('/api/kitchen/payouts/onboarding', {}),
    }),
    refresh: useMutation({
      mutationFn: () => api.post<PayoutSettings>('/api/kitchen/payouts/refresh', {}),
      onSuccess: store,
    }),
    cash: useMutation({
      mutationFn: (acceptsCash: boolean) =>
        api.put<PayoutSettings>('/api/kitchen/payouts/cash', { acceptsCash }),
      onSuccess: store,
    }),
    tips: useMutation({
      mutationFn: (acceptsTips: boolean) =>
        api.put<PayoutSettings>('/api/kitchen/payouts/tips', { acceptsTips }),
      onSuccess: store,
    }),
  };
}
