import { describe, expect, it } from 'vitest';
import { Translator } from './i18n/translator.js';
import { formatCents, formatMoney } from './money.js';
import { slotLabel } from './slots.js';
import {
  ALL_DAY_HOURS,
  availability,
  availabilityWindow,
  clockKey,
  dayHoursText,
  DEFAULT_HOURS,
  instantAt,
  isOpenAt,
  localTime,
  nextChange,
  nextOpening,
  WeeklyHours,
  type KitchenClock,
} from './opening-hours.js';

const closedAllWeek: WeeklyHours = { sun: [], mon: [], tue: [], wed: [], thu: [], fri: [], sat: [] };
const only = (change: Partial<WeeklyHours>): WeeklyHours => ({ ...closedAllWeek, ...change });
const at = (iso: string) => new Date(iso);
const kitchen = (change: Partial<KitchenClock> = {}): KitchenClock => ({
  hours: null,
  timeZone: 'Europe/London',
  pausedAt: null,
  pausedUntil: null,
  ...change,
});

// 2026-11-24 is a Tuesday.
describe('opening hours in the kitchen’s time zone', () => {
  it('reads the kitchen’s wall clock on both sides of UTC', () => {
    // 20:00 UTC on Tuesday is already Wednesday 01:30 in Kolkata, and still Tuesday 12:00 in Los Angeles.
    expect(localTime(at('2026-11-24T20:00:00Z'), 'Asia/Kolkata')).toEqual({
      date: '2026-11-25',
      weekday: 'wed',
      minutes: 90,
    });
    expect(localTime(at('2026-11-24T20:00:00Z'), 'America/Los_Angeles')).toEqual({
      date: '2026-11-24',
      weekday: 'tue',
      minutes: 12 * 60,
    });
    const hours = only({ tue: [['10:00', '20:15']] });
    expect(isOpenAt(hours, 'America/Los_Angeles', at('2026-11-24T20:00:00Z'))).toBe(true);
    expect(isOpenAt(hours, 'Asia/Kolkata', at('2026-11-24T20:00:00Z'))).toBe(false);
    // Kolkata's Tuesday 10:00 is 04:30 UTC.
    expect(isOpenAt(hours, 'Asia/Kolkata', at('2026-11-24T04:29:00Z'))).toBe(false);
    expect(isOpenAt(hours, 'Asia/Kolkata', at('2026-11-24T04:30:00Z'))).toBe(true);
    expect(nextOpening(hours, 'Asia/Kolkata', at('2026-11-24T20:00:00Z'))).toEqual(
      at('2026-12-01T04:30:00Z'),
    );
  });

  it('keeps a range across midnight open into the next day, and closes it at its end', () => {
    const hours = only({ fri: [['18:00', '01:00']] });
    const tz = 'Europe/Berlin'; // UTC+1 in November
    expect(isOpenAt(hours, tz, at('2026-11-27T16:59:00Z'))).toBe(false); // Fri 17:59
    expect(isOpenAt(hours, tz, at('2026-11-27T17:00:00Z'))).toBe(true); // Fri 18:00
    expect(isOpenAt(hours, tz, at('2026-11-27T23:30:00Z'))).toBe(true); // Sat 00:30
    expect(isOpenAt(hours, tz, at('2026-11-28T00:00:00Z'))).toBe(false); // Sat 01:00
    expect(nextChange(hours, tz, at('2026-11-27T23:30:00Z'))).toEqual(at('2026-11-28T00:00:00Z'));
  });

  it('counts hours on a daylight-saving change day by the wall clock', () => {
    // London moves to BST at 01:00 UTC on Sunday 2026-03-29: 10:00 local is then 09:00 UTC, not 10:00.
    const tz = 'Europe/London';
    expect(isOpenAt(DEFAULT_HOURS, tz, at('2026-03-29T08:59:00Z'))).toBe(false);
    expect(isOpenAt(DEFAULT_HOURS, tz, at('2026-03-29T09:00:00Z'))).toBe(true);
    expect(nextOpening(DEFAULT_HOURS, tz, at('2026-03-28T21:00:00Z'))).toEqual(at('2026-03-29T09:00:00Z'));
    expect(instantAt('2026-03-28', 600, tz)).toEqual(at('2026-03-28T10:00:00Z')); // the day before: GMT
    // And back in October (BST ends at 01:00 UTC on 2026-10-25): 20:15 local is 20:15 UTC again.
    expect(isOpenAt(DEFAULT_HOURS, tz, at('2026-10-25T20:14:00Z'))).toBe(true);
    expect(isOpenAt(DEFAULT_HOURS, tz, at('2026-10-25T20:15:00Z'))).toBe(false);
  });

  it('finds the next opening a week ahead when today’s only range is over', () => {
    const hours = only({ tue: [['10:00', '12:00']] });
    expect(nextOpening(hours, 'UTC', at('2026-11-24T12:30:00Z'))).toEqual(at('2026-12-01T10:00:00Z'));
    expect(availability(kitchen({ hours, timeZone: 'UTC' }), at('2026-11-24T12:30:00Z'))).toMatchObject({
      open: false,
      label: 'Closed · opens Tue 10:00 AM',
      todayHours: '10:00 AM - 12:00 PM',
    });
    expect(nextOpening(closedAllWeek, 'UTC', at('2026-11-24T12:30:00Z'))).toBeUndefined();
    expect(availability(kitchen({ hours: closedAllWeek }), at('2026-11-24T12:30:00Z')).label).toBe('Closed');
  });

  it('gives a kitchen that never set hours the spec’s: every day 10:00 AM - 8:15 PM', () => {
    const noon = availability(kitchen(), at('2026-11-24T12:00:00Z'));
    expect(noon).toEqual({
      open: true,
      paused: false,
      label: 'Open now',
      opensAt: null,
      todayHours: '10:00 AM - 8:15 PM',
    });
    expect(availability(kitchen(), at('2026-11-24T21:00:00Z')).label).toBe('Closed · opens Wed 10:00 AM');
  });

  it('shows a paused kitchen as closed until its pause ends', () => {
    const paused = kitchen({ pausedAt: '2026-11-24T11:00:00Z', pausedUntil: '2026-11-24T13:00:00Z' });
    expect(availability(paused, at('2026-11-24T12:00:00Z'))).toMatchObject({
      open: false,
      paused: true,
      label: 'Closed',
    });
    expect(availability(paused, at('2026-11-24T13:00:00Z'))).toMatchObject({ open: true, paused: false });
    const indefinitely = kitchen({ pausedAt: '2026-11-24T11:00:00Z' });
    expect(availability(indefinitely, at('2026-11-30T12:00:00Z')).paused).toBe(true);
  });

  it('refuses malformed hours', () => {
    expect(WeeklyHours.safeParse({ ...closedAllWeek, mon: [['25:00', '26:00']] }).success).toBe(false);
    expect(WeeklyHours.safeParse({ ...closedAllWeek, mon: [['10:00', '10:00']] }).success).toBe(false);
    expect(WeeklyHours.safeParse({ ...closedAllWeek, mon: [['18:00', '01:00']] }).success).toBe(true);
    expect(WeeklyHours.safeParse({ ...closedAllWeek, mon: [['24:00', '10:00']] }).success).toBe(false);
  });

  it('keeps a kitchen open all day with 00:00–24:00, and says so', () => {
    expect(isOpenAt(ALL_DAY_HOURS, 'UTC', at('2026-11-24T23:59:00Z'))).toBe(true);
    expect(isOpenAt(ALL_DAY_HOURS, 'UTC', at('2026-11-25T00:00:00Z'))).toBe(true);
    expect(availability(kitchen({ hours: ALL_DAY_HOURS }), at('2026-11-24T03:00:00Z')).todayHours).toBe(
      'Open 24 hours',
    );
  });
});

