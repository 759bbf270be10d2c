import type { Kitchen, KitchenProfile } from '../../shared/kitchens.js';
import { useLiveQuery } from '../live/use-live-query.js';
import { kitchenKey } from './use-kitchens.js';

/**
 * One kitchen by its uid, kept current by the server's stream (its hours, a pause, its rating and story): a
 * landing-page card click has usually put it in the cache already (the list's kitchen, without the orders it
 * delivered, which the stream's first snapshot brings). `null` only on a server-rendered page of a kitchen that
 * does not exist.
 */
export function useKitchen(uid: string, enabled = true) {
  return useLiveQuery<Kitchen | KitchenProfile | null>({
    queryKey: kitchenKey(uid),
    url: `/api/kitchens/${encodeURIComponent(uid)}`,
    enabled,
  });
}
