/**
 * Whether a URL's host (as `new URL(...).hostname` gives it: IPv4 normalised, IPv6 in brackets) is a public
 * internet host. Loopback, private, link-local, shared, multicast and documentation addresses are not, and neither
 * are single-label names or names under suffixes that only resolve inside a network (`localhost`, `.local`,
 * `.internal`, `.home.arpa`, …). Names are not resolved: this judges what the link says.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return isPublicIpv6(host.slice(1, -1));
  const v4 = parseIpv4(host);
  if (v4) return isPublicIpv4(v4);
  const labels = host.split('.');
  if (labels.length < 2 || labels.some((label) => label === '')) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

// `.invalid` and `.example` (RFC 2606) are left alone: they never resolve anywhere, so a link to them can only
// fail to load, which is harmless.
const PRIVATE_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
  'test',
  'onion',
];

type Ipv4 = [number, number, number, number];

function parseIpv4(host: string): Ipv4 | undefined {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? (octets as Ipv4) : undefined;
}

/** [first address as a number, prefix length] of IPv4 ranges that are not the public internet. */
const NON_PUBLIC_V4: [Ipv4, number][] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 3], // multicast, reserved and broadcast: 224.0.0.0 and up
];

const v4Number = ([a, b, c, d]: Ipv4) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;

function isPublicIpv4(address: Ipv4): boolean {
  const n = v4Number(address);
  return !NON_PUBLIC_V4.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4Number(base) & mask) >>> 0;
  });
}

/** Expands an IPv6 address (as the URL parser writes it) into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  // An embedded IPv4 tail (::ffff:1.2.3.4) — the URL parser already writes these in hex, but be safe.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = parseIpv4(tail[1]);
    if (!v4) return undefined;
    text = `${text.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? left.length !== 8 : missing < 0) return undefined;
  const groups = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((g) =>
    parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

function isPublicIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  if (!g) return false;
  const [g0 = 0, g1 = 0] = g;
  // Only global unicast (2000::/3) is public, less documentation (2001:db8::/32), Teredo (2001::/32) and 6to4
  // (2002::/16), which tunnel to addresses we cannot judge. This also refuses ::1, ::ffff:127.0.0.1, fc00::/7,
  // fe80::/10 and multicast.
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && (g1 === 0x0db8 || g1 === 0)) return false;
  return g0 !== 0x2002;
}
