import { describe, expect, it } from 'vitest';
import { availability, type KitchenClock } from '../../shared/opening-hours-rules.js';
import { collectAvailability } from './collect-availability.js';
import { availabilityAt, knownAvailability, rememberAvailability } from './known-availability.js';

const london: KitchenClock = { hours: null, timeZone: 'Europe/London', pausedAt: null, pausedUntil: null };
const losAngeles: KitchenClock = { ...london, timeZone: 'America/Los_Angeles' };
// Tuesday 24 November 2026, 12:00 UTC: London open until 20:15, Los Angeles closed (4 AM there).
const noon = Date.parse('2026-11-24T12:00:00Z');

describe('availability a server-rendered page already computed', () => {
  it('is collected as the server renders, once per clock, with the state the render showed', () => {
    const [shown, windows] = collectAvailability(() => [
      availabilityAt(london, noon),
      availabilityAt(losAngeles, noon),
      availabilityAt({ ...london }, noon),
    ]);
    expect(shown.map((state) => state.open)).toEqual([true, false, true]);
    expect(windows).toHaveLength(2);
    expect(windows[0]).toMatchObject({
      from: noon,
      until: Date.parse('2026-11-24T20:15:00Z'),
      state: shown[0],
    });
    // Outside a server render nothing is kept.
    availabilityAt(london, noon);
    expect(knownAvailability(london, noon)).toBeUndefined();
  });

  it('is read in the browser while it holds, and computed again once it has run out or the clock changed', () => {
    const [, windows] = collectAvailability(() => availabilityAt(london, noon));
    const held = { ...windows[0]!, state: { ...windows[0]!.state, label: 'as the page said' } };
    rememberAvailability([held]);
    expect(availabilityAt(london, noon).label).toBe('as the page said');
    expect(availabilityAt(london, held.until - 1).label).toBe('as the page said');
    // Before the render's instant (a clock behind the server's) and from its end: computed.
    expect(availabilityAt(london, noon - 1)).toEqual(availability(london, new Date(noon - 1)));
    expect(availabilityAt(london, held.until)).toEqual(availability(london, new Date(held.until)));
    expect(availabilityAt(london, held.until).open).toBe(false);
    // The kitchen paused itself meanwhile (a live update): its clock is another.
    const paused = { ...london, pausedAt: '2026-11-24T12:30:00Z' };
    expect(availabilityAt(paused, noon + 3_600_000)).toMatchObject({ open: false, paused: true });
  });
});
