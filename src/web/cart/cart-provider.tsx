import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { pictureSrc } from '../../shared/images.js';
import type { MenuItem } from '../../shared/menu.js';
import { CartContext, type CartApi, type CartKitchen } from './cart-context.js';
import { EMPTY_CART, loadCart, randomId, saveCart, type CartState } from './cart-storage.js';
import { isRenderingFromServer } from '../ssr/render-instant.js';
import { loadLaterStyles } from '../load-later-styles.js';

// The dialog (and Mantine's overlay machinery) loads only when a second kitchen's dish is added.
const NewCartModal = lazy(async () => {
  const styles = loadLaterStyles();
  const { NewCartModal } = await import('./new-cart-modal.js');
  await styles;
  return { default: NewCartModal };
});

function withItem(cart: CartState, kitchen: CartKitchen, item: MenuItem): CartState {
  const base = cart.kitchen?.uid === kitchen.uid ? cart : { kitchen, lines: [] };
  const { id, item: name, priceCents, wait } = item;
  // The cart keeps one small picture to show, whether the cook uploaded it or linked it.
  const imageLink = pictureSrc(item);
  return {
    kitchen,
    lines: [...base.lines, { lineId: randomId(), id, item: name, imageLink, priceCents, wait }],
  };
}

/** The cart: in memory and in sessionStorage; one kitchen's dishes at a time. */
export function CartProvider({ children }: { children: ReactNode }) {
  // A server-rendered page was rendered with an empty cart and must hydrate with one: this tab's cart is read
  // right after (a client-rendered page reads it at once).
  const [stored, setStored] = useState(() => !isRenderingFromServer());
  const [cart, setCart] = useState<CartState>(() => (stored ? loadCart() : EMPTY_CART));
  const [pending, setPending] = useState<{ kitchen: CartKitchen; item: MenuItem } | null>(null);

  useEffect(() => {
    if (stored) saveCart(cart);
    else {
      setCart(loadCart());
      setStored(true);
    }
  }, [cart, stored]);

  const add = useCallback(
    (kitchen: CartKitchen, item: MenuItem) => {
      if (cart.kitchen && cart.kitchen.uid !== kitchen.uid && cart.lines.length > 0) {
        setPending({ kitchen, item });
        return;
      }
      setCart((current) => withItem(current, kitchen, item));
    },
    [cart],
  );
  const remove = useCallback((lineId: string) => {
    setCart((current) => {
      const lines = current.lines.filter((line) => line.lineId !== lineId);
      return lines.length > 0 ? { ...current, lines } : EMPTY_CART;
    });
  }, []);
  const clear = useCallback(() => setCart(EMPTY_CART), []);
  const replace = useCallback(
    (kitchen: CartKitchen, items: readonly MenuItem[]) =>
      setCart(items.reduce((next, item) => withItem(next, kitchen, item), EMPTY_CART)),
    [],
  );

  const api = useMemo<CartApi>(
    () => ({ ...cart, count: cart.lines.length, add, remove, clear, replace }),
    [cart, add, remove, clear, replace],
  );

  return (
    <CartContext.Provider value={api}>
      {children}
      {pending && (
        <Suspense fallback={null}>
          <NewCartModal
            current={cart.kitchen?.name ?? ''}
            next={pending}
            onConfirm={() => {
              if (pending) setCart(withItem(EMPTY_CART, pending.kitchen, pending.item));
              setPending(null);
            }}
            onCancel={() => setPending(null)}
          />
        </Suspense>
      )}
    </CartContext.Provider>
  );
}
