import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { initialDeck, type Card, type DeckKind } from '../cards.js';
import { FairnessError, FairnessErrorCode } from './errors.js';
import { bytesToHex } from './hex.js';

// The felt-deck-v1 derivation. "Step N" below is step N of docs/fairness.md, "The derivation
// (felt-deck-v1)", the byte-exact specification this file implements.

/** The version tag mixed into every deck seed; bumping it is the only way to change the derivation. */
export const DERIVATION_VERSION = 'felt-deck-v1';
export type DerivationVersion = typeof DERIVATION_VERSION;

export const SEED_BYTES = 32;

/** One accepted client seed: the seat that sent it and its 32 bytes. */
export interface ClientSeed {
  seat: number;
  seed: Uint8Array;
}

const UUID_LOWER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Step 1: a hand id is a lowercase, hyphenated UUID. */
export function isHandId(value: string): boolean {
  return UUID_LOWER.test(value);
}

export function assertHandId(handId: string): void {
  if (!isHandId(handId)) {
    throw new FairnessError(FairnessErrorCode.INVALID_HAND_ID, 'hand_id must be a lowercase hyphenated UUID', {
      handId,
    });
  }
}

function assertSeed(seed: Uint8Array, what: string): void {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_BYTES) {
    throw new FairnessError(FairnessErrorCode.INVALID_SEED, `${what} must be exactly ${SEED_BYTES} bytes`, {
      what,
      length: seed instanceof Uint8Array ? seed.length : null,
    });
  }
}

/** Step 3: `"sha256:" + hex(SHA-256(server_seed))`. */
export function seedCommit(serverSeed: Uint8Array): string {
  assertSeed(serverSeed, 'server_seed');
  return `sha256:${bytesToHex(sha256(serverSeed))}`;
}

/**
 * Client seeds in the order the derivation mixes them: seat ascending. Refuses what steps 4–5 rule out
 * (a seat outside one byte, two seeds for one seat, a seed that is not 32 bytes) instead of silently
 * picking one, because the verifier would then disagree with the dealer.
 */
export function sortClientSeeds(clientSeeds: readonly ClientSeed[]): ClientSeed[] {
  const seen = new Set<number>();
  for (const { seat, seed } of clientSeeds) {
    if (!Number.isInteger(seat) || seat < 0 || seat > 255) {
      throw new FairnessError(FairnessErrorCode.INVALID_SEAT, 'a client seed seat must be an integer in 0..255', {
        seat,
      });
    }
    if (seen.has(seat)) {
      throw new FairnessError(FairnessErrorCode.DUPLICATE_SEAT, 'at most one client seed per seat', { seat });
    }
    seen.add(seat);
    assertSeed(seed, `client seed of seat ${seat}`);
  }
  return [...clientSeeds].sort((a, b) => a.seat - b.seat);
}

/**
 * Step 5:
 * `HMAC-SHA256(server_seed, "felt-deck-v1" || 0x00 || utf8(hand_id) || 0x00 || (byte(seat) || seed)*)`,
 * client seeds in seat order whatever order they arrive in.
 */
export function deriveDeckSeed(serverSeed: Uint8Array, handId: string, clientSeeds: readonly ClientSeed[]): Uint8Array {
  assertSeed(serverSeed, 'server_seed');
  assertHandId(handId);
  const sorted = sortClientSeeds(clientSeeds);
  const version = utf8ToBytes(DERIVATION_VERSION);
  const hand = utf8ToBytes(handId);
  const message = new Uint8Array(version.length + 1 + hand.length + 1 + sorted.length * (1 + SEED_BYTES));
  let at = 0;
  message.set(version, at);
  at += version.length + 1; // the 0x00 separator is already zero
  message.set(hand, at);
  at += hand.length + 1;
  for (const { seat, seed } of sorted) {
    message[at] = seat;
    message.set(seed, at + 1);
    at += 1 + SEED_BYTES;
  }
  return hmac(sha256, serverSeed, message);
}

const TWO_32 = 2 ** 32;
const BLOCK_BYTES = 32;
/** The block counter is a uint32, so the stream is finite (about 137 GB): unreachable in a hand, but refused. */
const MAX_POSITION = TWO_32 * BLOCK_BYTES;

