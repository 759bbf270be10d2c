// A stand-in for the Photon geocoder during end-to-end tests: answers GET /api?q=... in Photon's documented
// GeoJSON format with the few addresses below whose text contains every typed word.
import http from 'node:http';

const places = [
  {
    osm_type: 'N',
    osm_id: 1001,
    housenumber: '221B',
    street: 'Baker Street',
    city: 'London',
    postcode: 'NW1 6XE',
    country: 'United Kingdom',
    at: [-0.1585, 51.5237],
  },
  {
    osm_type: 'W',
    osm_id: 1002,
    name: 'Baker Street',
    city: 'London',
    country: 'United Kingdom',
    at: [-0.1571, 51.5226],
  },
  {
    osm_type: 'N',
    osm_id: 1003,
    housenumber: '10',
    street: 'Downing Street',
    city: 'London',
    postcode: 'SW1A 2AA',
    country: 'United Kingdom',
    at: [-0.1276, 51.5034],
  },
  {
    osm_type: 'N',
    osm_id: 1004,
    housenumber: '1600',
    street: 'Pennsylvania Avenue NW',
    city: 'Washington',
    postcode: '20500',
    country: 'United States',
    at: [-77.0365, 38.8977],
  },
  // A kitchen's address in California with the parts that pick its rules (jurisdictions/us.yaml: Los Angeles County,
  // 30 meals a day), as Photon names them; the places above have none, so their kitchens keep the fallback profile.
  {
    osm_type: 'N',
    osm_id: 1005,
    housenumber: '350',
    street: 'South Grand Avenue',
    city: 'Los Angeles',
    postcode: '90071',
    country: 'United States',
    countrycode: 'US',
    state: 'California',
    county: 'Los Angeles County',
    at: [-118.2526, 34.0522],
  },
];

const text = (p) =>
  [p.name, p.housenumber, p.street, p.city, p.postcode, p.country].filter(Boolean).join(' ').toLowerCase();

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/health') return res.end('ok');
  if (url.pathname !== '/api') {
    res.writeHead(404);
    return res.end();
  }
  // Commas separate words as spaces do: a suggestion's own text, picked and saved, finds its place again.
  const words = (url.searchParams.get('q') ?? '')
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const features = places
    .filter((p) => words.every((w) => text(p).includes(w)))
    .map(({ at, ...properties }) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: at },
      properties,
    }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'FeatureCollection', features }));
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
