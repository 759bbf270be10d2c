// The rules of opening hours without their schemas (which are in opening-hours.ts): what the first view needs to
// say whether a kitchen is open, without zod (issue 32).
import { msg, translator, type Translator } from './i18n/translator.js';
import type { TimeRange, WeeklyHours } from './opening-hours.js';

/**
 * A kitchen's weekly opening hours, in its own time zone: per weekday, closed (no ranges) or one or more ranges of
 * "HH:MM" local times. A range whose end is not after its start crosses midnight (18:00–01:00 ends at 1 AM the
 * next day). A kitchen that never set hours keeps the spec's: every day 10:00–20:15.
 */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  sun: msg('Sunday'),
  mon: msg('Monday'),
  tue: msg('Tuesday'),
  wed: msg('Wednesday'),
  thu: msg('Thursday'),
  fri: msg('Friday'),
  sat: msg('Saturday'),
};

/**
 * Whether `tr` formats times and days as the spec's English does, by hand ('8:15 PM', 'Tue'): `Intl` would put a
 * narrow no-break space before 'PM'. Other languages format with `Intl`.
 */
export const formatsAsSpec = (tr: Translator): boolean => tr.intl === 'en-US';

/** A weekday's short name: 'Tue' in English, as `Intl` abbreviates it in other languages. */
export function shortWeekday(day: Weekday, tr: Translator = translator()): string {
  if (formatsAsSpec(tr)) return WEEKDAY_NAMES[day].slice(0, 3);
  // 1 January 2023 was a Sunday.
  const at = new Date(Date.UTC(2023, 0, 1 + WEEKDAYS.indexOf(day), 12));
  return tr.dateFormat({ weekday: 'short', timeZone: 'UTC' }).format(at);
}

/** Open around the clock, every day. */
export const ALL_DAY_HOURS: WeeklyHours = Object.fromEntries(
  WEEKDAYS.map((day) => [day, [['00:00', '24:00']]]),
) as WeeklyHours;

/** The spec's hours, for a kitchen that never set its own: every day 10:00 AM - 8:15 PM. */
export const DEFAULT_HOURS: WeeklyHours = Object.fromEntries(
  WEEKDAYS.map((day) => [day, [['10:00', '20:15']]]),
) as WeeklyHours;

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** A moment as the kitchen's wall clock shows it. */
export interface LocalTime {
  /** The local calendar date, 'YYYY-MM-DD' (the kitchen's "today"). */
  date: string;
  weekday: Weekday;
  /** Minutes since local midnight. */
  minutes: number;
}

export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const weekday = (parts.weekday ?? 'Sun').toLowerCase().slice(0, 3) as Weekday;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** The instant at which the kitchen's wall clock shows `date` (YYYY-MM-DD) at `minutes` past midnight. */
export function instantAt(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, Math.floor(minutes / 60), minutes % 60);
  // The wall time read with the zone's offsets a day either side (one clock change between them at most). Shown
  // twice (the clocks went back): the first. Never shown (they went forward): as far past the change as it is
  // past the skipped hour's start (02:30 that never was is 03:30), as with the offset before the change.
  const before = wall - offsetMs(new Date(wall - 86_400_000), timeZone);
  const after = wall - offsetMs(new Date(wall + 86_400_000), timeZone);
  if (before === after) return new Date(before);
  const shown = [before, after].filter((at) => at + offsetMs(new Date(at), timeZone) === wall);
  return new Date(shown.length > 0 ? Math.min(...shown) : before);
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function offsetMs(instant: Date, timeZone: string): number {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return asUtc - (instant.getTime() - instant.getUTCMilliseconds());
}

