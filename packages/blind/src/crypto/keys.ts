/**
 * Per-hand keys: a secret scalar x, the public Y = x·G, a Schnorr proof of knowledge of x bound to a
 * context, and the joint key Σ Y_j. The proof of knowledge is what stops a rogue key (Y = x·G − Σ others).
 */
import { BlindError } from './errors.js';
import {
  DOMAIN,
  assertSecretScalar,
  defaultRng,
  generator,
  parseNonZeroPoint,
  parseScalar,
  randomScalar,
  scalarHex,
  Point,
  Transcript,
  Fn,
  type Hex,
  type Rng,
} from './group.js';

/** A player's key for one hand. `x` never leaves the process. */
export interface PlayerKey {
  readonly x: bigint;
  readonly Y: Hex;
}

/** Schnorr proof of knowledge of log_G(Y), in (challenge, response) form: R = s·G − c·Y, c = H(ctx, Y, R). */
export interface KeyProof {
  readonly Y: Hex;
  readonly c: Hex;
  readonly s: Hex;
}

export function generateKey(rng: Rng = defaultRng): PlayerKey {
  const x = randomScalar(rng);
  return { x, Y: generator().multiply(x).toHex() };
}

function keyChallenge(context: string, Y: Hex, R: Point): bigint {
  return new Transcript(DOMAIN.key).string(context).pointHex(Y).point(R).challenge();
}

/** Recomputes Y from x; throws BlindError if the key is not a valid pair. */
function checkKey(key: PlayerKey): Point {
  assertSecretScalar(key.x, 'key.x');
  const Y = generator().multiply(key.x);
  if (Y.toHex() !== key.Y) throw new BlindError('invalid_point', 'key.Y is not x·G');
  return Y;
}

export function proveKey(key: PlayerKey, context: string, rng: Rng = defaultRng): KeyProof {
  checkKey(key);
  const k = randomScalar(rng);
  const c = keyChallenge(context, key.Y, generator().multiply(k));
  const s = Fn.add(k, Fn.mul(c, key.x));
  return { Y: key.Y, c: scalarHex(c), s: scalarHex(s) };
}

/** Whether the proof shows knowledge of log_G(Y) under this context. False, never a throw, on bad input. */
export function verifyKey(proof: KeyProof, context: string): boolean {
  try {
    const Y = parseNonZeroPoint(proof.Y, 'Y');
    const c = parseScalar(proof.c, 'c');
    const s = parseScalar(proof.s, 's');
    const R = generator().multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
    return keyChallenge(context, proof.Y, R) === c;
  } catch {
    return false;
  }
}

/** The joint key Σ Y_j. Throws BlindError('invalid_point') on a malformed or identity key, an empty list, or an identity sum. */
export function jointKey(Ys: readonly Hex[]): Hex {
  if (!Array.isArray(Ys) || Ys.length === 0)
    throw new BlindError('invalid_point', 'a joint key needs at least one key');
  let sum = Point.ZERO;
  for (const [i, Y] of Ys.entries()) sum = sum.add(parseNonZeroPoint(Y, `key ${i}`));
  if (sum.is0()) throw new BlindError('invalid_point', 'the keys sum to the identity');
  return sum.toHex();
}
