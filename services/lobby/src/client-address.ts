import { BlockList, isIP, isIPv4 } from 'node:net';

/** The address of a request that came with no socket (an in-process `app.request`). */
export const UNKNOWN_ADDRESS = 'unknown';

interface AddressRange {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** `10.0.0.1`, `10.0.0.0/8`, `::1` or `2001:db8::/32`; null when it is none of these. */
export function parseAddressRange(entry: string): AddressRange | null {
  const [address = '', bits, ...rest] = entry.trim().split('/');
  if (rest.length > 0) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (bits !== undefined && !/^[0-9]{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** `::ffff:1.2.3.4` is 1.2.3.4; a zone (`fe80::1%eth0`) is dropped. */
function normalize(address: string): string {
  const bare = address.trim().replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:([0-9.]+)$/.exec(bare)?.[1];
  return mapped !== undefined && isIPv4(mapped) ? mapped : bare;
}

/** The eight groups of an IPv6 address, as numbers. */
function ipv6Groups(address: string): number[] {
  let text = address;
  // A trailing dotted quad (::ffff:1.2.3.4 was handled above, but 64:ff9b::1.2.3.4 and the like remain).
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = quad.split('.').map(Number);
    text = `${text.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/**
 * Who a request comes from, for the per-address limits: the socket's peer, or behind trusted
 * proxies the address they recorded in X-Forwarded-For; and which addresses the limits skip.
 */
export class AddressPolicy {
  private readonly exempt = new BlockList();

  /**
   * @param trustProxyHops 0: the socket's peer is the client. N: N proxies in front of the lobby each
   *   append the address they were called from to X-Forwarded-For, so the client is the Nth entry
   *   from the right; entries further left were written by the client and prove nothing.
   * @param exempt addresses and CIDR ranges the per-address limits don't apply to
   */
  constructor(
    private readonly trustProxyHops: number,
    exempt: readonly string[],
  ) {
    for (const entry of exempt) {
      const range = parseAddressRange(entry);
      if (!range) throw new RangeError(`not an address or CIDR range: ${entry}`);
      this.exempt.addSubnet(range.address, range.prefix, range.family);
    }
  }

  /** The client's address, normalized, or {@link UNKNOWN_ADDRESS}. */
  clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined): string {
    if (this.trustProxyHops > 0 && forwardedFor) {
      const hops = forwardedFor
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h.length > 0);
      // Fewer entries than proxies: the request skipped one; the leftmost is the best we have.
      const entry = hops[Math.max(0, hops.length - this.trustProxyHops)];
      if (entry !== undefined) {
        const address = normalize(entry);
        if (isIP(address) !== 0) return address;
      }
    }
    if (socketAddress === undefined) return UNKNOWN_ADDRESS;
    const address = normalize(socketAddress);
    return isIP(address) === 0 ? UNKNOWN_ADDRESS : address;
  }

  isExempt(address: string): boolean {
    const version = isIP(address);
    if (version === 0) return false;
    return this.exempt.check(address, version === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The key a limit counts under: the address itself for IPv4, its /64 for IPv6 (one subscriber
   * normally holds a whole /64, so counting single addresses would count nothing).
   */
  limitKey(address: string): string {
    if (isIP(address) !== 6) return address;
    const groups = ipv6Groups(address).slice(0, 4);
    return `${groups.map((g) => g.toString(16)).join(':')}::/64`;
  }
}
