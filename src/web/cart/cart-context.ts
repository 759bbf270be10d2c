import { useMemo, useSyncExternalStore } from 'react';
import type { MenuItem } from '../../shared/menu.js';
import { cartStore, type CartKitchen, type CartSnapshot } from './cart-store.js';

export type { CartKitchen };

export interface CartApi extends CartSnapshot {
  /** Adds one of `item`; from another kitchen than the cart's, first asks whether to start a new cart. */
  add(kitchen: CartKitchen, item: MenuItem): void;
  remove(lineId: string): void;
  /** The quantity stepper: one more, one fewer (none left: the dish leaves the cart), or none of a dish. */
  addOneMore(dishId: string): void;
  removeOne(dishId: string): void;
  removeDish(dishId: string): void;
  /** Empties the cart and fills it with `items` of `kitchen` ('Order again'). */
  replace(kitchen: CartKitchen, items: readonly MenuItem[]): void;
  clear(): void;
}

const actions = {
  add: (kitchen: CartKitchen, item: MenuItem) => cartStore.add(kitchen, item),
  remove: (lineId: string) => cartStore.remove(lineId),
  addOneMore: (dishId: string) => cartStore.addOneMore(dishId),
  removeOne: (dishId: string) => cartStore.removeOne(dishId),
  removeDish: (dishId: string) => cartStore.removeDish(dishId),
  replace: (kitchen: CartKitchen, items: readonly MenuItem[]) => cartStore.replace(kitchen, items),
  clear: () => cartStore.clear(),
};

/** The cart (cart-store.ts), as it is now, and what changes it. */
export function useCart(): CartApi {
  const snapshot = useSyncExternalStore(
    cartStore.subscribe,
    cartStore.getSnapshot,
    cartStore.getServerSnapshot,
  );
  return useMemo(() => ({ ...snapshot, ...actions }), [snapshot]);
}
