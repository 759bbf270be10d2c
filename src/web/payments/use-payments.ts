import { useQuery } from '@tanstack/react-query';
import type { KitchenPayments } from '../../shared/payments.js';
import { api } from '../lib/api-client.js';

const kitchenPaymentsKey = (uid: string) => ['kitchens', uid, 'payments'] as const;

/**
 * How a kitchen can be paid (card, cash on delivery): for its menu page and the checkout. `staleTime`: how old an
 * answer may be to be used without asking again (the checkout asks as it opens; a menu page's data is at most a
 * minute old, and it is not asked for again as the page hydrates).
 */
export function useKitchenPayments(uid: string | undefined, staleTime = 0) {
  return useQuery({
    queryKey: kitchenPaymentsKey(uid ?? ''),
    queryFn: () => api.get<KitchenPayments>(`/api/kitchens/${encodeURIComponent(uid ?? '')}/payments`),
    enabled: uid !== undefined && uid !== '',
    staleTime,
  });
}
