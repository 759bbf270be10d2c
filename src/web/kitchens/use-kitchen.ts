import { useQuery } from '@tanstack/react-query';
import type { Kitchen } from '../../shared/kitchens.js';
import { api } from '../lib/api-client.js';
import { kitchenKey } from './use-kitchens.js';

/** One kitchen by its uid (a landing-page card click has usually put it in the cache already). */
export function useKitchen(uid: string) {
  return useQuery({
    queryKey: kitchenKey(uid),
    queryFn: () => api.get<Kitchen>(`/api/kitchens/${encodeURIComponent(uid)}`),
    staleTime: 60_000,
    // A missing kitchen stays missing: no point in asking twice.
    retry: false,
  });
}
