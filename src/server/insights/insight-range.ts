import type { InsightsQuery, InsightsRange } from '../../shared/insights.js';
import { localTime } from '../../shared/opening-hours.js';

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

/** The first day of `day`'s month. */
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * Days `from`..`to` cut into the whole months inside them (`months`: their first days, from `months[0]` up to but not
 * including `months[1]`) and the days at either edge outside a whole month (`days`, each span both ends counted):
 * what a rollup per month and one per day add up to over the period.
 */
export function monthSpans(
  from: string,
  to: string,
): { months: [string, string] | null; days: [string, string][] } {
  const firstWhole = from.endsWith('-01') ? from : monthOf(addDays(monthOf(from), 31));
  const afterLast = monthOf(addDays(to, 1));
  if (firstWhole >= afterLast) return { months: null, days: [[from, to]] };
  const days: [string, string][] = [];
  if (from < firstWhole) days.push([from, addDays(firstWhole, -1)]);
  if (afterLast <= to) days.push([afterLast, to]);
  return { months: [firstWhole, afterLast], days };
}
