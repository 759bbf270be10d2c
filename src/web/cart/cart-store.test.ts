import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItem } from '../../shared/menu.js';
import { CartStore } from './cart-store.js';

/** localStorage as two tabs of one site share it: one map; a write fires `storage` in the other tabs only. */
class SharedStorage {
  private readonly data = new Map<string, string>();
  readonly tabs: EventTarget[] = [];
  tab(window: EventTarget): Storage {
    this.tabs.push(window);
    const set = (key: string, value: string | null) => {
      if (value === null) this.data.delete(key);
      else this.data.set(key, value);
      for (const other of this.tabs)
        if (other !== window)
          other.dispatchEvent(Object.assign(new Event('storage'), { key, newValue: value }));
    };
    return {
      getItem: (key: string) => this.data.get(key) ?? null,
      setItem: (key: string, value: string) => set(key, value),
      removeItem: (key: string) => set(key, null),
    } as Storage;
  }
}

const dish = (id: string, item: string, priceCents: number): MenuItem =>
  ({ id, item, priceCents, wait: '20 min', imageLink: '', image: null }) as unknown as MenuItem;
const dal = dish('d1', 'Dal', 950);
const rice = dish('d2', 'Rice', 300);
const asha = { uid: 'k1', name: "Asha's Tiffin" };

describe('the cart store', () => {
  let shared: SharedStorage;
  beforeEach(() => {
    shared = new SharedStorage();
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A tab: its window (for the storage event) and its store. */
  const openTab = () => {
    const window = new EventTarget();
    const storage = shared.tab(window);
    vi.stubGlobal('window', window);
    const store = new CartStore(() => storage);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().count));
    return { store, seen };
  };

  it('takes adds made before anything has read or rendered it, and keeps them', () => {
    const storage = shared.tab(new EventTarget());
    const early = new CartStore(() => storage);
    early.add(asha, dal); // a tap replayed before the page's first effects
    early.add(asha, rice);
    // The page then renders it: the same cart, and after a reload too.
    expect(early.getSnapshot()).toMatchObject({ count: 2, kitchen: asha });
    const reloaded = new CartStore(() => storage);
    expect(reloaded.getSnapshot().lines.map((l) => l.item)).toEqual(['Dal', 'Rice']);
    // A server-rendered page hydrates with the empty cart.
    expect(reloaded.getServerSnapshot().count).toBe(0);
    expect(reloaded.getSnapshot()).not.toBe(reloaded.getServerSnapshot());
  });

  it('gives an empty cart as the server rendered it, so a hydrated page has nothing to render again', () => {
    const storage = shared.tab(new EventTarget());
    const store = new CartStore(() => storage);
    expect(store.getSnapshot()).toBe(store.getServerSnapshot());
    store.add(asha, dal);
    expect(store.getSnapshot()).toMatchObject({ count: 1, kitchen: asha });
    store.removeDish('d1');
    expect(store.getSnapshot()).toBe(store.getServerSnapshot());
    expect(new CartStore(() => storage).getSnapshot()).toBe(store.getServerSnapshot());
  });

  it('is the same cart in two tabs: a change in one shows in the other', () => {
    const one = openTab();
    const two = openTab();
    one.store.add(asha, dal);
    expect(two.store.getSnapshot().lines.map((l) => l.item)).toEqual(['Dal']);
    expect(two.seen).toEqual([1]);
    two.store.clear();
    expect(one.store.getSnapshot().count).toBe(0);
    expect(one.seen).toEqual([1, 0]);
  });

  it("refreshes a stale price from the kitchen's menu, and only its own kitchen's", () => {
    const { store } = openTab();
    store.add(asha, dal);
    store.refresh('another-kitchen', [dish('d1', 'Dal', 1)]);
    expect(store.getSnapshot().lines[0]?.priceCents).toBe(950);
    const before = store.getSnapshot();
    store.refresh('k1', [dish('d1', 'Dal makhani', 1050), rice]);
    expect(store.getSnapshot().lines[0]).toMatchObject({ item: 'Dal makhani', priceCents: 1050 });
    // Nothing changed: the same snapshot (React does not render again).
    const after = store.getSnapshot();
    store.refresh('k1', [dish('d1', 'Dal makhani', 1050)]);
    expect(store.getSnapshot()).toBe(after);
    expect(after).not.toBe(before);
  });

  it("asks before a second kitchen's dish replaces the cart", () => {
    const { store } = openTab();
    store.add(asha, dal);
    store.add({ uid: 'k2', name: 'Nonna Rosa' }, rice);
    expect(store.getSnapshot()).toMatchObject({ count: 1, pending: { kitchen: { uid: 'k2' } } });
    store.answerPending(false);
    expect(store.getSnapshot()).toMatchObject({ count: 1, pending: null, kitchen: asha });
    store.add({ uid: 'k2', name: 'Nonna Rosa' }, rice);
    store.answerPending(true);
    expect(store.getSnapshot()).toMatchObject({ count: 1, kitchen: { uid: 'k2' } });
  });

  it('reads anything unreadable as an empty cart', () => {
    const storage = shared.tab(new EventTarget());
    storage.setItem('homecooked.cart.v2', '{"kitchen":{"uid":1},"lines":"no"}');
    expect(new CartStore(() => storage).getSnapshot().count).toBe(0);
  });
});
