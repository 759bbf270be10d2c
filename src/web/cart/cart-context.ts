import { createContext, useContext } from 'react';
import type { MenuItem } from '../../shared/menu.js';
import type { CartState } from './cart-storage.js';

export interface CartKitchen {
  uid: string;
  name: string;
}

export interface CartApi extends CartState {
  count: number;
  /** Adds one of `item`; from another kitchen than the cart's, first asks whether to start a new cart. */
  add(kitchen: CartKitchen, item: MenuItem): void;
  remove(lineId: string): void;
  /** Empties the cart and fills it with `items` of `kitchen` ('Order again'). */
  replace(kitchen: CartKitchen, items: readonly MenuItem[]): void;
  clear(): void;
}

export const CartContext = createContext<CartApi | null>(null);

export function useCart(): CartApi {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart needs a <CartProvider>');
  return cart;
}
