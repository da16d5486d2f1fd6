import { describe, expect, it } from 'vitest';
import { commitOf, deckOrder, deckSeedOf, toHex } from './derive.js';
import { VerifierError, VerifierErrorCode } from './errors.js';
import type { RevealRecord } from './record.js';
import { CheckStatus, VerifyFailureCode, verifyReveal, type VerifyFailure } from './verify.js';

// A record built from the published test vector of docs/fairness.md alone: seats 1 and 3, the listed 52-card order.
const VECTOR_ORDER =
  'Th 2s 3h 7h 9h 8s 8c 9s 4c 8h Td 2d Qs Kh Jd 4s Ac 2c Qc Ks 4d 6d Kd 6h 9d 9c 7d Jc Kc Qh 6c As 5c Tc 8d 5s 3s 7s Jh Ad Qd 3c Ts 7c 5h 6s Js 3d 2h Ah 5d 4h'.split(
    ' ',
  );

function vectorRecord(): RevealRecord {
  return {
    hand_id: '00000000-0000-4000-8000-000000000000',
    seed_commit: 'sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    server_seed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
    client_seeds: [
      { seat: 1, seed: '22'.repeat(32) },
      { seat: 3, seed: '11'.repeat(32) },
    ],
    deck_seed: '356c3e901778d5cc9aae2d3f17e5b693ce3d203c708bd69fe188b029b23664fc',
    variant: 'holdem',
    version: 'felt-deck-v1',
    // Hold'em, four players: eight hole cards, then flop, turn, river.
    dealt: VECTOR_ORDER.slice(0, 13).map((card, index) => ({ index, card })),
  };
}

function codes(failures: readonly VerifyFailure[]): string[] {
  return failures.map((f) => f.code);
}

describe('an honest record', () => {
  it('passes every check', () => {
    const result = verifyReveal(vectorRecord(), {
      expectedCommit: 'sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
      ownSeed: { seat: 3, seed: '11'.repeat(32) },
    });
    expect(result.failures).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.cardsMatched).toBe(13);
    expect(result.clientSeedCount).toBe(2);
    expect(result.serverSeedOnly).toBe(false);
    expect(result.checks).toEqual({
      structure: 'passed',
      version: 'passed',
      commit: 'passed',
      deckSeed: 'passed',
      indices: 'passed',
      cards: 'passed',
      reshuffles: 'n/a',
      ownSeed: 'passed',
    });
  });

  it('does not depend on the order client seeds or dealt cards are listed in', () => {
    const record = vectorRecord();
    record.client_seeds.reverse();
    record.dealt.reverse();
    expect(verifyReveal(record).ok).toBe(true);
  });

  it('flags a server-only hand as such without failing it', () => {
    const seed = deckSeedOf(
      Uint8Array.from({ length: 32 }, (_, i) => i),
      '00000000-0000-4000-8000-000000000000',
      [],
    );
    const record = { ...vectorRecord(), client_seeds: [], deck_seed: toHex(seed) };
    record.dealt = deckOrder(seed, 'standard52')
      .slice(0, 9)
      .map((card, index) => ({ index, card }));
    const result = verifyReveal(record);
    expect(result.ok).toBe(true);
    expect(result.serverSeedOnly).toBe(true);
  });
});

