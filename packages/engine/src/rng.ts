/**
 * Seeded randomness for simulation and tests. The engine itself never draws random numbers: the deck
 * comes from the provably fair derivation. Only drivers (felt-sim, soaks, bots) take an Rng, so that a
 * seed reproduces a run exactly.
 */

/** The injected source of randomness (a port). Implementations must be deterministic for a given seed. */
export interface Rng {
  /** A uniformly distributed integer in [0, 2^32). */
  nextUint32(): number;
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): fast, 128-bit state, passes PractRand. */
export class SeededRng implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number | readonly [number, number, number, number]) {
    const [a, b, c, d] = typeof seed === 'object' ? seed : hashSeed(String(seed));
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    // Warm-up decorrelates nearby seeds ("s:1", "s:2").
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** The full generator state, to checkpoint a driver mid-run. */
  state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  static fromState(state: readonly [number, number, number, number]): SeededRng {
    const rng = Object.create(SeededRng.prototype) as SeededRng;
    rng.a = state[0] >>> 0;
    rng.b = state[1] >>> 0;
    rng.c = state[2] >>> 0;
    rng.d = state[3] >>> 0;
    return rng;
  }
}

/** cyrb128: spreads a string seed over 128 bits. */
function hashSeed(str: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Uniform integer in [0, n) without modulo bias (rejection sampling, as the deck derivation does). */
export function randomInt(rng: Rng, n: number): number {
  if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`randomInt bound must be in 1..2^32: ${n}`);
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const x = rng.nextUint32();
    if (x < limit) return x % n;
  }
}

/** Uniform integer in [min, max] inclusive. */
export function randomBetween(rng: Rng, min: number, max: number): number {
  return min + randomInt(rng, max - min + 1);
}

/** A float in [0, 1). */
export function randomUnit(rng: Rng): number {
  return rng.nextUint32() / 2 ** 32;
}

/** Picks an index according to non-negative weights. */
export function weightedIndex(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  if (!(total > 0)) throw new RangeError('weightedIndex needs a positive total weight');
  let x = randomUnit(rng) * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

export function randomBytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 4) {
    let x = rng.nextUint32();
    for (let j = 0; j < 4 && i + j < n; j++) {
      out[i + j] = x & 0xff;
      x >>>= 8;
    }
  }
  return out;
}

/** A lowercase, hyphenated version-4 UUID drawn from the rng (the form of a hand id, for simulations). */
export function randomUuid(rng: Rng): string {
  const b = randomBytes(rng, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function shuffleInPlace<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}
