// @vitest-environment happy-dom
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import { useCart } from './cart-context.js';
import { cartStore } from './cart-store.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const dish = (id: string, item: string, priceCents: number) =>
  ({ id, item, priceCents, wait: '20 min', imageLink: '', image: null }) as unknown as MenuItem;
const asha = { uid: 'k1', name: "Asha's Tiffin" };

/** What a cart button and a checkout show: how many dishes, and their total. */
function CartSummary() {
  const { count, lines } = useCart();
  return (
    <p>
      Cart ({count}) · {lines.reduce((sum, line) => sum + line.priceCents, 0)} cents
    </p>
  );
}

describe('the cart, as components read it', () => {
  let root: Root | undefined;
  let container: HTMLElement;
  const shown = () => container.textContent;

  beforeEach(() => {
    localStorage.clear();
    cartStore.clear();
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
  });

  /** A server-rendered page (rendered with the empty cart), hydrated here. */
  const hydrate = async () => {
    container.innerHTML = renderToString(<CartSummary />);
    expect(shown()).toBe('Cart (0) · 0 cents');
    await act(async () => {
      root = hydrateRoot(container, <CartSummary />, {
        onRecoverableError: (error) => {
          throw error;
        },
      });
    });
  };

  it('shows a dish added before the page had loaded, after hydrating without a mismatch', async () => {
    cartStore.add(asha, dish('d1', 'Dal', 950)); // a tap made again before the page's first effects
    await hydrate();
    expect(shown()).toBe('Cart (1) · 950 cents');
    act(() => cartStore.add(asha, dish('d2', 'Rice', 300)));
    expect(shown()).toBe('Cart (2) · 1250 cents');
  });

  it('shows what another tab put in the cart (the storage event)', async () => {
    await hydrate();
    // Another tab of the site writes the shared cart: this one hears it.
    const otherTab = {
      kitchen: asha,
      lines: [{ lineId: 'x', id: 'd1', item: 'Dal', imageLink: '', priceCents: 950, wait: '' }],
    };
    localStorage.setItem('homecooked.cart.v2', JSON.stringify(otherTab));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'homecooked.cart.v2' }));
    });
    expect(shown()).toBe('Cart (1) · 950 cents');
  });

  it("refreshes a stale price from the kitchen's live menu", async () => {
    cartStore.add(asha, dish('d1', 'Dal', 950));
    await hydrate();
    act(() => cartStore.refresh('k1', [dish('d1', 'Dal', 1100)]));
    expect(shown()).toBe('Cart (1) · 1100 cents');
    expect(JSON.parse(localStorage.getItem('homecooked.cart.v2') ?? '{}').lines[0].priceCents).toBe(1100);
  });
});
