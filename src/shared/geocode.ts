import { z } from 'zod';
import { GEOCODER_KINDS } from './geocode-pace.js';
import { t } from './i18n/translator.js';

export * from './geocode-pace.js';

/** The address being typed: trimmed, 3 to 200 characters (shorter gives useless suggestions). */
export const GeocodeQuery = z.object({
  q: z
    .string({ error: () => t('Type at least 3 characters of the address') })
    .trim()
    .min(3, { error: () => t('Type at least 3 characters of the address') })
    .max(200, { error: () => t('The address must be at most 200 characters') }),
});
export type GeocodeQuery = z.infer<typeof GeocodeQuery>;

/**
 * One address suggestion, in the spec's shape (whatever the provider), with where it is when the provider says
 * (so a picked address can be checked against a kitchen's delivery area and measured from).
 */
export const AddressSuggestion = z.object({
  display_name: z.string(),
  place_id: z.string(),
  lat: z.number().optional(),
  lon: z.number().optional(),
});
export type AddressSuggestion = z.infer<typeof AddressSuggestion>;

export const AddressSuggestions = z.array(AddressSuggestion);

export const GeocoderKind = z.enum(GEOCODER_KINDS);
export type GeocoderKind = z.infer<typeof GeocoderKind>;

/** Which geocoder the server uses, so the browser asks at the pace the provider allows. */
export const GeocodeSettings = z.object({ kind: GeocoderKind });
export type GeocodeSettings = z.infer<typeof GeocodeSettings>;
