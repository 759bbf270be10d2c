/** The codings a precompressed answer can be sent in, best first (the smallest first when qualities tie). */
export const CODINGS = ['br', 'gzip', 'identity'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * What a client's `Accept-Encoding` lets us send of `br`, `gzip` and `identity` (RFC 9110, 12.5.3): the coding of
 * the highest quality, `br` before `gzip` before `identity` when they tie. A coding not named takes the quality of
 * `*` when there is one, else 0, except `identity`, which is acceptable (after any coding named) unless refused
 * (`identity;q=0`, or `*;q=0` without naming it). `x-gzip` is `gzip`. A missing or empty header asks for no coding: identity. When everything is
 * refused the answer is identity all the same (a 406 helps nobody's browser).
 */
export function negotiateEncoding(header: string | undefined): Coding {
  if (!header) return 'identity';
  let coding = seen.get(header);
  if (coding === undefined) {
    coding = negotiate(header);
    // Browsers send a handful of distinct headers: each is parsed once (a bounded memo).
    if (seen.size >= 256) seen.clear();
    seen.set(header, coding);
  }
  return coding;
}

const seen = new Map<string, Coding>();

function negotiate(header: string): Coding {
  let br: number | undefined;
  let gzip: number | undefined;
  let identity: number | undefined;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const semicolon = part.indexOf(';');
    const coding = (semicolon < 0 ? part : part.slice(0, semicolon)).trim().toLowerCase();
    if (
      coding !== 'br' &&
      coding !== 'gzip' &&
      coding !== 'x-gzip' &&
      coding !== 'identity' &&
      coding !== '*'
    )
      continue;
    const quality = semicolon < 0 ? 1 : qualityOf(part.slice(semicolon + 1));
    if (coding === 'br') br = quality;
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, quality);
    else if (coding === 'identity') identity = quality;
    else star = quality;
  }
  const qualities: Record<Coding, number> = {
    br: br ?? star ?? 0,
    gzip: gzip ?? star ?? 0,
    // Not named: acceptable, but after any coding the client named.
    identity: identity ?? star ?? Number.MIN_VALUE,
  };
  let best: Coding = 'identity';
  let bestQuality = 0;
  for (const coding of CODINGS) {
    if (qualities[coding] > bestQuality) {
      best = coding;
      bestQuality = qualities[coding];
    }
  }
  return best;
}

/** The `q` of a coding's parameters (`q=0.5`, `level=1; q=0`): 1 when absent, 0 when not a number in [0, 1]. */
function qualityOf(params: string): number {
  for (const param of params.split(';')) {
    const [name = '', value = ''] = param.split('=').map((p) => p.trim());
    if (name.toLowerCase() !== 'q') continue;
    const quality = Number(value);
    return value !== '' && Number.isFinite(quality) && quality >= 0 && quality <= 1 ? quality : 0;
  }
  return 1;
}
