/**
 * A verifiable shuffle: permute a deck of ElGamal ciphertexts and re-randomize each one, with a
 * cut-and-choose (Sako–Kilian) proof made non-interactive by Fiat–Shamir. Soundness error 2^-λ.
 *
 * Conventions. reenc(ct, r) = (c1 + r·G, c2 + r·Y). A shuffle with permutation π and randomness r
 * publishes out[j] = reenc(in[π[j]], r[j]): output position j holds the card that was at input
 * position π[j]. The prover also builds λ shadow decks S_k[i] = reenc(in[σ_k[i]], t_k[i]), each from
 * a fresh 32-byte seed (σ_k and t_k are expanded from it, see `expandSeed`).
 *
 * The challenge is e = SHA-512(domain, context, λ, n, Y, in, out, S_1 … S_λ); bit k of e (bit k%8 of
 * byte k/8) picks what shadow k opens:
 * - bit 0, input → shadow: `{ seed }`, from which the verifier rebuilds S_k out of the input;
 * - bit 1, shadow → output: `{ perm: ρ, rand: u }` with out[j] = reenc(S_k[ρ[j]], u[j]), i.e.
 *   ρ = σ_k⁻¹∘π and u[j] = r[j] − t_k[ρ[j]]; the verifier rebuilds S_k[ρ[j]] = out[j] − u[j]·(G, Y).
 *
 * The shadows are not sent: the verifier rebuilds every one from its opening, hashes them with the
 * rest, and accepts when the bits of that hash are exactly the kinds of the openings. A shadow fixed
 * before the hash can be opened both ways only if the output is a shuffle of the input, so a cheating
 * prover must guess all λ bits (the (c, s) form of a Schnorr proof, applied to cut-and-choose). The
 * permutation π is never opened, and each opening on its own is uniformly random.
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { bytesToNumberLE } from '@noble/curves/utils.js';
import type { Ciphertext } from './cards.js';
import { BlindError } from './errors.js';
import {
  DOMAIN,
  defaultRng,
  drawBytes,
  generator,
  isHex32,
  keyTable,
  parsePoint,
  parseScalar,
  randomScalar,
  scalarHex,
  Transcript,
  Fn,
  type Hex,
  type Point,
  type Rng,
} from './group.js';

/** The default number of shadow shuffles: soundness error 2^-40. */
export const DEFAULT_LAMBDA = 40;
/** The largest λ accepted (the challenge is one SHA-512 digest; 256 bits is far past useful). */
export const MAX_LAMBDA = 256;

/** Opening of a shadow whose challenge bit is 0 (input → shadow): the seed it was expanded from. */
export interface ShuffleSeedOpening {
  readonly seed: Hex;
}

/** Opening of a shadow whose challenge bit is 1 (shadow → output): out[j] = reenc(S[perm[j]], rand[j]). */
export interface ShufflePermOpening {
  readonly perm: readonly number[];
  readonly rand: readonly Hex[];
}

export type ShuffleOpening = ShuffleSeedOpening | ShufflePermOpening;

/** λ openings, one per shadow shuffle, in order. JSON-safe (hex strings and numbers). */
export interface ShuffleProof {
  readonly openings: readonly ShuffleOpening[];
}

export interface ShuffleResult {
  readonly output: Ciphertext[];
  readonly proof: ShuffleProof;
}

interface PointPair {
  readonly c1: Point;
  readonly c2: Point;
}

/** Array.isArray without its narrowing of a typed readonly array to any[]. */
function isList(value: unknown): boolean {
  return Array.isArray(value);
}

function validLambda(lambda: unknown): lambda is number {
  return Number.isInteger(lambda) && (lambda as number) >= 1 && (lambda as number) <= MAX_LAMBDA;
}

// ---- seed expansion -------------------------------------------------------------------------------

/** A byte stream SHA-512(tag, seed, counter) for counter = 0, 1, … */
class SeedStream {
  #block: Uint8Array = new Uint8Array(0);
  #offset = 0;
  #counter = 0;

  constructor(readonly seed: Uint8Array) {}

