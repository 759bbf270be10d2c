// The server's side of known-availability.ts, kept out of the browser's bundle.
import { availabilityWindow, type AvailabilityWindow } from '../../shared/opening-hours-rules.js';
import { computingWith } from './known-availability.js';

/** `render`, and the availability windows its components computed (once per kitchen clock): the page carries them. */
export function collectAvailability<T>(render: () => T): [T, AvailabilityWindow[]] {
  const windows = new Map<string, AvailabilityWindow>();
  const result = computingWith((kitchen, now) => {
    const window = availabilityWindow(kitchen, new Date(now));
    windows.set(window.clock, window);
    return window.state;
  }, render);
  return [result, [...windows.values()]];
}
