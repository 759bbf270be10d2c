import { isIP } from 'node:net';

/** What Fastify's `trustProxy` takes from us: nobody, the nearest N hops, or these proxies' addresses. */
export type TrustProxy = false | number | string[];

const KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (KEYWORDS.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Parses TRUST_PROXY: unset or `false` trusts no proxy (X-Forwarded-* are ignored: a client could forge them to
 * dodge the per-address rate limits); a whole number trusts that many hops in front of us; otherwise a comma list
 * of the proxies' addresses or ranges (`10.0.0.0/8`, `::1`, or proxy-addr's `loopback`, `linklocal`,
 * `uniquelocal`). `true` is refused: it would believe any client. Returns an error message for a bad value.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | { error: string } {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false' || text === 'off' || text === '0') return false;
  if (text === 'true')
    return {
      error: 'true would believe any client; give the number of proxies in front, or their addresses',
    };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { error: 'a hop count must be at most 10' };
  }
  const entries = text.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined)
    return { error: `"${bad}" is not an address, a range (a.b.c.d/n) or loopback/linklocal/uniquelocal` };
  return entries;
}
