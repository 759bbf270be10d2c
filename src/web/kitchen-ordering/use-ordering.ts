import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderingSettings, OrderingSettingsInput } from '../../shared/ordering.js';
import { api } from '../lib/api-client.js';

export const orderingKey = ['kitchen', 'ordering'] as const;
const url = '/api/kitchen/ordering';

/** The cook's ordering options ('How you take orders'). */
export function useOrdering() {
  return useQuery({ queryKey: orderingKey, queryFn: () => api.get<OrderingSettings>(url) });
}

/** Saves them all; the answer (as saved: texts trimmed) becomes the cache's. */
export function useSaveOrdering() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrderingSettingsInput) => api.put<OrderingSettings>(url, input),
    onSuccess: (saved) => queryClient.setQueryData(orderingKey, saved),
  });
}