  take(bytes: number): Uint8Array {
    const out = new Uint8Array(bytes);
    for (let filled = 0; filled < bytes;) {
      if (this.#offset === this.#block.length) {
        const counter = this.#counter++;
        this.#block = new Transcript(DOMAIN.shadow).bytes(this.seed).number(counter).digest();
        this.#offset = 0;
      }
      const n = Math.min(bytes - filled, this.#block.length - this.#offset);
      out.set(this.#block.subarray(this.#offset, this.#offset + n), filled);
      filled += n;
      this.#offset += n;
    }
    return out;
  }

  /** Uniform in [0, bound), by rejection sampling 32-bit words. */
  below(bound: number): number {
    const limit = Math.floor(0x1_0000_0000 / bound) * bound;
    for (;;) {
      const b = this.take(4);
      const word =
        (((b[0] as number) << 24) | ((b[1] as number) << 16) | ((b[2] as number) << 8) | (b[3] as number)) >>> 0;
      if (word < limit) return word % bound;
    }
  }

  /** Uniform in [1, ℓ): 64 bytes reduced mod ℓ, 0 skipped. */
  scalar(): bigint {
    for (;;) {
      const value = Fn.create(bytesToNumberLE(this.take(64)));
      if (value !== 0n) return value;
    }
  }
}

/**
 * A seed's permutation (Fisher–Yates from the top) and then its n re-randomizers, in this order. The
 * prover derives its real shuffle and every shadow this way; the verifier rebuilds bit-0 shadows.
 */
export function expandSeed(seed: Uint8Array, n: number): { perm: number[]; rand: bigint[] } {
  const stream = new SeedStream(seed);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    const tmp = perm[i] as number;
    perm[i] = perm[j] as number;
    perm[j] = tmp;
  }
  const rand = Array.from({ length: n }, () => stream.scalar());
  return { perm, rand };
}

// ---- shared pieces --------------------------------------------------------------------------------

function shuffleTranscript(
  context: string,
  lambda: number,
  jointY: Hex,
  input: readonly Ciphertext[],
  output: readonly Ciphertext[],
): Transcript {
  const t = new Transcript(DOMAIN.shuffle).string(context).number(lambda).number(input.length).pointHex(jointY);
  for (const ct of input) t.pointHex(ct.c1).pointHex(ct.c2);
  for (const ct of output) t.pointHex(ct.c1).pointHex(ct.c2);
  return t;
}

function challengeBit(digest: Uint8Array, k: number): number {
  return ((digest[k >> 3] as number) >> (k & 7)) & 1;
}

function parseDeck(deck: readonly Ciphertext[], what: string): PointPair[] {
  return deck.map((ct, i) => ({
    c1: parsePoint(ct.c1, `${what}[${i}].c1`),
    c2: parsePoint(ct.c2, `${what}[${i}].c2`),
  }));
}

// ---- prover ---------------------------------------------------------------------------------------

/**
 * Shuffles and re-randomizes `input` under the joint key, with a proof bound to `context`.
 * Throws BlindError on a malformed input deck or joint key, RangeError on a bad λ.
 */
export function shuffleDeck(
  input: readonly Ciphertext[],
  jointY: Hex,
  context: string,
  opts: { lambda?: number; rng?: Rng } = {},
): ShuffleResult {
  const lambda = opts.lambda ?? DEFAULT_LAMBDA;
  if (!validLambda(lambda)) throw new RangeError(`lambda must be an integer in [1, ${MAX_LAMBDA}]`);
  const rng = opts.rng ?? defaultRng;
  if (!isList(input) || input.length === 0) throw new BlindError('bad_deck', 'an empty deck cannot be shuffled');
  const n = input.length;
  const G = generator();
  const Y = keyTable(jointY);
  const inPoints = parseDeck(input, 'input');
  const reenc = (ct: PointPair, r: bigint): PointPair => ({
    c1: ct.c1.add(G.multiply(r)),
    c2: ct.c2.add(Y.multiply(r)),
  });

  const main = expandSeed(drawBytes(rng, 32), n);
  const output: Ciphertext[] = main.perm.map((src, j) => {
    const ct = reenc(inPoints[src] as PointPair, main.rand[j] as bigint);
    return { c1: ct.c1.toHex(), c2: ct.c2.toHex() };
  });

  const transcript = shuffleTranscript(context, lambda, jointY, input, output);
  const seeds: Uint8Array[] = [];
  const shadows: { perm: number[]; rand: bigint[] }[] = [];
  for (let k = 0; k < lambda; k++) {
    const seed = drawBytes(rng, 32);
    const shadow = expandSeed(seed, n);
    for (let i = 0; i < n; i++) {
      const ct = reenc(inPoints[shadow.perm[i] as number] as PointPair, shadow.rand[i] as bigint);
      transcript.point(ct.c1).point(ct.c2);
    }
    seeds.push(seed);
    shadows.push(shadow);
  }
  const digest = transcript.digest();

  const openings = shadows.map((shadow, k): ShuffleOpening => {
    if (challengeBit(digest, k) === 0) return { seed: bytesToHex(seeds[k] as Uint8Array) };
    const inverse = new Array<number>(n);
    shadow.perm.forEach((src, i) => (inverse[src] = i));
    const perm = main.perm.map((src) => inverse[src] as number);
    const rand = perm.map((i, j) => scalarHex(Fn.sub(main.rand[j] as bigint, shadow.rand[i] as bigint)));
    return { perm, rand };
  });
  return { output, proof: { openings } };
}

// ---- verifier -------------------------------------------------------------------------------------

function isPermutation(perm: unknown, n: number): perm is number[] {
  if (!Array.isArray(perm) || perm.length !== n) return false;
  const seen = new Uint8Array(n);
  for (const v of perm) {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= n || seen[v as number] === 1) return false;
    seen[v as number] = 1;
  }
  return true;
}

