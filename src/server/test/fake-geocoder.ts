import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  url: URL;
  headers: http.IncomingHttpHeaders;
  at: number;
}

/** Answers in each provider's documented format, as the real services do (a test boundary, not our code). */
export const PHOTON_ANSWER = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-0.1585, 51.5237] },
      properties: {
        osm_id: 123456,
        osm_type: 'N',
        osm_key: 'tourism',
        osm_value: 'museum',
        type: 'house',
        name: 'Sherlock Holmes Museum',
        housenumber: '221B',
        street: 'Baker Street',
        postcode: 'NW1 6XE',
        city: 'London',
        county: 'Greater London',
        state: 'England',
        countrycode: 'GB',
        country: 'United Kingdom',
      },
    },
    {
      type: 'Feature',
      geometry: { type: 'LineString', coordinates: [[-0.157, 51.52]] },
      properties: {
        osm_id: 4244999,
        osm_type: 'W',
        osm_key: 'highway',
        osm_value: 'primary',
        type: 'street',
        name: 'Baker Street',
        city: 'London',
        country: 'United Kingdom',
      },
    },
  ],
};

export const NOMINATIM_ANSWER = [
  {
    place_id: 100149,
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright',
    osm_type: 'node',
    osm_id: 107775,
    lat: '51.5073219',
    lon: '-0.1276474',
    class: 'place',
    type: 'city',
    importance: 0.9654895765402,
    display_name: 'London, Greater London, England, SW1A 2DU, United Kingdom',
    address: {
      city: 'London',
      state_district: 'Greater London',
      state: 'England',
      postcode: 'SW1A 2DU',
      country: 'United Kingdom',
      country_code: 'gb',
    },
    boundingbox: ['51.3473219', '51.6673219', '-0.2876474', '-0.0676474'],
  },
];

/**
 * A local HTTP server standing in for the geocoding services: `/photon/api` and `/nominatim/search` answer
 * their documented formats, `/slow/...` never answers in time, `/broken/...` answers a 502 page.
 */
export async function startFakeProvider() {
  const seen: SeenRequest[] = [];
  /**
   * `/places/api` (Photon's format) answers the first of these whose name the query contains, with the address's
   * parts (Photon's `countrycode`, `state`, `county`) when given.
   */
  const places = new Map<string, Place>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ url, headers: req.headers, at: Date.now() });
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/photon/api') return json(PHOTON_ANSWER);
    if (url.pathname === '/nominatim/search') return json(NOMINATIM_ANSWER);
    if (url.pathname === '/places/api') return json(placesAnswer(places, url.searchParams.get('q') ?? ''));
    if (url.pathname.startsWith('/slow/')) return setTimeout(() => json(PHOTON_ANSWER), 10_000).unref();
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><body>Bad gateway</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    places,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL on a port where nothing listens (it was just closed). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/api`;
}

interface Place {
  lat: number;
  lon: number;
  countrycode?: string;
  state?: string;
  county?: string;
}

function placesAnswer(places: Map<string, Place>, q: string) {
  const found = [...places].find(([name]) => q.toLowerCase().includes(name.toLowerCase()));
  const features = found
    ? [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [found[1].lon, found[1].lat] },
          properties: {
            osm_id: 1,
            osm_type: 'N',
            name: found[0],
            countrycode: found[1].countrycode,
            state: found[1].state,
            county: found[1].county,
          },
        },
      ]
    : [];
  return { type: 'FeatureCollection', features };
}
