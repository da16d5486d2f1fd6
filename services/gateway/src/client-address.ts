import { isIP } from 'node:net';

/**
 * The address the socket caps count a client under.
 *
 * A client that connects directly is its socket's remote address. Behind `trustedHops` proxies
 * (GATEWAY_TRUST_PROXY), each of which appends the address it got the request from to
 * X-Forwarded-For, it is the entry `trustedHops` places from the right: entries left of that were
 * written by the client and prove nothing, so the leftmost entry is used only when every entry came
 * from a trusted proxy (fewer entries than hops). An entry that is not an IP address, or no header,
 * falls back to the remote address.
 *
 * IPv6 addresses count per /64, the smallest block a provider gives one subscriber, so one client
 * cannot step through the addresses of its own prefix; IPv4-mapped IPv6 addresses count as IPv4.
 */
export function clientAddress(remote: string, forwardedFor: string, trustedHops: number): string {
  const direct = normalizeAddress(remote) ?? remote;
  if (trustedHops <= 0 || forwardedFor.trim() === '') return direct;
  const entries = forwardedFor.split(',');
  const entry = entries[Math.max(0, entries.length - trustedHops)] ?? '';
  return normalizeAddress(entry) ?? direct;
}

/**
 * An IPv4 address as is, an IPv6 address as its /64 (`2001:db8:1:2::/64`), or undefined for
 * anything else. Accepts the forms proxies write: `[v6]`, `[v6]:port`, `v4:port`.
 */
export function normalizeAddress(raw: string): string | undefined {
  let s = raw.trim();
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0) return undefined;
    s = s.slice(1, end);
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(s)) {
    s = s.slice(0, s.lastIndexOf(':'));
  }
  const kind = isIP(s);
  if (kind === 4) return s;
  if (kind !== 6) return undefined;
  const groups = ipv6Groups(s);
  if (!groups) return undefined;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address that `isIP` accepted (zone id dropped). */
function ipv6Groups(address: string): number[] | undefined {
  let head = address.split('%', 1)[0] ?? '';
  const tail: number[] = [];
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(head);
  if (dotted?.[1]) {
    const octets = dotted[1].split('.').map(Number);
    tail.push(((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0));
    head = head.slice(0, -dotted[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined): number[] =>
    part ? part.split(':').map((g) => Number.parseInt(g, 16)) : [];
  const left = parse(halves[0]);
  const right = parse(halves[1]);
  const missing = 8 - left.length - right.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...left, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...right, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
