import type { InsightsQuery, InsightsRange } from '../../shared/insights.js';
import { localTime } from '../../shared/opening-hours.js';
import { SPAN_EPOCH, SPAN_LEVELS } from '../data/order-figures.js';

/** A calendar day `days` after `day` (YYYY-MM-DD), or before it when negative. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/** The Monday of `day`'s week. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Longer periods are drawn a bar per week. */
const DAILY_UP_TO = 62;

/**
 * The days asked, in the calendar of `timeZone` (the kitchen's; UTC for the operator), and the period before it:
 * this week so far against the same days of last week, any other against as many days just before it.
 */
export function insightsRange(query: InsightsQuery, timeZone: string, now: Date): InsightsRange {
  const today = localTime(now, timeZone).date;
  let from: string;
  let to = today;
  switch (query.period) {
    case 'week':
      from = mondayOf(today);
      break;
    case '4weeks':
      from = addDays(today, -27);
      break;
    case '12months': {
      const [y, m] = today.split('-').map(Number) as [number, number];
      from = new Date(Date.UTC(y, m - 12, 1)).toISOString().slice(0, 10);
      break;
    }
    case 'custom':
      from = query.from ?? today;
      to = query.to ?? today;
  }
  const length = daysBetween(from, to);
  const [previousFrom, previousTo] =
    query.period === 'week'
      ? [addDays(from, -7), addDays(to, -7)]
      : [addDays(from, -length), addDays(from, -1)];
  return {
    period: query.period,
    from,
    to,
    previousFrom,
    previousTo,
    bucket: length > DAILY_UP_TO ? 'week' : 'day',
  };
}

/** The bar a day falls in: itself, or its week's Monday. */
export const bucketOf = (range: InsightsRange, day: string) => (range.bucket === 'day' ? day : mondayOf(day));

/** Every bar of the period, in order. */
export function bucketsOf(range: InsightsRange): string[] {
  const buckets: string[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const bucket = bucketOf(range, day);
    if (buckets.at(-1) !== bucket) buckets.push(bucket);
  }
  return buckets;
}

/** Where a day of the previous period is drawn: at the bar of the day as far into this one. */
export const alignedDay = (range: InsightsRange, previousDay: string) =>
  addDays(previousDay, daysBetween(range.previousFrom, range.from) - 1);

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
const dayOfNumber = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

/**
 * Days `from`..`to` cut into the fewest spans of `kitchen_span_figures` (2^level days from a start a multiple of
 * 2^level days after SPAN_EPOCH, level 1 to SPAN_LEVELS) and the days left between them (`days`, each range both ends
 * counted): what the rollup of spans and the one of days add up to over the period.
 */
export function periodSpans(
  from: string,
  to: string,
): { spans: { level: number; start: string }[]; days: [string, string][] } {
  const epoch = dayNumber(SPAN_EPOCH);
  const end = dayNumber(to);
  const spans: { level: number; start: string }[] = [];
  const days: [string, string][] = [];
  for (let day = dayNumber(from); day <= end;) {
    let level = SPAN_LEVELS;
    while (
      level > 0 &&
      ((((day - epoch) % 2 ** level) + 2 ** level) % 2 ** level !== 0 || day + 2 ** level - 1 > end)
    )
      level--;
    if (level > 0) spans.push({ level, start: dayOfNumber(day) });
    else if (days.at(-1)?.[1] === dayOfNumber(day - 1)) days[days.length - 1]![1] = dayOfNumber(day);
    else days.push([dayOfNumber(day), dayOfNumber(day)]);
    day += 2 ** level;
  }
  return { spans, days };
}
