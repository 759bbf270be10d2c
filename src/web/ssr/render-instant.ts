/**
 * The instant a server-rendered page was rendered at, while React renders it on the server and hydrates it in the
 * browser: what depends on the clock ('Open now', the footer's year) starts from it, so both renders agree; the
 * components' own timers move on from there. Undefined otherwise (every later render reads the browser's clock).
 */
let instant: number | undefined;

export function setRenderInstant(value: number | undefined): void {
  instant = value;
}

/** The clock for a component's first render: the page's render instant during hydration, else now. */
export function initialNow(): number {
  return instant ?? Date.now();
}

/** Whether this render is a server render or the hydration of one. */
export function isRenderingFromServer(): boolean {
  return instant !== undefined;
}