describe('tampering is detected and named', () => {
  it('a swapped server seed fails the commit and the deck seed', () => {
    const record = vectorRecord();
    record.server_seed = 'ff' + record.server_seed.slice(2);
    const result = verifyReveal(record);
    expect(result.ok).toBe(false);
    expect(codes(result.failures)).toEqual(
      expect.arrayContaining([VerifyFailureCode.COMMIT_MISMATCH, VerifyFailureCode.DECK_SEED_MISMATCH]),
    );
    expect(result.checks.commit).toBe(CheckStatus.FAILED);
  });

  it('a swapped server seed with a rewritten record is caught by the commit seen before the deal', () => {
    const forgedSeed = new Uint8Array(32).fill(0x77);
    const handId = '00000000-0000-4000-8000-000000000000';
    const clientSeeds = [
      { seat: 1, seed: new Uint8Array(32).fill(0x22) },
      { seat: 3, seed: new Uint8Array(32).fill(0x11) },
    ];
    const forgedDeckSeed = deckSeedOf(forgedSeed, handId, clientSeeds);
    const record: RevealRecord = {
      ...vectorRecord(),
      server_seed: toHex(forgedSeed),
      seed_commit: commitOf(forgedSeed),
      deck_seed: toHex(forgedDeckSeed),
      dealt: deckOrder(forgedDeckSeed, 'standard52')
        .slice(0, 13)
        .map((card, index) => ({ index, card })),
    };
    expect(verifyReveal(record).ok).toBe(true); // internally consistent…
    const result = verifyReveal(record, { expectedCommit: vectorRecord().seed_commit });
    expect(result.ok).toBe(false); // …but not what was committed to
    expect(result.failures).toEqual([expect.objectContaining({ code: 'commit_mismatch', against: 'expected' })]);
  });

  it('a dropped client seed fails the deck seed', () => {
    const record = vectorRecord();
    record.client_seeds = record.client_seeds.filter((s) => s.seat !== 3);
    const result = verifyReveal(record, { ownSeed: { seat: 3, seed: '11'.repeat(32) } });
    expect(codes(result.failures)).toContain(VerifyFailureCode.DECK_SEED_MISMATCH);
    expect(result.failures).toContainEqual(
      expect.objectContaining({ code: 'own_seed_missing', seat: 3, reason: 'seat_absent' }),
    );
  });

  it('a dropped client seed in a consistent record is caught by the player whose seed it was', () => {
    const serverSeed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const handId = '00000000-0000-4000-8000-000000000000';
    const deckSeed = deckSeedOf(serverSeed, handId, [{ seat: 1, seed: new Uint8Array(32).fill(0x22) }]);
    const record: RevealRecord = {
      ...vectorRecord(),
      client_seeds: [{ seat: 1, seed: '22'.repeat(32) }],
      deck_seed: toHex(deckSeed),
      dealt: deckOrder(deckSeed, 'standard52')
        .slice(0, 13)
        .map((card, index) => ({ index, card })),
    };
    expect(verifyReveal(record).ok).toBe(true);
    const result = verifyReveal(record, { ownSeed: { seat: 3, seed: new Uint8Array(32).fill(0x11) } });
    expect(result.failures).toEqual([expect.objectContaining({ code: 'own_seed_missing', reason: 'seat_absent' })]);
    const substituted = verifyReveal(record, { ownSeed: { seat: 1, seed: '33'.repeat(32) } });
    expect(substituted.failures).toEqual([
      expect.objectContaining({ code: 'own_seed_missing', reason: 'seed_differs' }),
    ]);
  });

  it('a substituted card fails at its index', () => {
    const record = vectorRecord();
    record.dealt[9] = { index: 9, card: 'As' }; // the flop's second card, 8h in the vector
    const result = verifyReveal(record);
    expect(result.failures).toEqual([
      expect.objectContaining({ code: 'card_mismatch', index: 9, recorded: 'As', expected: '8h' }),
    ]);
    expect(result.cardsMatched).toBe(12);
  });

  it('a skipped index fails the 0..k−1 check', () => {
    const record = vectorRecord();
    // The dealer skipped deck[10] (Td) and dealt deck[13] instead: every card is at its true index.
    record.dealt = [
      ...record.dealt.slice(0, 10),
      ...[11, 12, 13].map((index) => ({ index, card: VECTOR_ORDER[index] as string })),
    ];
    const result = verifyReveal(record);
    expect(result.failures).toEqual([
      expect.objectContaining({ code: 'indices_not_contiguous', missing: [10], duplicated: [], outOfRange: [13] }),
    ]);
    expect(result.checks.cards).toBe(CheckStatus.PASSED);
  });

  it('a repeated index fails the 0..k−1 check', () => {
    const record = vectorRecord();
    record.dealt.push({ index: 4, card: VECTOR_ORDER[4] as string });
    const result = verifyReveal(record);
    expect(result.failures).toEqual([
      expect.objectContaining({ code: 'indices_not_contiguous', missing: [13], duplicated: [4] }),
    ]);
  });

  it('a rewritten deck_seed alone is a deck seed mismatch; cards are checked against the recomputed seed', () => {
    const record = vectorRecord();
    record.deck_seed = '00'.repeat(32);
    const result = verifyReveal(record);
    expect(codes(result.failures)).toEqual([VerifyFailureCode.DECK_SEED_MISMATCH]);
    expect(result.checks.cards).toBe(CheckStatus.PASSED);
  });
});

