import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MenuItem, MenuItemInput, MenuItemUpdateInput, MenuList } from '../../shared/menu.js';
import { api } from '../lib/api-client.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const menuKey = (kitchenUid: string) => ['menu', kitchenUid] as const;
const menuUrl = (kitchenUid: string) => `/api/kitchens/${encodeURIComponent(kitchenUid)}/menu`;

/** The kitchen's menu, kept current by the public menu stream (the same list customers see). */
export function useOwnMenu(kitchenUid: string) {
  return useLiveQuery<MenuList>({ queryKey: menuKey(kitchenUid), url: menuUrl(kitchenUid) });
}

function useMenuMutation<V, R>(kitchenUid: string, mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: menuKey(kitchenUid) }),
  });
}

export function useAddMenuItem(kitchenUid: string) {
  return useMenuMutation(kitchenUid, (input: MenuItemInput) =>
    api.post<MenuItem>('/api/kitchen/menu', input),
  );
}

export function useEditMenuItem(kitchenUid: string) {
  return useMenuMutation(kitchenUid, ({ id, patch }: { id: string; patch: MenuItemUpdateInput }) =>
    api.patch<MenuItem>(`/api/kitchen/menu/${encodeURIComponent(id)}`, patch),
  );
}

export function useRemoveMenuItem(kitchenUid: string) {
  return useMenuMutation(kitchenUid, (id: string) =>
    api.delete<void>(`/api/kitchen/menu/${encodeURIComponent(id)}`),
  );
}
