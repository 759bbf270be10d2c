import { formatClock, formatOpening, WEEKDAY_NAMES, type Weekday } from '../../shared/opening-hours.js';
import { t, translator } from '../i18n.js';

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** 'Every Thursday at 6:00 PM': a plan's day and slot, in the kitchen's time. */
export const everyWeek = (weekday: Weekday, slotTime: string) =>
  t('Every {weekday} at {time}', {
    weekday: t(WEEKDAY_NAMES[weekday]),
    time: formatClock(minutesOf(slotTime), translator()),
  });

/** 'Change by Tue 6:00 PM': a week's cut-off, in the kitchen's time. */
export const changeBy = (cutoff: string, timeZone: string) =>
  t('Change by {when}', { when: formatOpening(new Date(cutoff), timeZone, translator()) });

/** 'Thu 29 Oct 6:00 PM': a week's slot, in the kitchen's time. */
export const weekSlot = (slotStart: string, timeZone: string) =>
  translator()
    .dateFormat({
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    })
    .format(new Date(slotStart));
