import { useQuery } from '@tanstack/react-query';
import type { KitchenPayments } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';

const kitchenPaymentsKey = (uid: string) => ['kitchens', uid, 'payments'] as const;

/** How a kitchen can be paid (card, cash on delivery): for its menu page and the checkout. */
export function useKitchenPayments(uid: string | undefined) {
  return useQuery({
    queryKey: kitchenPaymentsKey(uid ?? ''),
    queryFn: () => api.get<KitchenPayments>(`/api/kitchens/${encodeURIComponent(uid ?? '')}/payments`),
    enabled: uid !== undefined && uid !== '',
  });
}