const addDays = (date: string, days: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const weekdayOf = (date: string) => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;

/** Whether the hours have the kitchen open at `instant` (ranges across midnight count on both days). */
export function isOpenAt(hours: WeeklyHours, timeZone: string, instant: Date): boolean {
  const now = localTime(instant, timeZone);
  const yesterday = weekdayOf(addDays(now.date, -1));
  const inToday = hours[now.weekday].some(([from, to]) => {
    const start = minutesOf(from);
    const end = minutesOf(to);
    return end > start ? now.minutes >= start && now.minutes < end : now.minutes >= start;
  });
  const fromYesterday = hours[yesterday].some(([from, to]) => {
    const end = minutesOf(to);
    return end <= minutesOf(from) && now.minutes < end;
  });
  return inToday || fromYesterday;
}

/** The next instant (after `instant`) at which a range starts, within the coming week; undefined if never. */
export function nextOpening(hours: WeeklyHours, timeZone: string, instant: Date): Date | undefined {
  const today = localTime(instant, timeZone).date;
  for (let days = 0; days <= 7; days++) {
    const date = addDays(today, days);
    const starts = hours[weekdayOf(date)]
      .map(([from]) => instantAt(date, minutesOf(from), timeZone))
      .filter((at) => at.getTime() > instant.getTime())
      .sort((a, b) => a.getTime() - b.getTime());
    if (starts[0]) return starts[0];
  }
  return undefined;
}

/** The next instant after `instant` at which the kitchen opens or closes (for a timer); undefined if never. */
export function nextChange(hours: WeeklyHours, timeZone: string, instant: Date): Date | undefined {
  const today = localTime(instant, timeZone).date;
  let best: Date | undefined;
  for (let days = -1; days <= 7 && !best; days++) {
    const date = addDays(today, days);
    for (const [from, to] of hours[weekdayOf(date)]) {
      const start = minutesOf(from);
      const end = minutesOf(to);
      const endDate = end > start ? date : addDays(date, 1);
      for (const at of [instantAt(date, start, timeZone), instantAt(endDate, end, timeZone)])
        if (at.getTime() > instant.getTime() && (!best || at < best)) best = at;
    }
  }
  return best;
}

/** '8:15 PM' (a time of day, as `tr`'s language writes it). */
export function formatClock(minutes: number, tr: Translator = translator()): string {
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  if (!formatsAsSpec(tr))
    return tr
      .dateFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
      .format(Date.UTC(2000, 0, 1, h, m));
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** One day's hours as the menu shows them: '10:00 AM - 8:15 PM', several joined with ', ', or 'Closed today'. */
export function dayHoursText(ranges: readonly TimeRange[], tr: Translator = translator()): string {
  if (ranges.length === 0) return tr.t('Closed today');
  if (ranges.some(([from, to]) => from === '00:00' && to === '24:00')) return tr.t('Open 24 hours');
  return ranges
    .map(([from, to]) =>
      // translators: one range of opening hours ('10:00 AM - 8:15 PM'); several are joined with ', '
      tr.t('{from} - {to}', { from: formatClock(minutesOf(from), tr), to: formatClock(minutesOf(to), tr) }),
    )
    .join(tr.t(', '));
}

/** 'Tue 10:00 AM', in the kitchen's time zone. */
export function formatOpening(at: Date, timeZone: string, tr: Translator = translator()): string {
  const local = localTime(at, timeZone);
  // translators: when a kitchen opens next: a short weekday and a time ('Tue 10:00 AM')
  return tr.t('{weekday} {time}', {
    weekday: shortWeekday(local.weekday, tr),
    time: formatClock(local.minutes, tr),
  });
}

/** Whether a kitchen takes orders, and what to say about it. */
export interface Availability {
  open: boolean;
  /** Paused by the cook (shown as closed, with 'Not taking orders right now'). */
  paused: boolean;
  /** 'Open now', 'Closed · opens Tue 10:00 AM', or 'Closed'. */
  label: string;
  /** When it next opens (ISO), if it does within a week and is not paused. */
  opensAt: string | null;
  /** Today's hours as text ('10:00 AM - 8:15 PM'). */
  todayHours: string;
}

export interface KitchenClock {
  hours: WeeklyHours | null;
  timeZone: string;
  /** Pausing: since when (null = not paused), and until when (null = until the cook resumes). */
  pausedAt: string | null;
  pausedUntil: string | null;
}

export function isPaused(kitchen: Pick<KitchenClock, 'pausedAt' | 'pausedUntil'>, instant: Date): boolean {
  if (kitchen.pausedAt === null) return false;
  return kitchen.pausedUntil === null || new Date(kitchen.pausedUntil).getTime() > instant.getTime();
}

export function availability(
  kitchen: KitchenClock,
  instant: Date,
  tr: Translator = translator(),
): Availability {
  const hours = kitchen.hours ?? DEFAULT_HOURS;
  const { timeZone } = kitchen;
  const todayHours = dayHoursText(hours[localTime(instant, timeZone).weekday], tr);
  if (isPaused(kitchen, instant))
    return { open: false, paused: true, label: tr.t('Closed'), opensAt: null, todayHours };
  if (isOpenAt(hours, timeZone, instant))
    return { open: true, paused: false, label: tr.t('Open now'), opensAt: null, todayHours };
  const next = nextOpening(hours, timeZone, instant);
  return {
    open: false,
    paused: false,
    label: next ? tr.t('Closed · opens {when}', { when: formatOpening(next, timeZone, tr) }) : tr.t('Closed'),
    opensAt: next?.toISOString() ?? null,
    todayHours,
  };
}

/**
 * A kitchen's availability as computed at one instant, and until when it holds: its next opening or closing, the
 * end of its pause, or its local midnight (today's hours change then), whichever is first.
 */
export interface AvailabilityWindow {
  /** The kitchen's clock it was computed from (`clockKey`). */
  clock: string;
  /** Milliseconds since the epoch: the instant computed at, and the first instant it no longer holds. */
  from: number;
  until: number;
  state: Availability;
}

/**
 * What a kitchen's availability is computed from, as a short key: a 64-bit hash (two FNV-1a lanes) of its hours,
 * time zone and pause, so that a page of 24 kitchens carries 24 keys of 13 characters rather than their hours.
 */
export function clockKey(kitchen: KitchenClock): string {
  const text = JSON.stringify([kitchen.hours, kitchen.timeZone, kitchen.pausedAt, kitchen.pausedUntil]);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36).padStart(7, '0');
}

export function availabilityWindow(
  kitchen: KitchenClock,
  instant: Date,
  tr: Translator = translator(),
): AvailabilityWindow {
  const { timeZone } = kitchen;
  const from = instant.getTime();
  const ends = [instantAt(addDays(localTime(instant, timeZone).date, 1), 0, timeZone).getTime()];
  const change = nextChange(kitchen.hours ?? DEFAULT_HOURS, timeZone, instant);
  if (change) ends.push(change.getTime());
  if (kitchen.pausedUntil) ends.push(new Date(kitchen.pausedUntil).getTime());
  return {
    clock: clockKey(kitchen),
    from,
    until: Math.min(...ends.filter((end) => end > from)),
    state: availability(kitchen, instant, tr),
  };
}
