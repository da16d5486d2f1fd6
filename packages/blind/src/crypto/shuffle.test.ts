import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from './seeded-rng.test-support.js';
import { cardIndex, initialDeck, type Ciphertext } from './cards.js';
import { Fn, IDENTITY_HEX, Point, parseScalar, scalarHex } from './group.js';
import { generateKey, jointKey, type PlayerKey } from './keys.js';
import { decryptionShare, openCard, ownShare, verifyShare } from './shares.js';
import {
  DEFAULT_LAMBDA,
  MAX_LAMBDA,
  expandSeed,
  reencrypt,
  shuffleDeck,
  verifyShuffle,
  type ShuffleOpening,
  type ShufflePermOpening,
  type ShuffleProof,
  type ShuffleSeedOpening,
} from './shuffle.js';

const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
const FULL = RANKS.flatMap((r) => ['c', 'd', 'h', 's'].map((s) => `${r}${s}`));
const SHORT = FULL.slice(0, 8);
const LAMBDA = 8;

function players(n: number, label: string): { keys: PlayerKey[]; Y: string } {
  const keys = Array.from({ length: n }, (_, i) => generateKey(seededRng(`${label}/key${i}`)));
  return { keys, Y: jointKey(keys.map((k) => k.Y)) };
}

/** Opens every position with every key's share (verifying each share on the way). */
function openAll(deck: readonly Ciphertext[], keys: readonly PlayerKey[], cards: readonly string[]): string[] {
  const lookup = cardIndex(cards);
  return deck.map((ct, position) =>
    openCard(
      ct,
      keys.map((k, seat) => {
        const share = decryptionShare(k, ct, `share|${position}|${seat}`);
        expect(verifyShare(k.Y, ct, share, `share|${position}|${seat}`)).toBe(true);
        return share.D;
      }),
      lookup,
    ),
  );
}

const isSeed = (o: ShuffleOpening): o is ShuffleSeedOpening => 'seed' in o;
const isPerm = (o: ShuffleOpening): o is ShufflePermOpening => 'perm' in o;

