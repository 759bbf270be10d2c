import { msg } from './i18n/translator.js';
// What the address field needs without zod (issue 32): the geocoders, the pace of asking, the attribution.

export const GEOCODER_KINDS = ['photon', 'nominatim', 'off'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

/**
 * How long the browser waits after the last keystroke before asking. Photon is made for search-as-you-type;
 * public Nominatim forbids it, so with Nominatim suggestions come on a pause only.
 */
export const GEOCODE_DEBOUNCE_MS: Record<GeocoderKind, number> = { photon: 300, nominatim: 1000, off: 0 };

// translators: OpenStreetMap's required credit; its guidelines allow it in the reader's language
export const OSM_ATTRIBUTION = msg('© OpenStreetMap contributors');
