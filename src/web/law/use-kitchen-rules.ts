import { useQuery } from '@tanstack/react-query';
import type { KitchenBooking, KitchenRules } from '../../shared/jurisdictions.js';
import { api } from '../lib/api-client.js';

/** Keyed by the cook, so that another cook signing in on this browser never sees these. */
export const kitchenRulesKey = (ownerUid: string) => ['kitchen-rules', ownerUid] as const;

/** The rules of the signed-in cook's place, why they apply, and what their orders counted against the caps. */
export function useKitchenRules(ownerUid: string) {
  return useQuery({
    queryKey: kitchenRulesKey(ownerUid),
    queryFn: () => api.get<KitchenRules>('/api/kitchen/rules'),
  });
}

export const kitchenBookingKey = (uid: string) => ['kitchens', uid, 'booking'] as const;

/** Whether a kitchen's meals for today are all sold under its place's caps (asked again when the page is shown). */
export function useKitchenBooking(uid: string) {
  return useQuery({
    queryKey: kitchenBookingKey(uid),
    queryFn: () => api.get<KitchenBooking>(`/api/kitchens/${encodeURIComponent(uid)}/booking`),
    enabled: uid !== '',
  });
}
