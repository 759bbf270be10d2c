import { Outlet } from 'react-router';
import { CartProvider } from './cart-provider.js';

/** The root of every route: the cart is shared by the menu, the cart and the status pages. */
export function CartOutlet() {
  return (
    <CartProvider>
      <Outlet />
    </CartProvider>
  );
}
