import { translator } from '../i18n.js';
export { itemCounts } from '../../shared/orders.js';

/** A time of day as people read it here, in the browser's time zone: '7:45 PM' (in the page's language). */
export const timeOfDay = (iso: string, timeZone?: string) =>
  translator().dateFormat({ hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));

/** A date and time for a list of past orders: 'Nov 23, 7:45 PM'. */
export const dateAndTime = (iso: string, timeZone?: string) =>
  translator()
    .dateFormat({
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    })
    .format(new Date(iso));

/** Dishes and the like one after another, as the page's language lists them: 'Dal × 3, Rice' in English. */
export const listOf = (items: readonly string[]) =>
  new Intl.ListFormat(translator().intl, { type: 'unit', style: 'short' }).format(items);
