import { translator, type Translator } from './i18n/translator.js';

/** A place on Earth, in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_KM = 6371;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle (haversine) distance in km: the same formula as the search's SQL. */
export function distanceKm(a: LatLon, b: LatLon): number {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** "1.2 km" (one decimal below 10 km, whole km beyond), "350 m" under a kilometre. */
export function formatDistance(km: number, tr: Translator = translator()): string {
  const whole = tr.numberFormat({ useGrouping: false, maximumFractionDigits: 0 });
  if (km < 1)
    return tr.t('{distance} m', { distance: whole.format(Math.max(10, Math.round((km * 1000) / 10) * 10)) });
  const distance =
    km < 10
      ? tr.numberFormat({ useGrouping: false, minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(km)
      : whole.format(Math.round(km));
  return tr.t('{distance} km', { distance });
}

/** The error code of an order whose delivery address is known to be outside the kitchen's delivery area. */
export const OUTSIDE_DELIVERY_AREA = 'OUTSIDE_DELIVERY_AREA';
