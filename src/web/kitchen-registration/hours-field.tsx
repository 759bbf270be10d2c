import { Checkbox, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import {
  DEFAULT_HOURS,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type TimeRange,
  type Weekday,
  type WeeklyHours,
} from '../../shared/opening-hours.js';
import { t, translator } from '../i18n.js';

/** The browser's time zone, which a new kitchen takes (the cook registers from their own kitchen). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const TIME_ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

/** A time of day in the page's language: '8:15 PM' in English. */
const clock = (hours: number, minutes: number) =>
  translator()
    .dateFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })
    .format(new Date(Date.UTC(2000, 0, 1, hours, minutes)));

/**
 * Opening hours, per weekday: open (from – to; a 'to' before the 'from' runs past midnight) or closed. Unticking
 * 'Set my own opening hours' keeps the standard hours (10:00 AM - 8:15 PM every day). Each day edits one range.
 */
export function HoursField({
  hours,
  timeZone,
  onChange,
  onTimeZone,
  error,
}: {
  hours: WeeklyHours | null | undefined;
  timeZone: string | undefined;
  onChange: (hours: WeeklyHours | null) => void;
  onTimeZone: (timeZone: string) => void;
  error?: React.ReactNode;
}) {
  const own = hours ?? null;
  const setDay = (day: Weekday, ranges: TimeRange[]) => own && onChange({ ...own, [day]: ranges });
  return (
    <Fieldset legend={t('Opening hours')}>
      <Stack gap="xs">
        <TextInput
          label={t('Time zone')}
          description={t('Your hours are in this time zone')}
          list="time-zones"
          value={timeZone ?? ''}
          onChange={(event) => onTimeZone(event.currentTarget.value)}
          autoComplete="off"
        />
        <datalist id="time-zones">
          {TIME_ZONES.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <Checkbox
          label={t('Set my own opening hours')}
          description={t('Otherwise: every day {opens} - {closes}', {
            opens: clock(10, 0),
            closes: clock(20, 15),
          })}
          checked={own !== null}
          onChange={(event) => onChange(event.currentTarget.checked ? DEFAULT_HOURS : null)}
        />
        {own &&
          WEEKDAYS.map((day) => {
            const range = own[day][0];
            return (
              <Group key={day} gap="sm" align="flex-end" wrap="wrap">
                <Checkbox
                  w={130}
                  label={t(WEEKDAY_NAMES[day])}
                  checked={range !== undefined}
                  onChange={(event) => setDay(day, event.currentTarget.checked ? [['10:00', '20:15']] : [])}
                />
                {range ? (
                  <>
                    <TextInput
                      type="time"
                      aria-label={t('{day} opens', { day: t(WEEKDAY_NAMES[day]) })}
                      value={range[0]}
                      onChange={(event) => setDay(day, [[event.currentTarget.value, range[1]]])}
                    />
                    <Text size="sm">{t('to')}</Text>
                    <TextInput
                      type="time"
                      aria-label={t('{day} closes', { day: t(WEEKDAY_NAMES[day]) })}
                      value={range[1] === '24:00' ? '00:00' : range[1]}
                      onChange={(event) => setDay(day, [[range[0], event.currentTarget.value]])}
                    />
                  </>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('Closed')}
                  </Text>
                )}
              </Group>
            );
          })}
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
