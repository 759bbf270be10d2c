import { useQuery } from '@tanstack/react-query';
import type { KitchenBooking } from '../../shared/jurisdictions.js';
import { api } from '../lib/api-client.js';

// Apart from the cook's hooks (use-kitchen-rules.ts): a kitchen's menu page reads this one, and a module shared with
// the cook's pages would bring their mutations into the first view's script.
export const kitchenBookingKey = (uid: string) => ['kitchens', uid, 'booking'] as const;

/** Whether a kitchen's meals for today are all sold under its place's caps (asked again when the page is shown). */
export function useKitchenBooking(uid: string) {
  return useQuery({
    queryKey: kitchenBookingKey(uid),
    queryFn: () => api.get<KitchenBooking>(`/api/kitchens/${encodeURIComponent(uid)}/booking`),
    enabled: uid !== '',
  });
}
