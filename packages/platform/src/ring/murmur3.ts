const encoder = new TextEncoder();

/**
 * MurmurHash3 x86 32-bit of the UTF-8 bytes of `key`. Every gateway and worker must place a table on
 * the same owner, so the ring hash is implemented here, byte for byte, rather than taken from a
 * runtime whose string hashing could differ between processes.
 */
export function murmur3(key: string, seed = 0): number {
  const data = encoder.encode(key);
  const len = data.length;
  const nblocks = len >>> 2;
  let h = seed >>> 0;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;

  for (let i = 0; i < nblocks; i++) {
    const o = i << 2;
    let k = (data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16) | (data[o + 3]! << 24)) >>> 0;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }

  const tail = nblocks << 2;
  const rem = len & 3;
  if (rem > 0) {
    let k1 = 0;
    if (rem === 3) k1 ^= data[tail + 2]! << 16;
    if (rem >= 2) k1 ^= data[tail + 1]! << 8;
    k1 ^= data[tail]!;
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h ^= k1;
  }

  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
