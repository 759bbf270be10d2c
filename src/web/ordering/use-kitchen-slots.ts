import { useQuery } from '@tanstack/react-query';
import type { KitchenSlots } from '../../shared/ordering.js';
import { api } from '../lib/api-client.js';

/** The query key of a kitchen's slots: the cart invalidates it after a 409 SLOT_FULL. */
export const slotsKey = (uid: string) => ['kitchens', uid, 'slots'] as const;

/** How often the slots are asked again while shown: places fill up, and slots pass. */
const REFRESH_MS = 60_000;

/**
 * When an order at a kitchen can be for ('As soon as possible' now, its time slots ahead with the places left), and
 * how it takes orders: a plain GET (GET /api/kitchens/:uid/slots), asked again every minute and when the window
 * comes back into focus. `enabled` false: not asked (a suspended kitchen's are not served).
 */
export function useKitchenSlots(kitchenUid: string | undefined, enabled = true) {
  return useQuery({
    queryKey: slotsKey(kitchenUid ?? ''),
    queryFn: () => api.get<KitchenSlots>(`/api/kitchens/${encodeURIComponent(kitchenUid ?? '')}/slots`),
    enabled: enabled && kitchenUid !== undefined && kitchenUid !== '',
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}
