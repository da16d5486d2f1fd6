import { murmur3 } from './murmur3.js';

export const DEFAULT_VNODES = 160;

export interface HashRingOptions {
  /** Points per member. More points even out the share each member gets. */
  readonly vnodes?: number;
}

/**
 * Consistent hashing with virtual nodes: each member owns the arcs that end at its points, and a key
 * belongs to the first point at or after its hash. Adding a member takes over only the arcs its new
 * points cut off, about 1/N of the keys, and no key moves between two other members.
 */
export class HashRing {
  readonly members: readonly string[];
  private readonly points: Uint32Array;
  private readonly owners: string[];

  constructor(members: Iterable<string>, options: HashRingOptions = {}) {
    const vnodes = options.vnodes ?? DEFAULT_VNODES;
    if (!Number.isInteger(vnodes) || vnodes < 1) throw new RangeError(`vnodes must be a positive integer: ${vnodes}`);
    this.members = [...new Set(members)].sort();
    const entries: { point: number; owner: string }[] = [];
    for (const member of this.members) {
      for (let i = 0; i < vnodes; i++) entries.push({ point: murmur3(`${member}#${i}`), owner: member });
    }
    // Ties (rare 32-bit collisions) resolve by member id, so every process orders them alike.
    entries.sort((a, b) => a.point - b.point || (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
    this.points = Uint32Array.from(entries, (e) => e.point);
    this.owners = entries.map((e) => e.owner);
  }

  get size(): number {
    return this.members.length;
  }

  /** The member owning `key`, or undefined when the ring is empty. */
  ownerOf(key: string): string | undefined {
    const n = this.points.length;
    if (n === 0) return undefined;
    const h = murmur3(key);
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.points[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    return this.owners[lo === n ? 0 : lo];
  }
}