describe('withheld cards (the lobby history serves a record as the player saw the hand)', () => {
  /** Seat 3's view of the vector hand: the other three players' hole cards withheld. */
  function seenBySeat3(): RevealRecord {
    const record = vectorRecord();
    // Hold'em deals one card at a time around the table: seat 3's cards are indices 2 and 6.
    record.dealt = record.dealt.map((d) => (d.index < 8 && d.index % 4 !== 2 ? { index: d.index, card: null } : d));
    return record;
  }

  it('checks the commit, the deck seed, the indices and every card shown, and counts the withheld', () => {
    const result = verifyReveal(seenBySeat3(), {
      expectedCommit: 'sha256:630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
      ownSeed: { seat: 3, seed: '11'.repeat(32) },
    });
    expect(result.failures).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.cardsWithheld).toBe(6);
    expect(result.cardsMatched).toBe(7);
    expect(Object.values(result.checks).filter((c) => c !== 'passed' && c !== 'n/a')).toEqual([]);
    expect(verifyReveal(vectorRecord()).cardsWithheld).toBe(0);
  });

  it('a record with every card withheld still checks the seeds and the indices', () => {
    const record = vectorRecord();
    record.dealt = record.dealt.map(({ index }) => ({ index, card: null }));
    const result = verifyReveal(record);
    expect(result.ok).toBe(true);
    expect(result).toMatchObject({ cardsMatched: 0, cardsWithheld: 13 });
    const forged = verifyReveal({ ...record, server_seed: 'ab'.repeat(32) });
    expect(codes(forged.failures)).toEqual([VerifyFailureCode.COMMIT_MISMATCH, VerifyFailureCode.DECK_SEED_MISMATCH]);
  });

  it('a wrong card next to withheld ones still fails at its index', () => {
    const record = seenBySeat3();
    record.dealt[9] = { index: 9, card: 'As' };
    const result = verifyReveal(record);
    expect(result.ok).toBe(false);
    expect(result.failures).toEqual([
      expect.objectContaining({ code: 'card_mismatch', index: 9, recorded: 'As', expected: '8h' }),
    ]);
    expect(result.checks.cards).toBe(CheckStatus.FAILED);
    expect(result.cardsWithheld).toBe(6);
  });

  it('a withheld card still holds its index: skipped, repeated or past the deck fails', () => {
    const skipped = seenBySeat3();
    skipped.dealt = skipped.dealt.filter((d) => d.index !== 1);
    expect(verifyReveal(skipped).failures).toEqual([
      expect.objectContaining({ code: 'indices_not_contiguous', missing: [1], outOfRange: [12] }),
    ]);
    const repeated = seenBySeat3();
    repeated.dealt.push({ index: 0, card: null });
    expect(verifyReveal(repeated).failures).toEqual([
      expect.objectContaining({ code: 'indices_not_contiguous', missing: [13], duplicated: [0] }),
    ]);
    // 53 cards from a 52-card deck: the last one, withheld, cannot exist.
    const record = vectorRecord();
    record.dealt = [
      ...VECTOR_ORDER.map((card, index) => ({ index, card: index === 5 ? null : card })),
      { index: 52, card: null },
    ];
    const result = verifyReveal(record);
    expect(result.failures).toEqual([
      expect.objectContaining({ code: 'card_mismatch', index: 52, recorded: null, expected: null }),
    ]);
    expect(result.cardsWithheld).toBe(2);
  });

  it('accepts null only for a card: a missing card, a null index or a null entry is malformed', () => {
    const fieldsOf = (dealt: unknown[]): string[] =>
      verifyReveal({ ...vectorRecord(), dealt }).failures.flatMap((f) =>
        f.code === 'malformed_field' ? [f.field] : [],
      );
    expect(fieldsOf([{ index: 0 }])).toEqual(['dealt[0].card']);
    expect(fieldsOf([{ index: 0, card: undefined }])).toEqual(['dealt[0].card']);
    expect(fieldsOf([{ index: null, card: 'Th' }])).toEqual(['dealt[0].index']);
    expect(fieldsOf([{ index: 0, card: '' }])).toEqual(['dealt[0].card']);
    expect(fieldsOf([null])).toEqual(['dealt[0]']);
    expect(fieldsOf([{ index: 0, card: null }])).toEqual([]);
  });
});