/**
 * Step 7's acceptance bound: `2^32 − (2^32 mod n)`, the largest multiple of n not above 2^32.
 * Values at or above it are rejected so that every residue has exactly `limit / n` preimages.
 */
export function drawLimit(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) {
    throw new FairnessError(FairnessErrorCode.INVALID_DRAW_BOUND, 'draw bound must be an integer in 1..2^32', { n });
  }
  return TWO_32 - (TWO_32 % n);
}

/**
 * Step 7 over any source of big-endian uint32 words. Kept separate from the SHA-256 stream so
 * a test can feed it crafted words and check the rejection boundary directly.
 */
export function uniformDraw(nextUint32: () => number, n: number): number {
  const limit = drawLimit(n);
  for (;;) {
    const x = nextUint32();
    if (x < limit) return x % n;
  }
}

/** Serializable position of a {@link DeckStream}: bytes consumed from the start of the stream. */
export interface DeckStreamState {
  position: number;
}

/**
 * Step 6: the byte stream `SHA-256(deck_seed || uint32_be(k))` for k = 0, 1, 2, … and the draws
 * read from it. The stream is consumed four bytes at a time and 32 is a multiple of four, so a word never
 * straddles two blocks and a position is always a multiple of four.
 *
 * The initial shuffle reads the stream from position 0; the draw-game reshuffle (docs/fairness.md) continues
 * from wherever the shuffle stopped, which is why the position is exposed and restorable.
 */
export class DeckStream {
  readonly #input: Uint8Array;
  readonly #view: DataView;
  #position: number;
  #blockIndex = -1;
  #block: DataView | undefined;

  constructor(deckSeed: Uint8Array, position = 0) {
    assertSeed(deckSeed, 'deck_seed');
    if (!Number.isInteger(position) || position < 0 || position % 4 !== 0 || position >= MAX_POSITION) {
      throw new FairnessError(
        FairnessErrorCode.INVALID_STREAM_POSITION,
        'a stream position is a non-negative multiple of 4',
        { position },
      );
    }
    this.#input = new Uint8Array(SEED_BYTES + 4);
    this.#input.set(deckSeed, 0);
    this.#view = new DataView(this.#input.buffer);
    this.#position = position;
  }

  static fromState(deckSeed: Uint8Array, state: DeckStreamState): DeckStream {
    return new DeckStream(deckSeed, state.position);
  }

  /** Bytes consumed so far. */
  get position(): number {
    return this.#position;
  }

  toJSON(): DeckStreamState {
    return { position: this.#position };
  }

  /** The next four stream bytes as a big-endian uint32. */
  nextUint32(): number {
    if (this.#position >= MAX_POSITION) {
      throw new FairnessError(FairnessErrorCode.STREAM_EXHAUSTED, 'the byte stream has no block 2^32', {
        position: this.#position,
      });
    }
    const k = Math.floor(this.#position / BLOCK_BYTES);
    if (k !== this.#blockIndex || this.#block === undefined) {
      this.#view.setUint32(SEED_BYTES, k, false);
      const digest = sha256(this.#input);
      this.#block = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
      this.#blockIndex = k;
    }
    const word = this.#block.getUint32(this.#position % BLOCK_BYTES, false);
    this.#position += 4;
    return word;
  }

  /** A uniform integer in [0, n), by step 7's rejection sampling. */
  draw(n: number): number {
    return uniformDraw(() => this.nextUint32(), n);
  }
}

/** Step 9, in place: for i from len−1 down to 1, j = draw(i + 1), swap. */
export function fisherYates<T>(items: T[], stream: DeckStream): T[] {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = stream.draw(i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

/** The shuffled deck and the stream left where the shuffle stopped, for a later draw-game reshuffle. */
export function shuffleDeckWithStream(deckSeed: Uint8Array, kind: DeckKind): { order: Card[]; stream: DeckStream } {
  const stream = new DeckStream(deckSeed);
  const order = fisherYates(initialDeck(kind), stream);
  return { order, stream };
}

/** Steps 6–9: the deck order for a deck seed. Dealing takes `order[0]` upward. */
export function shuffleDeck(deckSeed: Uint8Array, kind: DeckKind): Card[] {
  return shuffleDeckWithStream(deckSeed, kind).order;
}
