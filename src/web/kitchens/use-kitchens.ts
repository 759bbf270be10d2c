import type { Kitchen, KitchenList } from '../../shared/kitchens.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const kitchensKey = ['kitchens'] as const;
export const kitchenKey = (uid: string) => ['kitchen', uid] as const;

/** Every kitchen, newest first, kept current by the server's stream. */
export function useKitchens() {
  return useLiveQuery<KitchenList>({ queryKey: kitchensKey, url: '/api/kitchens' });
}

export type { Kitchen };