describe('malformed and unusable input', () => {
  it('names every malformed field and skips the checks that needed it', () => {
    const record = {
      ...vectorRecord(),
      server_seed: 'xyz',
      client_seeds: [{ seat: 300, seed: '11' }],
      dealt: [{ index: -1, card: 'Zz' }],
      seed_commit: 'md5:00',
    };
    const result = verifyReveal(record);
    expect(result.ok).toBe(false);
    const fields = result.failures.map((f) => (f.code === 'malformed_field' ? f.field : f.code));
    expect(fields).toEqual(
      expect.arrayContaining([
        'seed_commit',
        'server_seed',
        'client_seeds[0].seat',
        'client_seeds[0].seed',
        'dealt[0].index',
        'dealt[0].card',
      ]),
    );
    expect(result.checks.commit).toBe(CheckStatus.SKIPPED);
    expect(result.checks.cards).toBe(CheckStatus.SKIPPED);
  });

  it('duplicate seats and a non-UUID hand id are malformed', () => {
    const record = vectorRecord();
    record.client_seeds.push({ seat: 1, seed: '33'.repeat(32) });
    record.hand_id = 'HAND-1';
    const fields = verifyReveal(record).failures.flatMap((f) => (f.code === 'malformed_field' ? [f.field] : []));
    expect(fields).toEqual(['hand_id', 'client_seeds[2].seat']);
  });

  it('an unknown derivation version is reported, not guessed at', () => {
    const result = verifyReveal({ ...vectorRecord(), version: 'felt-deck-v9' });
    expect(codes(result.failures)).toEqual([VerifyFailureCode.UNSUPPORTED_VERSION]);
    expect(result.checks.cards).toBe(CheckStatus.SKIPPED);
  });

  it('a short-deck variant uses the 36-card deck, and an inconsistent deck field is malformed', () => {
    const seed = deckSeedOf(
      Uint8Array.from({ length: 32 }, (_, i) => i),
      '00000000-0000-4000-8000-000000000000',
      [],
    );
    const record: RevealRecord = {
      ...vectorRecord(),
      client_seeds: [],
      deck_seed: toHex(seed),
      variant: 'shortdeck',
      dealt: 'Js 8h 7s 6s 6d 9h As 8s 9s Jc'.split(' ').map((card, index) => ({ index, card })),
    };
    expect(verifyReveal(record).ok).toBe(true);
    expect(verifyReveal({ ...record, deck: 'short36' }).ok).toBe(true);
    const inconsistent = verifyReveal({ ...record, deck: 'standard52' });
    expect(inconsistent.failures).toContainEqual(expect.objectContaining({ code: 'malformed_field', field: 'deck' }));
  });

  it('throws a typed error only when there is no record at all or an option is malformed', () => {
    for (const input of [null, [], 'record', 42]) {
      expect(() => verifyReveal(input)).toThrowError(VerifierError);
    }
    try {
      verifyReveal(vectorRecord(), { expectedCommit: 'sha256:zz' });
      expect.unreachable();
    } catch (err) {
      expect((err as VerifierError).code).toBe(VerifierErrorCode.INVALID_OPTION);
    }
    expect(() => verifyReveal(vectorRecord(), { ownSeed: { seat: 1, seed: 'ab' } })).toThrowError(VerifierError);
  });
});
