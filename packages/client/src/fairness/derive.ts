/**
 * felt-deck-v1, written from its specification alone (docs/fairness.md, "The derivation
 * (felt-deck-v1)"). This is deliberately a second implementation: the verifier does not import
 * @felt/engine, so a bug (or a lie) in the dealer's code cannot make its own check pass. It runs
 * anywhere @noble/hashes does: browsers, bots, Node.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

export const FELT_DECK_V1 = 'felt-deck-v1';

export const DeckKind = { STANDARD52: 'standard52', SHORT36: 'short36' } as const;
export type DeckKind = (typeof DeckKind)[keyof typeof DeckKind];

const SUIT_ORDER = 'cdhs';
const RANK_ORDER = '23456789TJQKA';

/** Step 8: suits c, d, h, s; ranks ascending from 2 (from 6 for the short deck). */
export function unshuffledDeck(kind: DeckKind): string[] {
  const ranks = kind === DeckKind.SHORT36 ? RANK_ORDER.slice(RANK_ORDER.indexOf('6')) : RANK_ORDER;
  const cards: string[] = [];
  for (const suit of SUIT_ORDER) for (const rank of ranks) cards.push(rank + suit);
  return cards;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Strict: even length, hex digits only, either case. Returns null rather than guessing. */
export function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Step 3. */
export function commitOf(serverSeed: Uint8Array): string {
  return 'sha256:' + toHex(sha256(serverSeed));
}

function ascii(text: string): number[] {
  // UTF-8 by hand, so the module needs no TextEncoder typing; hand ids are ASCII UUIDs in practice.
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

/** Step 5. Seeds are mixed in seat order whatever order they are listed in. */
export function deckSeedOf(
  serverSeed: Uint8Array,
  handId: string,
  clientSeeds: readonly { seat: number; seed: Uint8Array }[],
): Uint8Array {
  const message: number[] = [...ascii(FELT_DECK_V1), 0, ...ascii(handId), 0];
  const bySeat = [...clientSeeds].sort((x, y) => x.seat - y.seat);
  for (const entry of bySeat) message.push(entry.seat, ...entry.seed);
  return hmac(sha256, serverSeed, Uint8Array.from(message));
}

/**
 * Steps 6 and 7: the byte stream SHA-256(deck_seed || uint32_be(k)), read as big-endian words, with
 * rejection sampling. One object per hand, so a draw-game reshuffle keeps reading where the shuffle stopped.
 */
export class ByteStream {
  private readonly deckSeed: Uint8Array;
  private counter = 0;
  private pending: number[] = [];
  /** Total bytes handed out; the engine exposes the same number as its stream position. */
  bytesRead = 0;

  constructor(deckSeed: Uint8Array) {
    this.deckSeed = deckSeed;
  }

  private refill(): void {
    const input = new Uint8Array(this.deckSeed.length + 4);
    input.set(this.deckSeed);
    const k = this.counter++;
    input[input.length - 4] = (k >>> 24) & 255;
    input[input.length - 3] = (k >>> 16) & 255;
    input[input.length - 2] = (k >>> 8) & 255;
    input[input.length - 1] = k & 255;
    this.pending.push(...sha256(input));
  }

  word(): number {
    while (this.pending.length < 4) this.refill();
    const [a, b, c, d] = this.pending.splice(0, 4) as [number, number, number, number];
    this.bytesRead += 4;
    return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  }

  /** Uniform in [0, n): reject x ≥ 2^32 − (2^32 mod n), else x mod n. */
  below(n: number): number {
    const span = 0x1_0000_0000;
    const limit = span - (span % n);
    let x = this.word();
    while (x >= limit) x = this.word();
    return x % n;
  }
}

/** Step 9: Fisher–Yates from the top index down. Returns a new array. */
export function fisherYatesWith(cards: readonly string[], stream: ByteStream): string[] {
  const out = cards.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    const held = out[j] as string;
    out[j] = out[i] as string;
    out[i] = held;
  }
  return out;
}

/** The deck order of a felt-deck-v1 hand without reshuffles. */
export function deckOrder(deckSeed: Uint8Array, kind: DeckKind): string[] {
  return fisherYatesWith(unshuffledDeck(kind), new ByteStream(deckSeed));
}
