/**
 * The group: ristretto255 from @noble/curves, with the strict hex codecs every public value goes
 * through, randomness, precomputed multiplication tables and Fiat–Shamir transcripts.
 *
 * Conventions: a point travels as its canonical 32-byte ristretto255 encoding in lowercase hex; a
 * scalar as 32 bytes little-endian, reduced mod the group order ℓ, in lowercase hex. Decoding rejects
 * anything else (wrong length, upper case, a non-canonical encoding, a scalar ≥ ℓ).
 */
import { ristretto255 } from '@noble/curves/ed25519.js';
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { BlindError } from './errors.js';

/** Lowercase hex: a point (canonical ristretto255 encoding) or a scalar (32 bytes little-endian). */
export type Hex = string;

/** A source of uniformly random bytes: the optional last argument of every randomized function. */
export type Rng = (bytes: number) => Uint8Array;

export const Point: typeof ristretto255.Point = ristretto255.Point;
export type Point = InstanceType<typeof ristretto255.Point>;

/** The scalar field, modulo the group order ℓ. */
export const Fn = Point.Fn;

/** The identity point's encoding: the c1 of the initial deck's ciphertexts. */
export const IDENTITY_HEX: Hex = '00'.repeat(32);

const HEX32 = /^[0-9a-f]{64}$/;

/** Whether `value` is 32 bytes of lowercase hex (says nothing about it being a valid point). */
export function isHex32(value: unknown): value is Hex {
  return typeof value === 'string' && HEX32.test(value);
}

/** Decodes a point; throws BlindError('invalid_point') on anything but a canonical encoding. */
export function parsePoint(hex: unknown, what = 'point'): Point {
  if (!isHex32(hex)) throw new BlindError('invalid_point', `${what} is not 32 bytes of lowercase hex`);
  try {
    return Point.fromHex(hex);
  } catch (cause) {
    throw new BlindError('invalid_point', `${what} is not a canonical ristretto255 encoding`, { cause });
  }
}

/** Decodes a point that must not be the identity (a key, a re-randomized c1). */
export function parseNonZeroPoint(hex: unknown, what = 'point'): Point {
  const point = parsePoint(hex, what);
  if (point.is0()) throw new BlindError('invalid_point', `${what} is the identity`);
  return point;
}

/** Decodes a scalar (0 ≤ s < ℓ); throws BlindError('invalid_scalar') otherwise. */
export function parseScalar(hex: unknown, what = 'scalar'): bigint {
  if (!isHex32(hex)) throw new BlindError('invalid_scalar', `${what} is not 32 bytes of lowercase hex`);
  const value = bytesToNumberLE(hexToBytes(hex));
  if (value >= Fn.ORDER) throw new BlindError('invalid_scalar', `${what} is not reduced mod the group order`);
  return value;
}

export function scalarHex(value: bigint): Hex {
  return bytesToHex(numberToBytesLE(value, 32));
}

/** A secret scalar must be in [1, ℓ): `Point.multiply` rejects 0 (and so do we). */
export function assertSecretScalar(value: unknown, what = 'secret'): asserts value is bigint {
  if (typeof value !== 'bigint' || !Fn.isValidNot0(value)) {
    throw new BlindError('invalid_scalar', `${what} is not a scalar in [1, ℓ)`);
  }
}

export const defaultRng: Rng = (bytes) => randomBytes(bytes);

/** `bytes` fresh bytes from `rng`, checked. */
export function drawBytes(rng: Rng, bytes: number): Uint8Array {
  const out = rng(bytes);
  if (!(out instanceof Uint8Array) || out.length !== bytes) {
    throw new Error(`the rng returned something other than ${bytes} bytes`);
  }
  return out;
}

/** A uniform scalar in [1, ℓ): 64 random bytes reduced mod ℓ (bias < 2^-250), 0 redrawn. */
export function randomScalar(rng: Rng): bigint {
  for (let attempt = 0; attempt < 8; attempt++) {
    const value = Fn.create(bytesToNumberLE(drawBytes(rng, 64)));
    if (value !== 0n) return value;
  }
  throw new Error('the rng keeps returning bytes that reduce to zero');
}

// ---- precomputed tables ---------------------------------------------------------------------------

// A window of 8 costs ~25 ms to build and makes each multiplication by the point ~8x faster than an
// un-precomputed one. The generator is a decoded copy of Point.BASE: noble's BASE runs the blinded
// constant-time ladder (~1.8x slower); any other point runs the plain constant-time ladder.
const WINDOW = 8;
let generatorTable: Point | undefined;

/** The generator G, with an 8-bit window table. */
export function generator(): Point {
  generatorTable ??= Point.fromHex(Point.BASE.toHex()).precompute(WINDOW, false);
  return generatorTable;
}

// A few joint keys: a shuffle and the verifications that follow all multiply by the same key.
const keyTables = new Map<Hex, Point>();
const KEY_TABLES = 4;

/** A joint key (not the identity) with an 8-bit window table, cached by its encoding. */
export function keyTable(hex: Hex): Point {
  const hit = keyTables.get(hex);
  if (hit !== undefined) return hit;
  const point = parseNonZeroPoint(hex, 'joint key').precompute(WINDOW, false);
  if (keyTables.size >= KEY_TABLES) {
    const oldest = keyTables.keys().next();
    if (oldest.done !== true) keyTables.delete(oldest.value);
  }
  keyTables.set(hex, point);
  return point;
}

// ---- Fiat–Shamir ----------------------------------------------------------------------------------

function u32(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a u32: ${value}`);
  return new Uint8Array([value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/**
 * A SHA-512 transcript. The domain tag and every variable-length item are length-prefixed (u32
 * big-endian); points are their fixed 32-byte encodings, in an order each proof kind fixes.
 */
export class Transcript {
  readonly #hash = sha512.create();

  constructor(domain: string) {
    this.bytes(utf8ToBytes(domain));
  }

  bytes(value: Uint8Array): this {
    this.#hash.update(u32(value.length));
    this.#hash.update(value);
    return this;
  }

  string(value: string): this {
    if (typeof value !== 'string') throw new TypeError('a proof context is a string');
    return this.bytes(utf8ToBytes(value));
  }

  number(value: number): this {
    this.#hash.update(u32(value));
    return this;
  }

  point(value: Point): this {
    this.#hash.update(value.toBytes());
    return this;
  }

  /** A point already known to be a canonical encoding (it was decoded or produced here). */
  pointHex(value: Hex): this {
    this.#hash.update(hexToBytes(value));
    return this;
  }

  digest(): Uint8Array {
    return this.#hash.digest();
  }

  /** The digest as a scalar: 512 bits reduced mod ℓ. */
  challenge(): bigint {
    return Fn.create(bytesToNumberLE(this.digest()));
  }
}

/** Domain tags, one per proof kind (and one per derived stream). */
export const DOMAIN = {
  card: 'felt-eb-v1',
  key: 'felt-eb-v1/key',
  share: 'felt-eb-v1/share',
  shuffle: 'felt-eb-v1/shuffle',
  shadow: 'felt-eb-v1/shuffle/shadow',
} as const;
