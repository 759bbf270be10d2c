import { z } from 'zod';
import type { AddressSuggestion } from '../../shared/geocode.js';

/** How to ask one kind of geocoding service, and how to read its answer into the spec's suggestions. */
export interface GeocodeProvider {
  name: 'photon' | 'nominatim';
  url(base: string, q: string, limit: number): string;
  parse(body: unknown): AddressSuggestion[];
}

const text = z.string().trim().min(1).optional().catch(undefined);

const PhotonAnswer = z.object({
  features: z.array(
    z.object({
      properties: z.object({
        osm_type: z.string(),
        osm_id: z.union([z.number(), z.string()]),
        name: text,
        street: text,
        housenumber: text,
        city: text,
        postcode: text,
        country: text,
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
    return PhotonAnswer.parse(body).features.map(({ properties: p }) => {
      const street = [p.housenumber, p.street].filter(Boolean).join(' ') || undefined;
      const parts = [p.name, street, p.city, p.postcode, p.country].filter((x): x is string => !!x);
      return {
        display_name: [...new Set(parts)].join(', '),
        place_id: `${p.osm_type}${p.osm_id}`,
      };
    });
  },
};

const NominatimAnswer = z.array(
  z.object({ place_id: z.union([z.number(), z.string()]), display_name: z.string().min(1) }),
);

/** Nominatim's /search with format=json: an array of places with display_name and place_id. */
export const nominatim: GeocodeProvider = {
  name: 'nominatim',
  url(base, q, limit) {
    const url = new URL(base);
    url.searchParams.set('format', 'json');
    url.searchParams.set('q', q);
    url.searchParams.set('limit', String(limit));
    return url.toString();
  },
  parse(body) {
    return NominatimAnswer.parse(body).map((place) => ({
      display_name: place.display_name,
      place_id: String(place.place_id),
    }));
  },
};
