import { distanceKm, formatDistance, OUTSIDE_DELIVERY_AREA, type LatLon } from '../../shared/geo.js';
import type { Kitchen } from '../../shared/kitchens.js';
import { HttpError } from '../lib/errors.js';
import { msg, type Translator, translator } from '../../shared/i18n/translator.js';

/**
 * Refuses (422, naming the address) an order whose delivery address is known to be beyond the kitchen's delivery
 * radius. Known means both places are: an address typed without picking a suggestion, or a kitchen whose address
 * the geocoder could not place, is accepted.
 */
export function refuseOutsideDeliveryArea(
  kitchen: Pick<Kitchen, 'name' | 'location' | 'deliveryRadiusKm'>,
  delivery: LatLon | undefined,
  /** The customer's language, for the distances. */
  tr: Translator = translator(),
): void {
  if (!delivery || !kitchen.location) return;
  const km = distanceKm(kitchen.location, delivery);
  if (km <= kitchen.deliveryRadiusKm) return;
  throw new HttpError(
    422,
    OUTSIDE_DELIVERY_AREA,
    msg(
      'This address is {distance} from {name}, which delivers within {radius}. Please choose an address inside its delivery area.',
    ),
    'address',
    undefined,
    {
      distance: formatDistance(km, tr),
      name: kitchen.name,
      radius: formatDistance(kitchen.deliveryRadiusKm, tr),
    },
  );
}
