import {
  DEFAULT_HOURS,
  WEEKDAYS,
  formatClock,
  formatsAsSpec,
  instantAt,
  localTime,
  shortWeekday,
  type WeeklyHours,
} from './opening-hours.js';
import { translator, type Translator } from './i18n/translator.js';
import type { OrderingSettings, Slot } from './ordering.js';

/** What slot generation needs to know of a kitchen. */
export interface SlotKitchen {
  hours: WeeklyHours | null;
  timeZone: string;
  ordering: Pick<
    OrderingSettings,
    'slotMinutes' | 'priorNoticeMinutes' | 'daysAhead' | 'sameDayCutoff' | 'ordersPerSlot'
  >;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const addDays = (date: string, days: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const weekdayOf = (date: string) => WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;

/**
 * The kitchen's slots from `now` on, in time order: slots of its length laid end to end from the start of each
 * opening range (in real time, so that a day when the clocks change has the slots it really has), each wholly inside
 * the range, starting at least its prior notice after `now`, on its local days from today to today + days ahead;
 * none today once the same-day cut-off has passed. `taken` counts each slot's orders (by its start, ISO): a slot
 * at its cap is listed, but not available. Empty when the kitchen takes no orders for later.
 */
export function kitchenSlots(
  kitchen: SlotKitchen,
  now: Date,
  taken: ReadonlyMap<string, number> = new Map(),
): Slot[] {
  const { slotMinutes, priorNoticeMinutes, daysAhead, sameDayCutoff, ordersPerSlot } = kitchen.ordering;
  if (slotMinutes === null) return [];
  const { timeZone } = kitchen;
  const hours = kitchen.hours ?? DEFAULT_HOURS;
  const local = localTime(now, timeZone);
  const today = local.date;
  const lastDay = addDays(today, daysAhead);
  const cutOff = sameDayCutoff !== null && local.minutes >= minutesOf(sameDayCutoff);
  const earliest = now.getTime() + priorNoticeMinutes * 60_000;
  const length = slotMinutes * 60_000;
  const byStart = new Map<number, Slot>();
  // From yesterday: a range across midnight has slots today.
  for (let day = -1; day <= daysAhead; day++) {
    const date = addDays(today, day);
    for (const [from, to] of hours[weekdayOf(date)]) {
      const startMinutes = minutesOf(from);
      const endMinutes = minutesOf(to);
      const rangeStart = instantAt(date, startMinutes, timeZone).getTime();
      const rangeEnd = instantAt(
        endMinutes > startMinutes ? date : addDays(date, 1),
        endMinutes,
        timeZone,
      ).getTime();
      // A slot's local day: the range's, or the next one's from its midnight on (a range across midnight).
      const nextDay = addDays(date, 1);
      const midnight = endMinutes > startMinutes ? Infinity : instantAt(nextDay, 0, timeZone).getTime();
      for (let start = rangeStart; start + length <= rangeEnd; start += length) {
        if (start < earliest || byStart.has(start)) continue;
        const slotDate = start < midnight ? date : nextDay;
        if (slotDate < today || slotDate > lastDay || (cutOff && slotDate === today)) continue;
        const startIso = new Date(start).toISOString();
        const count = taken.get(startIso) ?? 0;
        byStart.set(start, {
          start: startIso,
          end: new Date(start + length).toISOString(),
          date: slotDate,
          left: ordersPerSlot === null ? null : Math.max(0, ordersPerSlot - count),
          available: ordersPerSlot === null || count < ordersPerSlot,
        });
      }
    }
  }
  return [...byStart.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}

/**
 * The first moment after `now` at which `kitchenSlots(kitchen, now, taken)` may list other slots, bookings aside:
 * the first listed slot's prior notice running out, today's same-day cut-off, or the next local midnight (a new day
 * comes within the days ahead, and today's slots go), whichever is first. Until then an answer computed at `now`
 * stays true unless the kitchen or its bookings change.
 */
export function slotsChangeAt(kitchen: SlotKitchen, now: Date, slots: readonly Slot[]): number {
  const { slotMinutes, priorNoticeMinutes, sameDayCutoff } = kitchen.ordering;
  if (slotMinutes === null) return Infinity;
  const { timeZone } = kitchen;
  const local = localTime(now, timeZone);
  let at = instantAt(addDays(local.date, 1), 0, timeZone).getTime();
  const first = slots[0];
  // A slot is listed while it starts at least the prior notice after now: it goes 1 ms past that.
  if (first) at = Math.min(at, Date.parse(first.start) - priorNoticeMinutes * 60_000 + 1);
  if (sameDayCutoff !== null && local.minutes < minutesOf(sameDayCutoff))
    at = Math.min(at, instantAt(local.date, minutesOf(sameDayCutoff), timeZone).getTime());
  return at;
}

/** The slot of the kitchen starting at `start` (any ISO spelling of that instant) that may be chosen now, if any. */
export function findSlot(kitchen: SlotKitchen, now: Date, start: string): Slot | undefined {
  const at = Date.parse(start);
  return kitchenSlots(kitchen, now).find((slot) => Date.parse(slot.start) === at);
}

/** '6:00–6:30 PM', or '11:30 AM–12:00 PM' across noon, in `timeZone`. */
export function slotTimes(
  slot: { start: string; end: string },
  timeZone: string,
  tr: Translator = translator(),
): string {
  if (!formatsAsSpec(tr))
    return tr
      .dateFormat({ hour: 'numeric', minute: '2-digit', timeZone })
      .formatRange(new Date(slot.start), new Date(slot.end));
  const from = formatClock(localTime(new Date(slot.start), timeZone).minutes, tr);
  const to = formatClock(localTime(new Date(slot.end), timeZone).minutes, tr);
  const sameHalf = from.slice(-2) === to.slice(-2);
  return `${sameHalf ? from.slice(0, -3) : from}–${to}`;
}

/** 'Today', 'Tomorrow' or 'Fri 27 Nov': the local day of `at` in `timeZone`, seen on `now`'s day there. */
export function dayName(at: Date, timeZone: string, now: Date, tr: Translator = translator()): string {
  const date = localTime(at, timeZone);
  const today = localTime(now, timeZone).date;
  if (date.date === today) return tr.t('Today');
  if (date.date === addDays(today, 1)) return tr.t('Tomorrow');
  const [year, month, day] = date.date.split('-').map(Number) as [number, number, number];
  if (!formatsAsSpec(tr))
    return tr
      .dateFormat({ weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
      .format(Date.UTC(year, month - 1, day, 12));
  const monthName = tr.dateFormat({ month: 'short', timeZone: 'UTC' }).format(Date.UTC(2000, month - 1, 1));
  return `${shortWeekday(date.weekday, tr)} ${day} ${monthName}`;
}

/** 'Today 6:00–6:30 PM': a slot in the kitchen's time. */
export function slotLabel(
  slot: { start: string; end: string },
  timeZone: string,
  now: Date,
  tr: Translator = translator(),
): string {
  // translators: a time slot: its day ('Today', 'Fri 27 Nov') and its times ('6:00–6:30 PM')
  return tr.t('{day} {times}', {
    day: dayName(new Date(slot.start), timeZone, now, tr),
    times: slotTimes(slot, timeZone, tr),
  });
}

/**
 * The slot in the viewer's time when it differs from the kitchen's ('Today 7:30–8:00 AM your time'), else
 * undefined.
 */
export function slotInViewerTime(
  slot: { start: string; end: string },
  kitchenTimeZone: string,
  viewerTimeZone: string,
  now: Date,
  tr: Translator = translator(),
): string | undefined {
  const at = new Date(slot.start);
  const same =
    localTime(at, kitchenTimeZone).minutes === localTime(at, viewerTimeZone).minutes &&
    localTime(at, kitchenTimeZone).date === localTime(at, viewerTimeZone).date;
  return same ? undefined : tr.t('{slot} your time', { slot: slotLabel(slot, viewerTimeZone, now, tr) });
}

/** How long the card hold of a payment lasts at the provider (7 days), less a day to spare. */
export const HOLD_DAYS = 6;

/**
 * Until when the kitchen may answer a pre-order placed at `now`: until its slot's prior notice begins, but at least
 * `minimumMinutes` (a slot chosen at the very edge of its notice still gets an answer), never after the slot starts,
 * and never after the card hold would run out.
 */
export function answerBy(
  slotStart: Date,
  priorNoticeMinutes: number,
  now: Date,
  minimumMinutes: number,
): Date {
  const noticeBegins = slotStart.getTime() - priorNoticeMinutes * 60_000;
  const earliest = now.getTime() + minimumMinutes * 60_000;
  const latest = Math.min(slotStart.getTime(), now.getTime() + HOLD_DAYS * 24 * 60 * 60_000);
  return new Date(Math.min(Math.max(noticeBegins, earliest), latest));
}
