import type { InsightsRange } from '../../shared/insights.js';
import { t, translator } from '../i18n.js';

/** A day of the calendar, short: 'Nov 3'. */
export const shortDay = (day: string) =>
  translator()
    .dateFormat({ month: 'short', day: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${day}T12:00:00Z`));

/** A bar's name: its day, or 'Week of Nov 3'. */
export const barName = (range: Pick<InsightsRange, 'bucket'>, period: string) =>
  range.bucket === 'day' ? shortDay(period) : t('Week of {day}', { day: shortDay(period) });

/** Weekday 1 (Monday) … 7 (Sunday), short, in the reader's language. */
export const weekdayName = (weekday: number) =>
  translator()
    .dateFormat({ weekday: 'short', timeZone: 'UTC' })
    // 1 January 2024 was a Monday.
    .format(new Date(Date.UTC(2024, 0, weekday, 12)));

/** An hour of the clock: '09:00'. */
export const hourName = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export const moneyOf = (currency: string) => (minor: number) => translator().money(minor, currency);

/** A share as a percentage: '42%'. */
export const percent = (part: number, whole: number) =>
  whole > 0
    ? translator()
        .numberFormat({ style: 'percent', maximumFractionDigits: 0 })
        .format(part / whole)
    : '—';

/** Minutes, one decimal: '12.5 min'; a dash without any. */
export const minutesText = (minutes: number | null) =>
  minutes === null
    ? '—'
    : t('{minutes} min', {
        minutes: translator().numberFormat({ maximumFractionDigits: 1 }).format(minutes),
      });
