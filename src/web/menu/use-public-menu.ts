import type { MenuList } from '../../shared/menu.js';
import { useLiveQuery } from '../live/use-live-query.js';

export const publicMenuKey = (kitchenUid: string) => ['menu', kitchenUid] as const;

/** A kitchen's menu, kept current by the server's stream. */
export function usePublicMenu(kitchenUid: string, enabled = true) {
  return useLiveQuery<MenuList>({
    queryKey: publicMenuKey(kitchenUid),
    url: `/api/kitchens/${encodeURIComponent(kitchenUid)}/menu`,
    enabled,
  });
}
