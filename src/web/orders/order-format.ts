export { itemCounts } from '../../shared/orders.js';

/** A time of day as people read it here, in the browser's time zone: '7:45 PM'. */
export const timeOfDay = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });

/** A date and time for a list of past orders: 'Nov 23, 7:45 PM'. */
export const dateAndTime = (iso: string, timeZone?: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  });