describe('expandSeed', () => {
  it('is deterministic and yields a permutation and non-zero scalars', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 60 }), (seed, n) => {
        const a = expandSeed(seed, n);
        expect(expandSeed(seed, n)).toEqual(a);
        expect([...a.perm].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
        expect(a.rand).toHaveLength(n);
        for (const r of a.rand) expect(r > 0n && r < Fn.ORDER).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});

describe('shuffleDeck / verifyShuffle', () => {
  const { keys, Y } = players(3, 'fixed');
  const input = shuffleDeck(initialDeck(SHORT), Y, 'first', { lambda: LAMBDA, rng: seededRng('first') }).output;
  const context = 't1|h1|shuffle|2';
  const { output, proof } = shuffleDeck(input, Y, context, { lambda: LAMBDA, rng: seededRng('second') });
  const verify = (
    o: readonly Ciphertext[] = output,
    p: unknown = proof,
    extra: { input?: readonly Ciphertext[]; Y?: string; context?: string; lambda?: number } = {},
  ) =>
    verifyShuffle(extra.input ?? input, o, extra.Y ?? Y, p as ShuffleProof, extra.context ?? context, {
      lambda: extra.lambda ?? LAMBDA,
    });
  const firstSeed = proof.openings.findIndex(isSeed);
  const firstPerm = proof.openings.findIndex(isPerm);
  const withOpening = (k: number, opening: unknown) => ({
    openings: proof.openings.map((o, i) => (i === k ? opening : o)),
  });

  it('accepts an honest shuffle, also after a JSON round trip', () => {
    expect(verify()).toBe(true);
    const wire = JSON.parse(JSON.stringify({ output, proof })) as { output: Ciphertext[]; proof: ShuffleProof };
    expect(verify(wire.output, wire.proof)).toBe(true);
  });

  it('re-randomizes every ciphertext and opens both ways', () => {
    const before = new Set(input.flatMap((ct) => [ct.c1, ct.c2]));
    for (const ct of output) {
      expect(before.has(ct.c1) || before.has(ct.c2)).toBe(false);
      expect(ct.c1).not.toBe(IDENTITY_HEX);
    }
    expect(proof.openings).toHaveLength(LAMBDA);
    expect(firstSeed).toBeGreaterThanOrEqual(0);
    expect(firstPerm).toBeGreaterThanOrEqual(0);
    expect(openAll(output, keys, SHORT).sort()).toEqual([...SHORT].sort());
  });

  it('is deterministic under a seeded rng', () => {
    const again = shuffleDeck(input, Y, context, { lambda: LAMBDA, rng: seededRng('second') });
    expect(again).toEqual({ output, proof });
  });

  it('rejects a swapped, replaced or duplicated output card', () => {
    const swapped = [output[1]!, output[0]!, ...output.slice(2)];
    const replaced = [reencrypt(output[0]!, Y, seededRng('replaced')), ...output.slice(1)];
    const otherCard = [
      shuffleDeck(initialDeck(['Xx']), Y, 'x', { lambda: 1, rng: seededRng('other') }).output[0]!,
      ...output.slice(1),
    ];
    const duplicated = [output[0]!, output[0]!, ...output.slice(2)];
    const sameC1 = [output[0]!, { c1: output[0]!.c1, c2: output[1]!.c2 }, ...output.slice(2)];
    // Seeded: at lambda 8 a random forgery would pass one run in 256.
    for (const bad of [swapped, replaced, otherCard, duplicated, sameC1]) expect(verify(bad)).toBe(false);
  });

  it('rejects an output ciphertext whose c1 is the identity', () => {
    expect(verify([{ c1: IDENTITY_HEX, c2: output[0]!.c2 }, ...output.slice(1)])).toBe(false);
  });

  it('rejects a tampered shadow (a seed opening that rebuilds another shadow)', () => {
    const seed = (proof.openings[firstSeed] as ShuffleSeedOpening).seed;
    const flipped = `${seed.slice(0, -1)}${seed.endsWith('0') ? '1' : '0'}`;
    expect(verify(output, withOpening(firstSeed, { seed: flipped }))).toBe(false);
    // A shadow from a fresh seed, or a seed where a permutation opening was due.
    expect(verify(output, withOpening(firstSeed, { seed: bytesToHex(randomBytes(32)) }))).toBe(false);
    expect(verify(output, withOpening(firstPerm, { seed }))).toBe(false);
  });

  it('rejects a tampered permutation opening', () => {
    const opening = proof.openings[firstPerm] as ShufflePermOpening;
    const [a, b, ...rest] = opening.perm;
    const swappedPerm = { ...opening, perm: [b, a, ...rest] };
    const swappedBoth = { perm: [b, a, ...rest], rand: [opening.rand[1], opening.rand[0], ...opening.rand.slice(2)] };
    const r0 = Fn.add(parseScalar(opening.rand[0]), 1n);
    const bumped = { ...opening, rand: [scalarHex(r0), ...opening.rand.slice(1)] };
    for (const bad of [swappedPerm, swappedBoth, bumped])
      expect(verify(output, withOpening(firstPerm, bad))).toBe(false);
  });

  it('rejects a proof for another context, joint key, input or output', () => {
    expect(verify(output, proof, { context: 't1|h1|shuffle|3' })).toBe(false);
    expect(verify(output, proof, { Y: players(2, 'other').Y })).toBe(false);
    expect(verify(output, proof, { input: initialDeck(SHORT) })).toBe(false);
    // A proof reused with another honest shuffle of the same input.
    const another = shuffleDeck(input, Y, context, { lambda: LAMBDA, rng: seededRng('another') });
    expect(verify(another.output, proof)).toBe(false);
    expect(verify(output, another.proof)).toBe(false);
  });

  it('rejects the wrong lambda and truncated arrays', () => {
    expect(verify(output, proof, { lambda: LAMBDA - 1 })).toBe(false);
    expect(verify(output, proof, { lambda: LAMBDA + 1 })).toBe(false);
    expect(verify(output, { openings: proof.openings.slice(0, -1) }, { lambda: LAMBDA - 1 })).toBe(false);
    expect(verify(output, { openings: [...proof.openings, proof.openings[0]] })).toBe(false);
    expect(verify(output.slice(0, -1))).toBe(false);
    expect(verify(output.slice(0, -1), proof, { input: input.slice(0, -1) })).toBe(false);
    const opening = proof.openings[firstPerm] as ShufflePermOpening;
    expect(verify(output, withOpening(firstPerm, { ...opening, perm: opening.perm.slice(0, -1) }))).toBe(false);
    expect(verify(output, withOpening(firstPerm, { ...opening, rand: opening.rand.slice(0, -1) }))).toBe(false);
    // A proof made for a smaller lambda does not stretch to a larger one.
    const small = shuffleDeck(input, Y, context, { lambda: 4 });
    expect(verifyShuffle(input, small.output, Y, small.proof, context, { lambda: 4 })).toBe(true);
    expect(verifyShuffle(input, small.output, Y, small.proof, context, { lambda: LAMBDA })).toBe(false);
    expect(verifyShuffle(input, small.output, Y, small.proof, context)).toBe(false);
  });

  it('answers false, never throws, on garbage', () => {
    const opening = proof.openings[firstPerm] as ShufflePermOpening;
    const seed = proof.openings[firstSeed] as ShuffleSeedOpening;
    const badOutputs: unknown[] = [
      [{ c1: 'zz', c2: output[0]!.c2 }, ...output.slice(1)],
      [{ c1: output[0]!.c1.toUpperCase(), c2: output[0]!.c2 }, ...output.slice(1)],
      [{ c1: 'ff'.repeat(32), c2: output[0]!.c2 }, ...output.slice(1)],
      [null, ...output.slice(1)],
      'output',
      [],
    ];
    for (const bad of badOutputs) expect(verify(bad as Ciphertext[])).toBe(false);
    const badOpenings: unknown[] = [
      { seed: seed.seed.toUpperCase() },
      { seed: seed.seed.slice(2) },
      { seed: seed.seed, extra: 1 },
      { ...opening, perm: opening.perm.map((v, i) => (i === 0 ? opening.perm[1] : v)) },
      { ...opening, perm: opening.perm.map((v, i) => (i === 0 ? v + 0.5 : v)) },
      { ...opening, perm: opening.perm.map((v, i) => (i === 0 ? -1 : v)) },
      { ...opening, perm: opening.perm.map(String) },
      { ...opening, rand: opening.rand.map((r, i) => (i === 0 ? 'ff'.repeat(32) : r)) },
      {
        ...opening,
        rand: opening.rand.map((r, i) =>
          i === 0 ? 'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010' : r,
        ),
      },
      { ...opening, seed: seed.seed },
      null,
      7,
    ];
    for (const bad of badOpenings) {
      expect(verify(output, withOpening(firstPerm, bad))).toBe(false);
      expect(verify(output, withOpening(firstSeed, bad))).toBe(false);
    }
    for (const bad of [null, {}, { openings: 'x' }, { openings: {} }, []]) expect(verify(output, bad)).toBe(false);
    expect(verify(output, proof, { Y: 'nope' })).toBe(false);
    expect(verify(output, proof, { Y: IDENTITY_HEX })).toBe(false);
    expect(verify(output, proof, { context: 42 as unknown as string })).toBe(false);
    for (const lambda of [0, -1, 1.5, MAX_LAMBDA + 1, Number.NaN])
      expect(verify(output, proof, { lambda })).toBe(false);
  });

  it('refuses to shuffle with a bad lambda, an empty deck or a bad key', () => {
    expect(() => shuffleDeck(input, Y, context, { lambda: 0 })).toThrowError(RangeError);
    expect(() => shuffleDeck(input, Y, context, { lambda: MAX_LAMBDA + 1 })).toThrowError(RangeError);
    expect(() => shuffleDeck([], Y, context, { lambda: 1 })).toThrowError(
      expect.objectContaining({ code: 'bad_deck' }),
    );
    expect(() => shuffleDeck(input, IDENTITY_HEX, context, { lambda: 1 })).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
    expect(() => shuffleDeck([{ c1: 'x', c2: 'y' }], Y, context, { lambda: 1 })).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
  });

  it('a one-card deck is re-randomized and proved', () => {
    const one = [reencrypt(initialDeck(['As'])[0]!, Y)];
    const r = shuffleDeck(one, Y, 'one', { lambda: 4 });
    expect(verifyShuffle(one, r.output, Y, r.proof, 'one', { lambda: 4 })).toBe(true);
    expect(openAll(r.output, keys, ['As'])).toEqual(['As']);
  });
});

describe('several players shuffling in turn', () => {
  it('each shuffle verifies, and the deck still opens to a permutation of its cards', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (n, size, salt) => {
          const cards = FULL.slice(salt % 40, (salt % 40) + size);
          const { keys, Y } = players(n, `run${salt}`);
          let deck = initialDeck(cards);
          keys.forEach((_, seat) => {
            const context = `t|h|shuffle|${seat}`;
            const { output, proof } = shuffleDeck(deck, Y, context, { lambda: 4, rng: seededRng(`${salt}/${seat}`) });
            expect(verifyShuffle(deck, output, Y, proof, context, { lambda: 4 })).toBe(true);
            deck = output;
          });
          const opened = openAll(deck, keys, cards);
          expect([...opened].sort()).toEqual([...cards].sort());
          // The owner of position 0 reads it with its local share and the others' published ones.
          const [owner, ...others] = keys;
          const ct = deck[0]!;
          const Ds = [...others.map((k) => ownShare(k, ct)), ownShare(owner!, ct)];
          expect(openCard(ct, Ds, cardIndex(cards))).toBe(opened[0]);
        },
      ),
      { numRuns: 6 },
    );
  });

  it(`a full 52-card deck at λ = ${DEFAULT_LAMBDA}`, () => {
    const { keys, Y } = players(2, 'full');
    const { output, proof } = shuffleDeck(initialDeck(FULL), Y, 'full|0');
    expect(proof.openings).toHaveLength(DEFAULT_LAMBDA);
    expect(verifyShuffle(initialDeck(FULL), output, Y, proof, 'full|0')).toBe(true);
    expect(verifyShuffle(initialDeck(FULL), [output[1]!, output[0]!, ...output.slice(2)], Y, proof, 'full|0')).toBe(
      false,
    );
    const lookup = cardIndex(FULL);
    const opened = output.map((ct) =>
      openCard(
        ct,
        keys.map((k) => ownShare(k, ct)),
        lookup,
      ),
    );
    expect([...opened].sort()).toEqual([...FULL].sort());
    expect(opened).not.toEqual(FULL);
  });
});

describe('reencrypt', () => {
  it('changes both halves and keeps the plaintext', () => {
    const { keys, Y } = players(2, 're');
    const ct = reencrypt(initialDeck(['Kd'])[0]!, Y);
    const again = reencrypt(ct, Y);
    expect(again.c1).not.toBe(ct.c1);
    expect(again.c2).not.toBe(ct.c2);
    expect(
      openCard(
        again,
        keys.map((k) => ownShare(k, again)),
        cardIndex(['Kd']),
      ),
    ).toBe('Kd');
    expect(Point.fromHex(again.c1).subtract(Point.fromHex(ct.c1)).is0()).toBe(false);
  });
});
