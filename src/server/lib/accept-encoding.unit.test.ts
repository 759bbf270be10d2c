import { expect, it } from 'vitest';
import { acceptsGzip } from './accept-encoding.js';

it.each([
  ['gzip', true],
  ['gzip, deflate, br, zstd', true],
  ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
  ['X-GZIP', true],
  ['*', true],
  ['gzip;q=0', false],
  ['gzip; q=0.000', false],
  ['br, gzip;q=0', false],
  ['*;q=0', false],
  ['*, gzip;q=0', false],
  ['identity', false],
  ['gzipped', false],
  ['', false],
  [undefined, false],
  ['gzip;q=nonsense', false],
])('Accept-Encoding %j allows gzip: %s', (header, expected) => {
  expect(acceptsGzip(header)).toBe(expected);
});
