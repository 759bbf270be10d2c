import { useEffect, useState } from 'react';
import { nextChange, DEFAULT_HOURS, type Availability } from '../../shared/opening-hours-rules.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { initialNow, isRenderingFromServer } from '../ssr/render-instant.js';
import { availabilityAt, knownAvailability } from './known-availability.js';

/** Re-checks at least this often (a pause's end, a clock moved by the system). */
const RECHECK_MS = 60_000;

/**
 * Whether a kitchen is open now, from its hours in its time zone and its pause: computed here from the live
 * kitchen (or read from what its server-rendered page computed, while that holds), and computed again when it next
 * opens or closes (a timer set for that moment), so a page left open changes from 'Open now' to 'Closed' by itself.
 */
export function useAvailability(
  kitchen: Pick<Kitchen, 'hours' | 'timeZone' | 'pausedAt' | 'pausedUntil'>,
): Availability {
  const [now, setNow] = useState(initialNow);
  // While what the page computed holds, the browser's clock would show the same: nothing to render again.
  useClockAfterHydration(setNow, knownAvailability(kitchen, now));
  const state = availabilityAt(kitchen, now);
  const { hours, timeZone, pausedAt, pausedUntil } = kitchen;
  useEffect(() => {
    const held = knownAvailability({ hours, timeZone, pausedAt, pausedUntil }, now);
    const change = held ? held.until : nextChange(hours ?? DEFAULT_HOURS, timeZone, new Date(now))?.getTime();
    const candidates = [now + RECHECK_MS];
    if (change !== undefined) candidates.push(change + 500);
    if (pausedUntil) candidates.push(new Date(pausedUntil).getTime() + 500);
    const at = Math.min(...candidates.filter((t) => t > now));
    const timer = setTimeout(() => setNow(Date.now()), Math.max(1000, at - Date.now()));
    return () => clearTimeout(timer);
  }, [now, hours, timeZone, pausedAt, pausedUntil]);
  return state;
}

/**
 * The time, moved on every half minute while `on` (a list filtered by 'Open now' follows the clock). While not `on`,
 * nobody reads it: it stays as it was, and a server-rendered page is not rendered again for it once hydrated.
 */
export function useMinuteTick(on: boolean): number {
  const [now, setNow] = useState(initialNow);
  useEffect(() => {
    if (!on) return;
    // From the server's instant (a hydrated page) or an earlier one (turned on again): the browser's clock, now.
    setNow((last) => (Math.abs(Date.now() - last) >= 1000 ? Date.now() : last));
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/**
 * A component first rendered with a server-rendered page's instant (so its HTML matched) moves to the browser's
 * clock as soon as it is hydrated, unless what it shows is the same at both instants (`unchangedWithin`).
 */
function useClockAfterHydration(
  setNow: (now: number) => void,
  unchangedWithin?: { from: number; until: number },
): void {
  const [fromServer] = useState(isRenderingFromServer);
  // As of the hydration: once, whatever it becomes.
  const [within] = useState(unchangedWithin);
  useEffect(() => {
    if (!fromServer) return;
    const now = Date.now();
    if (!within || now < within.from || now >= within.until) setNow(now);
  }, [fromServer, setNow, within]);
}
