/**
 * Whether a client's `Accept-Encoding` lets us send gzip: named with a quality above 0 (`gzip`, `gzip;q=0.5`,
 * `x-gzip`), or left to `*` with a quality above 0. `gzip;q=0` refuses it, and so does a missing header (identity).
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    const allowed = Number.isFinite(quality) && quality > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return allowed;
    if (coding === '*') star = allowed;
  }
  return star ?? false;
}
