/**
 * The instant a server-rendered page was rendered at, while React renders it on the server and hydrates it in the
 * browser: what depends on the clock ('Open now', the footer's year) starts from it, so both renders agree; the
 * components' own timers move on from there. Undefined otherwise (every later render reads the browser's clock).
 */
let instant: number | undefined;
/** Whether the render under way is the browser's hydration of a server-rendered page. */
let hydrating = false;

export function setRenderInstant(value: number | undefined): void {
  instant = value;
  if (value === undefined) hydrating = false;
}

/** The browser is about to hydrate a page the server rendered at `value` (cleared with the render instant). */
export function startHydration(value: number): void {
  instant = value;
  hydrating = true;
}

/** Whether this render is the browser's hydration of a server-rendered page (not a server render, not a later one). */
export function isHydrating(): boolean {
  return hydrating;
}

/** The clock for a component's first render: the page's render instant during hydration, else now. */
export function initialNow(): number {
  return instant ?? Date.now();
}

/** Whether this render is a server render or the hydration of one. */
export function isRenderingFromServer(): boolean {
  return instant !== undefined;
}
