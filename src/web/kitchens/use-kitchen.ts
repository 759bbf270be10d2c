import type { Kitchen } from '../../shared/kitchens.js';
import { useLiveQuery } from '../live/use-live-query.js';
import { kitchenKey } from './use-kitchens.js';

/**
 * One kitchen by its uid, kept current by the server's stream (its hours, a pause): a landing-page card click has
 * usually put it in the cache already.
 */
export function useKitchen(uid: string) {
  return useLiveQuery<Kitchen>({
    queryKey: kitchenKey(uid),
    url: `/api/kitchens/${encodeURIComponent(uid)}`,
  });
}
