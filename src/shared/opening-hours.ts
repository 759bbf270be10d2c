import { z } from 'zod';
import { WEEKDAYS, isTimeZone, type Weekday } from './opening-hours-rules.js';
import { t } from './i18n/translator.js';

// The hours' rules (open now, next opening, the texts) are in opening-hours-rules.ts, which the first view imports
// without zod; they are exported from here too.
export * from './opening-hours-rules.js';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const TimeOfDay = z.string().regex(TIME, { error: () => t('A time is HH:MM, 00:00 to 23:59') });
/** A range's end may also be '24:00', the end of the day (00:00–24:00: open all day). */
const EndOfRange = z.union([TimeOfDay, z.literal('24:00')], {
  error: () => t('A time is HH:MM, 00:00 to 24:00'),
});
export const TimeRange = z
  .tuple([TimeOfDay, EndOfRange])
  .refine(([from, to]) => from !== to, { error: () => t('A range must not start and end at the same time') });
export type TimeRange = z.infer<typeof TimeRange>;

export const WeeklyHours = z.object(
  Object.fromEntries(
    WEEKDAYS.map((day) => [day, z.array(TimeRange).max(4, { error: () => t('At most 4 ranges a day') })]),
  ) as Record<Weekday, z.ZodArray<typeof TimeRange>>,
);
export type WeeklyHours = z.infer<typeof WeeklyHours>;

/** An IANA time zone name this runtime knows ('Europe/London', 'Asia/Kolkata'). */
export const TimeZoneName = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { error: () => t('Unknown time zone: use a name like Europe/London') });
