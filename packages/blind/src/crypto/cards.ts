/**
 * Card encodings and the initial deck. Card `name` is the point
 * `hash_to_ristretto255("felt-eb-v1" ‖ name)` (RFC 9380, expand_message_xmd with SHA-512) under the
 * DST "felt-eb-v1": public, distinct, and nobody knows a discrete log between two of them.
 */
import { ristretto255_hasher } from '@noble/curves/ed25519.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { BlindError } from './errors.js';
import { DOMAIN, IDENTITY_HEX, type Hex } from './group.js';

/** An ElGamal ciphertext (c1, c2) = (r·G, M + r·Y) under a joint key Y. */
export interface Ciphertext {
  readonly c1: Hex;
  readonly c2: Hex;
}

// Hashing to the curve costs ~0.2 ms; decks are rebuilt often (a lookup per opening) from a few names.
const cardPoints = new Map<string, Hex>();
const CARD_CACHE = 1024;

/** The public encoding of a card. */
export function cardPoint(card: string): Hex {
  if (typeof card !== 'string' || card.length === 0)
    throw new BlindError('bad_deck', 'a card name is a non-empty string');
  const hit = cardPoints.get(card);
  if (hit !== undefined) return hit;
  const hex = ristretto255_hasher.hashToCurve(utf8ToBytes(DOMAIN.card + card), { DST: DOMAIN.card }).toHex();
  if (cardPoints.size >= CARD_CACHE) cardPoints.clear();
  cardPoints.set(card, hex);
  return hex;
}

function distinctPoints(cards: readonly string[]): Hex[] {
  if (!Array.isArray(cards) || cards.length === 0) throw new BlindError('bad_deck', 'a deck has at least one card');
  const points = cards.map(cardPoint);
  if (new Set(cards).size !== cards.length || new Set(points).size !== points.length) {
    throw new BlindError('bad_deck', 'a deck names each card once');
  }
  return points;
}

/**
 * The deck before any shuffle: card i encrypted with randomness 0, (identity, M_i), in the order
 * given. Anyone can recompute it. Throws BlindError('bad_deck') on an empty deck or a repeated name.
 */
export function initialDeck(cards: readonly string[]): Ciphertext[] {
  return distinctPoints(cards).map((c2) => ({ c1: IDENTITY_HEX, c2 }));
}

/** A lookup from a decrypted point (hex) to its card name; undefined for a point that is no card. */
export function cardIndex(cards: readonly string[]): (point: Hex) => string | undefined {
  const points = distinctPoints(cards);
  const byPoint = new Map<Hex, string>();
  points.forEach((point, i) => byPoint.set(point, cards[i] as string));
  return (point) => byPoint.get(point);
}
