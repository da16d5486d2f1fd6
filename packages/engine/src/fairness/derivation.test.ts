import { describe, expect, it } from 'vitest';
import { initialDeck } from '../cards.js';
import {
  DeckStream,
  FairnessError,
  FairnessErrorCode,
  bytesToHex,
  deriveDeckSeed,
  hexToBytes,
  prepareDeck,
  seedCommit,
  shuffleDeck,
  toRevealRecord,
} from './index.js';

// The test vectors of docs/fairness.md ("Test vectors"), verbatim.
const SERVER_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const HAND_ID = '00000000-0000-4000-8000-000000000000';
const SEAT1 = { seat: 1, seed: new Uint8Array(32).fill(0x22) };
const SEAT3 = { seat: 3, seed: new Uint8Array(32).fill(0x11) };

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof FairnessError) return err.code;
    throw err;
  }
  return undefined;
}

describe('docs/fairness.md test vectors', () => {
  it('seed_commit', () => {
    expect(seedCommit(SERVER_SEED)).toBe('sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
  });

  it('no client seeds: deck seed and the first ten cards of both decks', () => {
    const deckSeed = deriveDeckSeed(SERVER_SEED, HAND_ID, []);
    expect(bytesToHex(deckSeed)).toBe('06980780c6fe2c763ce8ad8a0c4c6960e7180e714cd5a58a6d77381c062ee664');
    expect(shuffleDeck(deckSeed, 'standard52').slice(0, 10).join(' ')).toBe('2s 6d 7c Ts Kh Ah 2c 8s 8h 6h');
    expect(shuffleDeck(deckSeed, 'short36').slice(0, 10).join(' ')).toBe('Js 8h 7s 6s 6d 9h As 8s 9s Jc');
  });

  it('two client seeds, given out of seat order: deck seed and all 52 cards', () => {
    const deckSeed = deriveDeckSeed(SERVER_SEED, HAND_ID, [SEAT3, SEAT1]);
    expect(bytesToHex(deckSeed)).toBe('356c3e901778d5cc9aae2d3f17e5b693ce3d203c708bd69fe188b029b23664fc');
    expect(shuffleDeck(deckSeed, 'standard52').join(' ')).toBe(
      'Th 2s 3h 7h 9h 8s 8c 9s 4c 8h Td 2d Qs Kh Jd 4s Ac 2c Qc Ks 4d 6d Kd 6h 9d 9c 7d Jc Kc Qh 6c As 5c Tc 8d 5s 3s 7s Jh Ad Qd 3c Ts 7c 5h 6s Js 3d 2h Ah 5d 4h',
    );
  });

  it('prepareDeck and toRevealRecord carry the same material', () => {
    const { commitment, order, streamPosition } = prepareDeck({
      handId: HAND_ID,
      serverSeed: SERVER_SEED,
      clientSeeds: [SEAT3, SEAT1],
      kind: 'standard52',
    });
    expect(order[0]).toBe('Th');
    expect(commitment.clientSeeds.map((s) => s.seat)).toEqual([1, 3]);
    expect(streamPosition).toBeGreaterThanOrEqual(51 * 4);
    const record = toRevealRecord(commitment, 'holdem', [
      { index: 0, card: 'Th' },
      { index: 1, card: '2s' },
    ]);
    expect(record).toEqual({
      hand_id: HAND_ID,
      seed_commit: 'sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
      server_seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      client_seeds: [
        { seat: 1, seed: '22'.repeat(32) },
        { seat: 3, seed: '11'.repeat(32) },
      ],
      deck_seed: '356c3e901778d5cc9aae2d3f17e5b693ce3d203c708bd69fe188b029b23664fc',
      variant: 'holdem',
      version: 'felt-deck-v1',
      deck: 'standard52',
      dealt: [
        { index: 0, card: 'Th' },
        { index: 1, card: '2s' },
      ],
    });
    expect(record).not.toHaveProperty('reshuffles');
  });
});

describe('derivation inputs', () => {
  it('the deck is a permutation of the initial deck', () => {
    const deck = shuffleDeck(deriveDeckSeed(SERVER_SEED, HAND_ID, [SEAT1]), 'short36');
    expect([...deck].sort()).toEqual(initialDeck('short36').sort());
  });

  it('every input changes the deck seed', () => {
    const base = bytesToHex(deriveDeckSeed(SERVER_SEED, HAND_ID, [SEAT1]));
    const otherServer = Uint8Array.from(SERVER_SEED);
    otherServer[31] = 31 ^ 1;
    const variants = [
      deriveDeckSeed(otherServer, HAND_ID, [SEAT1]),
      deriveDeckSeed(SERVER_SEED, '00000000-0000-4000-8000-000000000001', [SEAT1]),
      deriveDeckSeed(SERVER_SEED, HAND_ID, []),
      deriveDeckSeed(SERVER_SEED, HAND_ID, [{ seat: 2, seed: SEAT1.seed }]),
      deriveDeckSeed(SERVER_SEED, HAND_ID, [{ seat: 1, seed: SEAT3.seed }]),
    ].map(bytesToHex);
    expect(new Set([base, ...variants]).size).toBe(6);
  });

  it('refuses inputs the derivation rules out', () => {
    expect(code(() => seedCommit(new Uint8Array(31)))).toBe(FairnessErrorCode.INVALID_SEED);
    expect(code(() => deriveDeckSeed(new Uint8Array(33), HAND_ID, []))).toBe(FairnessErrorCode.INVALID_SEED);
    expect(code(() => deriveDeckSeed(SERVER_SEED, 'ABCDEF00-0000-4000-8000-000000000000', []))).toBe(
      FairnessErrorCode.INVALID_HAND_ID,
    );
    expect(code(() => deriveDeckSeed(SERVER_SEED, 'hand-1', []))).toBe(FairnessErrorCode.INVALID_HAND_ID);
    expect(code(() => deriveDeckSeed(SERVER_SEED, HAND_ID, [SEAT1, { seat: 1, seed: SEAT3.seed }]))).toBe(
      FairnessErrorCode.DUPLICATE_SEAT,
    );
    expect(code(() => deriveDeckSeed(SERVER_SEED, HAND_ID, [{ seat: 256, seed: SEAT1.seed }]))).toBe(
      FairnessErrorCode.INVALID_SEAT,
    );
    expect(code(() => deriveDeckSeed(SERVER_SEED, HAND_ID, [{ seat: 1.5, seed: SEAT1.seed }]))).toBe(
      FairnessErrorCode.INVALID_SEAT,
    );
    expect(code(() => deriveDeckSeed(SERVER_SEED, HAND_ID, [{ seat: 1, seed: new Uint8Array(16) }]))).toBe(
      FairnessErrorCode.INVALID_SEED,
    );
  });
});

describe('hex', () => {
  it('round-trips and accepts either case', () => {
    expect(bytesToHex(hexToBytes('00ff10AB'))).toBe('00ff10ab');
    expect(bytesToHex(new Uint8Array(0))).toBe('');
  });

  it('refuses odd lengths and non-hex characters', () => {
    expect(code(() => hexToBytes('abc'))).toBe(FairnessErrorCode.INVALID_HEX);
    expect(code(() => hexToBytes('zz'))).toBe(FairnessErrorCode.INVALID_HEX);
    expect(code(() => hexToBytes('0g'))).toBe(FairnessErrorCode.INVALID_HEX);
  });
});

describe('DeckStream', () => {
  const deckSeed = deriveDeckSeed(SERVER_SEED, HAND_ID, []);

  it('reads SHA-256(deck_seed || uint32_be(k)) block after block, big-endian', async () => {
    const { sha256 } = await import('@noble/hashes/sha2.js');
    const stream = new DeckStream(deckSeed);
    const words = Array.from({ length: 16 }, () => stream.nextUint32());
    const expected = [0, 1].flatMap((k) => {
      const input = new Uint8Array(36);
      input.set(deckSeed);
      new DataView(input.buffer).setUint32(32, k, false);
      const view = new DataView(sha256(input).buffer);
      return Array.from({ length: 8 }, (_, w) => view.getUint32(4 * w, false));
    });
    expect(words).toEqual(expected);
    expect(stream.position).toBe(64);
  });

  it('resumes from a serialized position mid-block with the same words', () => {
    const a = new DeckStream(deckSeed);
    for (let i = 0; i < 13; i++) a.draw(52);
    const state = JSON.parse(JSON.stringify(a)) as { position: number };
    const b = DeckStream.fromState(deckSeed, state);
    expect(Array.from({ length: 40 }, () => b.draw(7))).toEqual(Array.from({ length: 40 }, () => a.draw(7)));
    expect(b.position).toBe(a.position);
  });

  it('refuses positions that are not word-aligned', () => {
    expect(code(() => new DeckStream(deckSeed, 3))).toBe(FairnessErrorCode.INVALID_STREAM_POSITION);
    expect(code(() => new DeckStream(deckSeed, -4))).toBe(FairnessErrorCode.INVALID_STREAM_POSITION);
  });
});
