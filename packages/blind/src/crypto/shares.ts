/**
 * Decryption shares: D = x·c1 with a Chaum–Pedersen proof that log_G(Y) = log_c1(D), and opening a
 * card from all the shares, M = c2 − Σ D.
 */
import { mulAddUnsafe } from '@noble/curves/abstract/curve.js';
import type { Ciphertext } from './cards.js';
import { BlindError } from './errors.js';
import {
  DOMAIN,
  assertSecretScalar,
  defaultRng,
  generator,
  parseNonZeroPoint,
  parsePoint,
  parseScalar,
  randomScalar,
  scalarHex,
  Point,
  Transcript,
  Fn,
  type Hex,
  type Rng,
} from './group.js';
import type { PlayerKey } from './keys.js';

/** D = x·c1 and a DLEQ proof in (challenge, response) form: A = s·G − c·Y, B = s·c1 − c·D, c = H(ctx, Y, c1, c2, D, A, B). */
export interface DecryptionShare {
  readonly D: Hex;
  readonly c: Hex;
  readonly s: Hex;
}

function shareChallenge(context: string, Y: Hex, ct: Ciphertext, D: Hex, A: Point, B: Point): bigint {
  return new Transcript(DOMAIN.share)
    .string(context)
    .pointHex(Y)
    .pointHex(ct.c1)
    .pointHex(ct.c2)
    .pointHex(D)
    .point(A)
    .point(B)
    .challenge();
}

/** The c1 a share is taken of: a valid point, never the identity (only the unshuffled deck has that). */
function shareBase(ct: Ciphertext): Point {
  const c1 = parseNonZeroPoint(ct.c1, 'c1');
  parsePoint(ct.c2, 'c2');
  return c1;
}

/** This key's share of a ciphertext, with its proof. Throws BlindError on a malformed ciphertext or key. */
export function decryptionShare(
  key: PlayerKey,
  ct: Ciphertext,
  context: string,
  rng: Rng = defaultRng,
): DecryptionShare {
  assertSecretScalar(key.x, 'key.x');
  const c1 = shareBase(ct);
  const G = generator();
  const Y = G.multiply(key.x).toHex();
  if (Y !== key.Y) throw new BlindError('invalid_point', 'key.Y is not x·G');
  const D = c1.multiply(key.x).toHex();
  const k = randomScalar(rng);
  const c = shareChallenge(context, Y, ct, D, G.multiply(k), c1.multiply(k));
  const s = Fn.add(k, Fn.mul(c, key.x));
  return { D, c: scalarHex(c), s: scalarHex(s) };
}

/** Whether `share` is the share of `ct` for the key Y under this context. False, never a throw, on bad input. */
export function verifyShare(Y: Hex, ct: Ciphertext, share: DecryptionShare, context: string): boolean {
  try {
    const Yp = parseNonZeroPoint(Y, 'Y');
    const c1 = shareBase(ct);
    const D = parseNonZeroPoint(share.D, 'D');
    const c = parseScalar(share.c, 'c');
    const s = parseScalar(share.s, 's');
    const negC = Fn.neg(c);
    const A = generator().multiplyUnsafe(s).add(Yp.multiplyUnsafe(negC));
    const B = mulAddUnsafe(Point, [c1, D], [s, negC]);
    return shareChallenge(context, Y, ct, share.D, A, B) === c;
  } catch {
    return false;
  }
}

/** The share a card's owner computes for itself and never sends: x·c1. */
export function ownShare(key: PlayerKey, ct: Ciphertext): Hex {
  assertSecretScalar(key.x, 'key.x');
  return shareBase(ct).multiply(key.x).toHex();
}

/**
 * Opens a ciphertext with every key's share: M = c2 − Σ D, looked up among the cards. Throws
 * BlindError('invalid_point') on a malformed point and BlindError('not_a_card') when M is no card.
 */
export function openCard(ct: Ciphertext, Ds: readonly Hex[], lookup: (point: Hex) => string | undefined): string {
  parsePoint(ct.c1, 'c1');
  let M = parsePoint(ct.c2, 'c2');
  for (const [i, D] of Ds.entries()) M = M.subtract(parsePoint(D, `share ${i}`));
  const card = lookup(M.toHex());
  if (card === undefined) throw new BlindError('not_a_card', 'the decrypted point is not a card');
  return card;
}
