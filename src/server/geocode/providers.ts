import { z } from 'zod';
import type { AddressSuggestion } from '../../shared/geocode.js';
import type { PlaceParts } from '../../shared/jurisdictions.js';

/** A suggestion with the address's country, region and county where the provider names them (not sent on). */
export type Located = AddressSuggestion & { parts?: PlaceParts };

/** How to ask one kind of geocoding service, and how to read its answer into the spec's suggestions. */
export interface GeocodeProvider {
  name: 'photon' | 'nominatim';
  url(base: string, q: string, limit: number): string;
  parse(body: unknown): Located[];
}

const text = z.string().trim().min(1).optional().catch(undefined);

/** A Point's [lon, lat] (GeoJSON's order); any other geometry gives no coordinates. */
const PhotonGeometry = z
  .object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) })
  .optional()
  .catch(undefined);

/** The parts that pick a place's rules (src/shared/jurisdictions.ts), when the provider names its country. */
function partsOf(countryCode?: string, region?: string, county?: string): { parts?: PlaceParts } {
  if (!countryCode || !/^[A-Za-z]{2}$/.test(countryCode)) return {};
  return {
    parts: { countryCode: countryCode.toUpperCase(), region: region ?? null, county: county ?? null },
  };
}

/** Coordinates only when both are numbers on Earth. */
function place(lat: number | undefined, lon: number | undefined): { lat?: number; lon?: number } {
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return {};
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return {};
  return { lat, lon };
}

const PhotonAnswer = z.object({
  features: z.array(
    z.object({
      geometry: PhotonGeometry,
      properties: z.object({
        osm_type: z.string(),
        osm_id: z.union([z.number(), z.string()]),
        name: text,
        street: text,
        housenumber: text,
        city: text,
        postcode: text,
        country: text,
        countrycode: text,
        state: text,
        county: text,
      }),
    }),
  ),
});

/** Photon (komoot): a GeoJSON FeatureCollection whose properties hold the address parts. */
export const photon: GeocodeProvider = {
  name: 'photon',
  url(base, q, limit) {
    const url = new URL(base);
    url.searchParams.set('q', q);
    url.searchParams.set('limit', String(limit));
    return url.toString();
  },
  parse(body) {
    return PhotonAnswer.parse(body).features.map(({ properties: p, geometry }) => {
      const street = [p.housenumber, p.street].filter(Boolean).join(' ') || undefined;
      const parts = [p.name, street, p.city, p.postcode, p.country].filter((x): x is string => !!x);
      return {
        display_name: [...new Set(parts)].join(', '),
        place_id: `${p.osm_type}${p.osm_id}`,
        ...place(geometry?.coordinates[1], geometry?.coordinates[0]),
        ...partsOf(p.countrycode, p.state, p.county),
      };
    });
  },
};

const NominatimAnswer = z.array(
  z.object({
    place_id: z.union([z.number(), z.string()]),
    display_name: z.string().min(1),
    lat: z.coerce.number().optional().catch(undefined),
    lon: z.coerce.number().optional().catch(undefined),
    address: z.object({ country_code: text, state: text, county: text }).optional().catch(undefined),
  }),
);

/** Nominatim's /search with format=json: an array of places with display_name and place_id. */
export const nominatim: GeocodeProvider = {
  name: 'nominatim',
  url(base, q, limit) {
    const url = new URL(base);
    url.searchParams.set('format', 'json');
    url.searchParams.set('addressdetails', '1');
    url.searchParams.set('q', q);
    url.searchParams.set('limit', String(limit));
    return url.toString();
  },
  parse(body) {
    return NominatimAnswer.parse(body).map((p) => ({
      display_name: p.display_name,
      place_id: String(p.place_id),
      ...place(p.lat, p.lon),
      ...partsOf(p.address?.country_code, p.address?.state, p.address?.county),
    }));
  },
};
