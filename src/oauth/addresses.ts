/**
 * Whether an IP address is on the public internet: fetching a client's metadata document must
 * never reach the service's own machine or network (SSRF). Refused: unspecified, loopback,
 * private, shared (CGNAT), link-local, documentation, benchmarking, multicast and reserved ranges,
 * IPv6 unique-local, site-local and link-local, and IPv4 addresses mapped, compatible, translated
 * or tunnelled (6to4, Teredo) into IPv6 unless the IPv4 address inside is public.
 */
const V4_BLOCKED: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24
  [0xc0000200, 24], // 192.0.2/24
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15
  [0xc6336400, 24], // 198.51.100/24
  [0xcb007100, 24], // 203.0.113/24
  [0xe0000000, 4], // multicast 224/4
  [0xf0000000, 4], // reserved 240/4 and broadcast
];

function v4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

function v4Public(n: number): boolean {
  return !V4_BLOCKED.some(([base, bits]) => n >>> (32 - bits) === base >>> (32 - bits));
}

/** The 8 groups of an IPv6 address, or null. */
function v6(ip: string): number[] | null {
  let s = ip.replace(/^\[|\]$/g, '').split('%')[0] as string;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4(tail[1] as string);
    if (n === null) return null;
    s = `${s.slice(0, -(tail[1] as string).length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? (halves[0] as string).split(':') : [];
  const rest = halves.length === 2 && halves[1] ? (halves[1] as string).split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

export function isPublicAddress(ip: string): boolean {
  const n4 = v4(ip);
  if (n4 !== null) return v4Public(n4);
  const g = v6(ip);
  if (!g) return false;
  const [a = 0, b = 0] = g;
  const embedded = (((g[6] ?? 0) << 16) | (g[7] ?? 0)) >>> 0;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Public(embedded); // ::ffff:a.b.c.d
  if (g.slice(0, 6).every((x) => x === 0)) return false; // ::/96: ::, ::1 and IPv4-compatible ::a.b.c.d
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) return false; // translated ::ffff:0:a.b.c.d
  if (a === 0x64 && b === 0xff9b && g[2] === 1) return false; // local-use NAT64 64:ff9b:1::/48
  if (a === 0x64 && b === 0xff9b) return v4Public(embedded); // NAT64
  if (a === 0x2002) return v4Public(((b << 16) | (g[2] ?? 0)) >>> 0); // 6to4 2002:a.b.c.d::/48
  if (a === 0x2001 && b === 0) return false; // Teredo 2001::/32 (an IPv4 server and client inside)
  if ((a & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated, still routed inside)
  if ((a & 0xff00) === 0xff00) return false; // multicast
  if (a === 0x2001 && b === 0x0db8) return false; // documentation
  if (a === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return false; // discard 100::/64
  return true;
}

/** A host name that is an IP literal or a name of this machine: never fetched. */
export function isLocalHostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal');
}

export function isIpLiteral(host: string): boolean {
  return v4(host) !== null || v6(host) !== null;
}