/** 0 for a seed opening, 1 for a perm opening, undefined for anything malformed. */
function openingKind(opening: unknown, n: number): 0 | 1 | undefined {
  if (typeof opening !== 'object' || opening === null) return undefined;
  const o = opening as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && isHex32(o['seed'])) return 0;
  if (keys.length === 2 && isPermutation(o['perm'], n) && Array.isArray(o['rand']) && o['rand'].length === n) return 1;
  return undefined;
}

/**
 * Whether `output` is a permutation and re-randomization of `input` under `jointY`, as `proof` shows
 * for this context and λ. Never throws: false for any malformed, truncated, reused or inconsistent
 * proof, a wrong λ, a bad point, an output c1 that is the identity or that repeats.
 */
export function verifyShuffle(
  input: readonly Ciphertext[],
  output: readonly Ciphertext[],
  jointY: Hex,
  proof: ShuffleProof,
  context: string,
  opts: { lambda?: number } = {},
): boolean {
  try {
    const lambda = opts.lambda ?? DEFAULT_LAMBDA;
    if (!validLambda(lambda) || typeof context !== 'string') return false;
    if (!isList(input) || !isList(output) || input.length === 0 || output.length !== input.length) {
      return false;
    }
    const n = input.length;
    const openings: unknown = (proof as { openings?: unknown } | null)?.openings;
    if (!Array.isArray(openings) || openings.length !== lambda) return false;
    const kinds = openings.map((o) => openingKind(o, n));
    if (kinds.some((k) => k === undefined)) return false;

    const G = generator();
    const Y = keyTable(jointY);
    const inPoints = parseDeck(input, 'input');
    const outPoints = parseDeck(output, 'output');
    // An honest re-randomization never yields the identity, nor two equal c1 (which would let one
    // position's shares decrypt another's).
    if (outPoints.some((ct) => ct.c1.is0()) || new Set(output.map((ct) => ct.c1)).size !== n) return false;

    const transcript = shuffleTranscript(context, lambda, jointY, input, output);
    for (const [k, opening] of openings.entries()) {
      const shadow = new Array<PointPair>(n);
      if (kinds[k] === 0) {
        const { perm, rand } = expandSeed(hexToBytes((opening as ShuffleSeedOpening).seed), n);
        for (let i = 0; i < n; i++) {
          const src = inPoints[perm[i] as number] as PointPair;
          const t = rand[i] as bigint;
          shadow[i] = { c1: src.c1.add(G.multiplyUnsafe(t)), c2: src.c2.add(Y.multiplyUnsafe(t)) };
        }
      } else {
        const { perm, rand } = opening as ShufflePermOpening;
        for (let j = 0; j < n; j++) {
          const u = parseScalar(rand[j], `rand[${j}]`);
          const out = outPoints[j] as PointPair;
          shadow[perm[j] as number] = {
            c1: out.c1.subtract(G.multiplyUnsafe(u)),
            c2: out.c2.subtract(Y.multiplyUnsafe(u)),
          };
        }
      }
      for (const ct of shadow) transcript.point(ct.c1).point(ct.c2);
    }
    const digest = transcript.digest();
    return kinds.every((kind, k) => challengeBit(digest, k) === kind);
  } catch {
    return false;
  }
}

/** Re-randomizes one ciphertext under the joint key: (c1 + r·G, c2 + r·Y) for a fresh r. */
export function reencrypt(ct: Ciphertext, jointY: Hex, rng: Rng = defaultRng): Ciphertext {
  const G = generator();
  const Y = keyTable(jointY);
  const c1 = parsePoint(ct.c1, 'c1');
  const c2 = parsePoint(ct.c2, 'c2');
  const r = randomScalar(rng);
  return { c1: c1.add(G.multiply(r)).toHex(), c2: c2.add(Y.multiply(r)).toHex() };
}
