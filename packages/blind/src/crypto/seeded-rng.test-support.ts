import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Rng } from './group.js';

/**
 * Deterministic bytes for tests: SHA-512(label/counter) blocks. Never for real keys, which is why it
 * lives in a `.test-support.ts` file the package build leaves out.
 */
export function seededRng(label: string): Rng {
  let counter = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let o = 0; o < n; o += 64)
      out.set(sha512(utf8ToBytes(`${label}/${counter++}`)).subarray(0, Math.min(64, n - o)), o);
    return out;
  };
}
