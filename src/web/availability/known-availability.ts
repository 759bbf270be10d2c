// What a server-rendered page already computed of its kitchens' availability ('Open now', today's hours), and until
// when each holds: read here instead of computed again as the page hydrates and right after. Computing it needs the
// browser's time-zone data (`Intl.DateTimeFormat`), whose first use costs a slow phone about 30 ms of its main
// thread (issue 32); a window that has run out is computed as before.
import {
  availability,
  clockKey,
  type Availability,
  type AvailabilityWindow,
  type KitchenClock,
} from '../../shared/opening-hours-rules.js';

const known = new Map<string, AvailabilityWindow>();

/** How availability is computed when no window holds it: replaced while the server renders a page. */
let compute = (kitchen: KitchenClock, now: number): Availability => availability(kitchen, new Date(now));

/** The windows a server-rendered page carries (main.tsx, before it hydrates). */
export function rememberAvailability(windows: readonly AvailabilityWindow[]): void {
  for (const window of windows) known.set(window.clock, window);
}

/** The kitchen's availability at `now` if a window the page carries holds it. */
export function knownAvailability(kitchen: KitchenClock, now: number): AvailabilityWindow | undefined {
  const window = known.get(clockKey(kitchen));
  return window && window.from <= now && now < window.until ? window : undefined;
}

/** The kitchen's availability at `now`: as the page already knows it, else computed. */
export const availabilityAt = (kitchen: KitchenClock, now: number): Availability =>
  knownAvailability(kitchen, now)?.state ?? compute(kitchen, now);

/** For the server's renderer (collect-availability.ts): runs `render` computing availability with `during`. */
export function computingWith<T>(during: typeof compute, render: () => T): T {
  const before = compute;
  compute = during;
  try {
    return render();
  } finally {
    compute = before;
  }
}
