import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Kitchen, KitchenInput, KitchenUpdateInput, OwnKitchenCheck } from '../../shared/kitchens.js';
import { api } from '../lib/api-client.js';

/** Keyed by the owner, so a different kitchen user never sees the previous one's kitchen. */
export const ownKitchenKey = (ownerUid: string) => ['own-kitchen', ownerUid] as const;
export const allOwnKitchensKey = ['own-kitchen'] as const;

/** The signed-in owner's kitchen, or null when they have not registered one yet. */
export async function fetchOwnKitchen(): Promise<Kitchen | null> {
  return (await api.get<OwnKitchenCheck>('/api/kitchen/check')).kitchen;
}

export function useOwnKitchen(ownerUid: string) {
  return useQuery({ queryKey: ownKitchenKey(ownerUid), queryFn: fetchOwnKitchen, staleTime: 30_000 });
}

export function useRegisterKitchen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: KitchenInput) => api.post<Kitchen>('/api/kitchen', input),
    onSuccess: (kitchen) => queryClient.setQueryData(ownKitchenKey(kitchen.uid), kitchen),
  });
}

export function useEditKitchen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: KitchenUpdateInput) => api.patch<Kitchen>('/api/kitchen', patch),
    onSuccess: (kitchen) => queryClient.setQueryData(ownKitchenKey(kitchen.uid), kitchen),
  });
}