describe('hours, slots and money in another language', () => {
  const french = new Translator({ locale: 'fr', messages: {}, currency: 'USD' });
  const english = new Translator({ locale: 'en', messages: {}, currency: 'USD' });

  it("writes times and days as the language does, and English as the spec does ('8:15 PM', not Intl's spacing)", () => {
    expect(dayHoursText([['10:00', '20:15']], english)).toBe('10:00 AM - 8:15 PM');
    expect(dayHoursText([['10:00', '20:15']], french)).toBe('10:00 - 20:15');
    const slot = { start: '2026-11-28T17:00:00Z', end: '2026-11-28T17:30:00Z' };
    const now = new Date('2026-11-26T10:00:00Z');
    expect(slotLabel(slot, 'Europe/Paris', now, english)).toBe('Sat 28 Nov 6:00–6:30 PM');
    expect(slotLabel(slot, 'Europe/Paris', now, french)).toMatch(/^sam\. 28 nov\. 18:00\s?–\s?18:30$/);
  });

  it("formats money in the current language: '$10000.00' in the spec's English, Intl's elsewhere", () => {
    expect(formatCents(1_000_000, english)).toBe('$10000.00');
    expect(formatCents(-299, english)).toBe('-$2.99');
    expect(formatCents(1_000_000, french)).toMatch(/^10\s000,00\s\$US$/);
    expect(formatMoney(300, 'JPY', english)).toBe('¥300');
  });
});

