import { distanceUnit } from './i18n/locales.js';
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

const KM_PER_MILE = 1.609344;

/**
 * A distance in the units of the language's country ('1.2 km', '350 m'; American English: '0.7 mi', '3.1 mi'), one
 * decimal below 10, whole beyond; the unit written by `Intl` in the language ('5 km', '5 كم', '5 कि॰मी॰').
 */
export function formatDistance(km: number, tr: Translator = translator()): string {
  const unit = (name: string, value: number, digits: number) =>
    tr
      .numberFormat({ style: 'unit', unit: name, useGrouping: false, maximumFractionDigits: digits })
      .format(value);
  if (distanceUnit(tr.locale) === 'mile') {
    const miles = km / KM_PER_MILE;
    return unit('mile', Math.max(0.1, miles), miles < 10 ? 1 : 0);
  }
  if (km < 1) return unit('meter', Math.max(10, Math.round((km * 1000) / 10) * 10), 0);
  return unit('kilometer', km, km < 10 ? 1 : 0);
}

/** The error code of an order whose delivery address is known to be outside the kitchen's delivery area. */
export const OUTSIDE_DELIVERY_AREA = 'OUTSIDE_DELIVERY_AREA';
