import { expect, it } from 'vitest';
import { negotiateEncoding } from './accept-encoding.js';

it.each([
  // What browsers send: brotli preferred.
  ['gzip, deflate, br, zstd', 'br'],
  ['gzip, deflate, br', 'br'],
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['X-GZIP', 'gzip'],
  ['deflate, gzip', 'gzip'],
  // Qualities decide; ties go to br, then gzip, then identity.
  ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
  ['br;q=0.5, gzip;q=0.8', 'gzip'],
  ['gzip;q=0.5, br;q=0.5', 'br'],
  ['gzip;q=0.5, identity', 'identity'],
  ['gzip; q=0.9 , br ; q = 0.2', 'gzip'],
  ['*', 'br'],
  ['*;q=0.5, br;q=0.1', 'gzip'],
  // Refused codings.
  ['gzip;q=0', 'identity'],
  ['gzip; q=0.000', 'identity'],
  ['br, gzip;q=0', 'br'],
  ['br;q=0, gzip', 'gzip'],
  ['*;q=0', 'identity'],
  ['*, gzip;q=0', 'br'],
  ['*, br;q=0, gzip;q=0', 'identity'],
  ['identity;q=0, gzip;q=0.1', 'gzip'],
  ['gzip;q=nonsense', 'identity'],
  ['gzip;q=2', 'identity'],
  // Codings we do not have, and none at all.
  ['identity', 'identity'],
  ['deflate, zstd', 'identity'],
  ['gzipped, brotli', 'identity'],
  ['', 'identity'],
  [undefined, 'identity'],
])('Accept-Encoding %j gets %s', (header, expected) => {
  expect(negotiateEncoding(header)).toBe(expected);
  // Asked again (the memo of seen headers): the same answer.
  expect(negotiateEncoding(header)).toBe(expected);
});