describe('how long a computed availability holds (what a server-rendered page carries)', () => {
  /** The state every quarter hour from the window's start to just before its end, and just after it. */
  const sample = (clock: KitchenClock, from: Date) => {
    const window = availabilityWindow(clock, from);
    const inside: string[] = [];
    for (let t = window.from; t < window.until; t += 15 * 60_000)
      inside.push(JSON.stringify(availability(clock, new Date(t))));
    inside.push(JSON.stringify(availability(clock, new Date(window.until - 1))));
    return { window, inside: new Set(inside), after: availability(clock, new Date(window.until)) };
  };

  it('holds until the kitchen next closes, and no longer', () => {
    // Tuesday 12:00 in London, open 10:00 AM - 8:15 PM.
    const { window, inside, after } = sample(kitchen(), at('2026-11-24T12:00:00Z'));
    expect(window.clock).toBe(clockKey(kitchen()));
    expect(window.state.open).toBe(true);
    expect(new Date(window.until).toISOString()).toBe('2026-11-24T20:15:00.000Z');
    expect(inside).toEqual(new Set([JSON.stringify(window.state)]));
    expect(after.open).toBe(false);
  });

  it("ends at the kitchen's midnight, when today's hours change, though it stays closed", () => {
    // Closed Tuesday evening in Kolkata (UTC+5:30), opening Thursday only: 'Closed · opens Thu …' all the way, but
    // Wednesday's hours are another day's.
    const clock = kitchen({
      timeZone: 'Asia/Kolkata',
      hours: only({ tue: [['09:00', '10:00']], thu: [['09:00', '10:00']] }),
    });
    const { window, inside, after } = sample(clock, at('2026-11-24T12:00:00Z'));
    expect(window.state.open).toBe(false);
    expect(new Date(window.until).toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(inside.size).toBe(1);
    expect(after.todayHours).toBe('Closed today');
    expect(window.state.todayHours).toBe('9:00 AM - 10:00 AM');
  });

  it('ends when a pause does', () => {
    const clock = kitchen({ pausedAt: '2026-11-24T11:00:00Z', pausedUntil: '2026-11-24T13:00:00Z' });
    const { window, inside, after } = sample(clock, at('2026-11-24T12:00:00Z'));
    expect(window.state.paused).toBe(true);
    expect(new Date(window.until).toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(inside.size).toBe(1);
    expect(after).toMatchObject({ open: true, paused: false });
  });

  it('holds across a daylight-saving change by the wall clock', () => {
    // London's clocks go back at 02:00 BST on Sunday 25 October 2026; open 18:00–03:00 on Saturday.
    const clock = kitchen({ hours: only({ sat: [['18:00', '03:00']] }) });
    const { window, inside, after } = sample(clock, at('2026-10-24T22:00:00Z'));
    expect(window.state.open).toBe(true);
    // Midnight comes first (today's hours change), then 03:00 GMT.
    expect(new Date(window.until).toISOString()).toBe('2026-10-24T23:00:00.000Z');
    expect(inside.size).toBe(1);
    expect(after.open).toBe(true);
    expect(new Date(availabilityWindow(clock, new Date(window.until)).until).toISOString()).toBe(
      '2026-10-25T03:00:00.000Z',
    );
  });

  it('names what it was computed from in a short key: another clock is another key', () => {
    expect(clockKey(kitchen())).toMatch(/^[0-9a-z]{8,14}$/);
    expect(clockKey(kitchen())).toBe(clockKey({ ...kitchen() }));
    // Every hour of every day a kitchen could open from: no two of these 168 clocks share a key.
    const keys = new Set<string>();
    for (let hour = 0; hour < 24; hour++)
      for (const day of ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const)
        keys.add(
          clockKey(kitchen({ hours: only({ [day]: [[`${String(hour).padStart(2, '0')}:00`, '23:00']] }) })),
        );
    expect(keys.size).toBe(168);
    expect(clockKey(kitchen())).not.toBe(clockKey(kitchen({ timeZone: 'Asia/Kolkata' })));
    expect(clockKey(kitchen())).not.toBe(clockKey(kitchen({ pausedAt: '2026-11-24T11:00:00Z' })));
    expect(clockKey(kitchen())).not.toBe(clockKey(kitchen({ hours: ALL_DAY_HOURS })));
  });
});
