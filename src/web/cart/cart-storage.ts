/** One line of the cart: a menu item as the customer saw it (the server re-prices it on checkout). */
export interface CartLine {
  lineId: string;
  id: string;
  item: string;
  imageLink: string;
  priceCents: number;
  wait: string;
}

/** A cart holds the dishes of one kitchen. */
export interface CartState {
  kitchen: { uid: string; name: string } | null;
  lines: CartLine[];
}

// Checked by hand rather than with zod, which would weigh on the landing page's bundle.
const isText = (v: unknown): v is string => typeof v === 'string';

function isCartLine(v: unknown): v is CartLine {
  const l = v as Partial<CartLine> | null;
  return !!l && [l.lineId, l.id, l.item, l.imageLink, l.wait].every(isText) && Number.isInteger(l.priceCents);
}

function isCartState(v: unknown): v is CartState {
  const c = v as Partial<CartState> | null;
  const kitchenOk = c?.kitchen === null || (isText(c?.kitchen?.uid) && isText(c?.kitchen?.name));
  return !!c && kitchenOk && Array.isArray(c.lines) && c.lines.every(isCartLine);
}

export const EMPTY_CART: CartState = { kitchen: null, lines: [] };

/** A stored cart's text → the cart; anything unreadable is an empty cart. */
export function parseCart(text: string | null): CartState {
  if (!text) return EMPTY_CART;
  try {
    const parsed: unknown = JSON.parse(text);
    return isCartState(parsed) ? parsed : EMPTY_CART;
  } catch {
    return EMPTY_CART;
  }
}

/** A cart → the text stored for it (null: nothing to store). */
export function serializeCart(cart: CartState): string | null {
  return cart.lines.length === 0 && !cart.kitchen ? null : JSON.stringify(cart);
}

/** A random id usable without a secure context (crypto.randomUUID needs https or localhost). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
