// A search's plain parameters (places, page sizes), without the search schemas (in search.ts): the landing page
// needs them without zod (issue 32).

/** At most this many kitchens answer one search: the best matches (or the nearest). */
export const MAX_SEARCH_RESULTS = 60;

const LAT_LON = /^(-?\d{1,2}(?:\.\d{1,6})?),(-?\d{1,3}(?:\.\d{1,6})?)$/;

/** "lat,lon" (as in the page's URL) → coordinates, or undefined when it is not a valid place on Earth. */
export function parseLatLon(text: string): { lat: number; lon: number } | undefined {
  const match = LAT_LON.exec(text.trim());
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
}

/** Coordinates rounded to about 100 m, for a URL that may be shared. */
export const formatLatLon = ({ lat, lon }: { lat: number; lon: number }) =>
  `${lat.toFixed(3)},${lon.toFixed(3)}`;

/** Kitchens on one page of the landing page (and the default `limit` of its API). */
export const KITCHEN_PAGE_SIZE = 24;
/** The most kitchens one page may ask for. */
export const MAX_KITCHEN_PAGE_SIZE = 100;
