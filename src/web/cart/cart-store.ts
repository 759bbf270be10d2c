import { pictureSrc } from '../../shared/image-urls.js';
import type { MenuItem } from '../../shared/menu.js';
import {
  EMPTY_CART,
  parseCart,
  randomId,
  serializeCart,
  type CartLine,
  type CartState,
} from './cart-storage.js';

export interface CartKitchen {
  uid: string;
  name: string;
}

/** A dish waiting for the customer to say whether to start a new cart (their cart holds another kitchen's). */
export interface PendingAdd {
  kitchen: CartKitchen;
  item: MenuItem;
}

export interface CartSnapshot extends CartState {
  count: number;
  pending: PendingAdd | null;
}

const STORAGE_KEY = 'homecooked.cart.v2';

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

const snapshotOf = (cart: CartState, pending: PendingAdd | null): CartSnapshot => ({
  ...cart,
  count: cart.lines.length,
  pending,
});

/**
 * The cart, outside React: one kitchen's dishes at a time, kept in localStorage (a reload keeps it, and every tab of
 * the site shows the same cart: a change in one reaches the others through the storage event). Components read it
 * with `useSyncExternalStore` (use-cart.ts), so an add made at any moment, even before the page's first effects
 * have run, lands in the one cart there is. A server-rendered page is rendered with the empty cart and hydrates with
 * it; React then renders the stored one.
 */
export class CartStore {
  private cart: CartState | undefined;
  private pending: PendingAdd | null = null;
  private snapshot: CartSnapshot | undefined;
  private readonly listeners = new Set<() => void>();
  private watching = false;

  constructor(private readonly storage: () => Storage | undefined = () => globalThis.localStorage) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.watchOtherTabs();
    return () => this.listeners.delete(listener);
  };

  /**
   * An empty cart is the server's snapshot itself: a page hydrated with it has nothing to render again (every dish's
   * '+' and the cart button would be, right after hydration, on a first visit).
   */
  readonly getSnapshot = (): CartSnapshot => (this.snapshot ??= this.fresh());

  private fresh(): CartSnapshot {
    const cart = this.current();
    if (cart.kitchen === null && cart.lines.length === 0 && this.pending === null) return SERVER_SNAPSHOT;
    return snapshotOf(cart, this.pending);
  }

  /** What the server renders, and a page hydrates with: the empty cart. */
  readonly getServerSnapshot = (): CartSnapshot => SERVER_SNAPSHOT;

  /** Adds one of `item`; from another kitchen than the cart's, first asks whether to start a new cart (`pending`). */
  add(kitchen: CartKitchen, item: MenuItem): void {
    const cart = this.current();
    if (cart.kitchen && cart.kitchen.uid !== kitchen.uid && cart.lines.length > 0) {
      this.pending = { kitchen, item };
      this.changed();
      return;
    }
    this.set(withItem(cart, kitchen, item));
  }

  /** The customer's answer to `pending`: a new cart with that dish, or the cart as it was. */
  answerPending(startNewCart: boolean): void {
    const pending = this.pending;
    this.pending = null;
    if (startNewCart && pending) this.set(withItem(EMPTY_CART, pending.kitchen, pending.item));
    else this.changed();
  }

  remove(lineId: string): void {
    this.keep((line) => line.lineId !== lineId);
  }

  /** The quantity stepper's '+': one more of a dish already in the cart. */
  addOneMore(dishId: string): void {
    const cart = this.current();
    const last = cart.lines.findLast((line) => line.id === dishId);
    if (last) this.set({ ...cart, lines: [...cart.lines, { ...last, lineId: randomId() }] });
  }

  /** The quantity stepper's '−': one fewer of a dish (the last one added); at 0 the dish leaves the cart. */
  removeOne(dishId: string): void {
    const last = this.current().lines.findLast((line) => line.id === dishId);
    if (last) this.remove(last.lineId);
  }

  /** Every one of a dish out of the cart. */
  removeDish(dishId: string): void {
    this.keep((line) => line.id !== dishId);
  }

  private keep(wanted: (line: CartLine) => boolean): void {
    const cart = this.current();
    const lines = cart.lines.filter(wanted);
    this.set(lines.length > 0 ? { ...cart, lines } : EMPTY_CART);
  }

  /** Empties the cart and fills it with `items` of `kitchen` ('Order again'). */
  replace(kitchen: CartKitchen, items: readonly MenuItem[]): void {
    this.set(items.reduce<CartState>((next, item) => withItem(next, kitchen, item), EMPTY_CART));
  }

  clear(): void {
    this.set(EMPTY_CART);
  }

  /**
   * The kitchen's menu as the server serves it now: the cart's lines of its dishes take their current name, price,
   * wait and picture (a price changed since the dish was added is the one shown, and the one the server charges).
   */
  refresh(kitchenUid: string, menu: readonly MenuItem[]): void {
    const cart = this.current();
    if (cart.kitchen?.uid !== kitchenUid) return;
    const byId = new Map(menu.map((dish) => [dish.id, dish]));
    let changed = false;
    const lines = cart.lines.map((line) => {
      const dish = byId.get(line.id);
      if (!dish) return line;
      const next = {
        ...line,
        item: dish.item,
        priceCents: dish.priceCents,
        wait: dish.wait,
        imageLink: pictureSrc(dish),
      };
      if (JSON.stringify(next) === JSON.stringify(line)) return line;
      changed = true;
      return next;
    });
    if (changed) this.set({ ...cart, lines });
  }

  private current(): CartState {
    return (this.cart ??= this.read());
  }

  private read(): CartState {
    try {
      return parseCart(this.storage()?.getItem(STORAGE_KEY) ?? null);
    } catch {
      return EMPTY_CART; // storage disabled
    }
  }

  private set(cart: CartState): void {
    this.cart = cart;
    try {
      const text = serializeCart(cart);
      if (text === null) this.storage()?.removeItem(STORAGE_KEY);
      else this.storage()?.setItem(STORAGE_KEY, text);
    } catch {
      // Storage full or disabled (private mode): the cart still lives in memory for this page.
    }
    this.changed();
  }

  private changed(): void {
    this.snapshot = undefined;
    for (const listener of this.listeners) listener();
  }

  /** Another tab changed the cart: this one shows the same. */
  private watchOtherTabs(): void {
    if (this.watching || typeof window === 'undefined') return;
    this.watching = true;
    window.addEventListener('storage', (event) => {
      if (event.key !== STORAGE_KEY && event.key !== null) return;
      this.cart = this.read();
      this.changed();
    });
  }
}

const SERVER_SNAPSHOT: CartSnapshot = snapshotOf(EMPTY_CART, null);

/** This page's cart. */
export const cartStore = new CartStore();
