/**
 * The dealer's implementation (@felt/engine) against the verifier's (@felt/client), which was written
 * separately from docs/fairness.md. Agreement on random hands, on the committed fixtures and on the draw-game
 * reshuffle vectors is what makes either one believable.
 */
import { readFileSync } from 'node:fs';
import {
  HandDeck,
  getGameRules,
  prepareDeck,
  simulateHand,
  toRevealRecord,
  type Card,
  type DeckKind,
  type RevealRecord,
  type SimulatedHand,
} from '@felt/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deckOrder, deckSeedOf, fromHex, verifyReveal, type VerifyFailure } from '../src/index.js';
import { buildFixtures, fixtureJson } from './fixtures/build-fixtures.js';

function fixture(name: string): RevealRecord[] {
  return JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')) as RevealRecord[];
}

function codes(failures: readonly VerifyFailure[]): string[] {
  return [...new Set(failures.map((f) => f.code))];
}

const uuidArb = fc.uuid({ version: 4 });
const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('committed fixtures', () => {
  it('are exactly what the engine produces today (the derivation has not drifted)', () => {
    const { reveals, draws } = buildFixtures();
    expect(fixtureJson(reveals)).toBe(readFileSync(new URL('fixtures/reveals.json', import.meta.url), 'utf8'));
    expect(fixtureJson(draws)).toBe(readFileSync(new URL('fixtures/draw-reshuffles.json', import.meta.url), 'utf8'));
  });

  it('all verify, including the draw games that reshuffle past index 51', () => {
    const draws = fixture('draw-reshuffles.json');
    for (const record of [...fixture('reveals.json'), ...draws]) {
      const result = verifyReveal(record);
      expect(result.failures, record.hand_id).toEqual([]);
      expect(result.cardsMatched).toBe(record.dealt.length);
    }
    for (const record of draws) {
      expect(record.reshuffles?.length).toBeGreaterThan(0);
      expect(record.dealt.length).toBeGreaterThan(52);
    }
  });
});

describe('engine and verifier agree on random hands', () => {
  it('flop and stud-sized hands with any subset of seats sending seeds', () => {
    fc.assert(
      fc.property(
        uuidArb,
        seedArb,
        fc.uniqueArray(fc.record({ seat: fc.integer({ min: 0, max: 255 }), seed: seedArb }), {
          selector: (s) => s.seat,
          maxLength: 10,
        }),
        fc.constantFrom<DeckKind>('standard52', 'short36'),
        fc.integer({ min: 0, max: 36 }),
        (handId, serverSeed, clientSeeds, kind, dealtCount) => {
          const { commitment, order } = prepareDeck({ handId, serverSeed, clientSeeds, kind });
          const dealt = order.slice(0, dealtCount).map((card, index) => ({ index, card }));
          const record = toRevealRecord(commitment, kind === 'short36' ? 'shortdeck' : 'holdem', dealt);
          const result = verifyReveal(record);
          expect(result.failures).toEqual([]);
          expect(result.serverSeedOnly).toBe(clientSeeds.length === 0);
        },
      ),
      { numRuns: 150, seed: 0x5eed },
    );
  });

  it('draw hands with reshuffles at random points, with and without the bottom card', () => {
    fc.assert(
      fc.property(
        uuidArb,
        seedArb,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 18, maxLength: 18 }),
        fc.integer({ min: 0, max: 3 }),
        (handId, serverSeed, draws, keepInStub) => {
          const { commitment } = prepareDeck({ handId, serverSeed, clientSeeds: [], kind: 'standard52' });
          const deck = new HandDeck(commitment.deckSeed, 'standard52');
          const hands: Card[][] = Array.from({ length: 6 }, () => deck.dealMany(5).map((d) => d.card));
          const muck: Card[] = [];
          for (const [turn, n] of draws.entries()) {
            const hand = hands[turn % 6] as Card[];
            const thrown = hand.splice(0, n);
            for (let i = 0; i < n; i++) {
              if (deck.remaining <= keepInStub && muck.length > 0) deck.reshuffle(muck.splice(0));
              hand.push(deck.deal().card);
            }
            muck.push(...thrown);
          }
          const record = toRevealRecord(commitment, '27td', deck.dealt, deck.reshuffles);
          expect(verifyReveal(record).failures).toEqual([]);
        },
      ),
      { numRuns: 100, seed: 0x27 },
    );
  });
});

/** A dealt entry as the lobby's history serves it: null where the viewer never saw the card. */
interface ViewedCard {
  index: number;
  card: Card | null;
}

/**
 * The reveal record of a real engine hand as `viewer` saw it, the way the lobby's history API serves it:
 * every index kept, a card only where it appears in the engine's own per-viewer view of the operations
 * (own cards, up cards, board, hands shown), null elsewhere.
 */
function asSeenBy(sim: SimulatedHand, viewer: number): Omit<RevealRecord, 'dealt'> & { dealt: ViewedCard[] } {
  const seen = new Set<number>();
  const holeIndices = new Map<number, Map<Card, number>>();
  for (const op of sim.hand.operations) {
    if (op.type !== 'deal_hole') continue;
    const bySeat = holeIndices.get(op.seat) ?? new Map<Card, number>();
    op.cards.forEach((card, i) => bySeat.set(card, op.indices[i]!));
    holeIndices.set(op.seat, bySeat);
  }
  for (const op of sim.hand.operationsFor(viewer)) {
    if (op.type === 'deal_hole') op.cards.forEach((card, i) => card !== null && seen.add(op.indices[i]!));
    else if (op.type === 'deal_board') for (const index of op.indices) seen.add(index);
    else if (op.type === 'show') for (const card of op.cards) seen.add(holeIndices.get(op.seat)!.get(card)!);
  }
  const record = sim.reveal();
  return { ...record, dealt: record.dealt.map((d) => ({ index: d.index, card: seen.has(d.index) ? d.card : null })) };
}

describe('records with withheld cards, from real engine hands', () => {
  it('verify with every unseen card withheld, for every seat, and a wrong shown card still fails', () => {
    let withheldHands = 0;
    for (const game of ['holdem', 'omaha', 'shortdeck', 'stud', 'razz']) {
      const rules = getGameRules(game);
      for (let i = 0; i < 12; i++) {
        const sim = simulateHand({
          rules,
          limit: rules.defaultLimit,
          players: { min: 2, max: rules.maxSeats },
          rake: false,
          seed: `withheld-${game}/${i}`,
        });
        for (const { seat } of sim.hand.setup.players) {
          const record = asSeenBy(sim, seat);
          const withheld = record.dealt.filter((d) => d.card === null).length;
          const result = verifyReveal(record, { expectedCommit: record.seed_commit });
          expect(result.failures, `${game} ${i} seat ${seat}`).toEqual([]);
          expect(result.cardsWithheld).toBe(withheld);
          expect(result.cardsMatched).toBe(record.dealt.length - withheld);
          // The viewer's own cards are never withheld.
          for (const op of sim.hand.operations) {
            if (op.type !== 'deal_hole' || op.seat !== seat) continue;
            for (const index of op.indices) expect(record.dealt.find((d) => d.index === index)?.card).not.toBeNull();
          }
          if (withheld > 0) withheldHands++;

          // Tampered: a card the viewer saw replaced by the true card of a withheld index.
          const hidden = record.dealt.find((d) => d.card === null);
          const shown = record.dealt.find((d) => d.card !== null);
          if (hidden === undefined || shown === undefined) continue;
          const truth = sim.reveal().dealt[hidden.index]!.card;
          const tampered = {
            ...record,
            dealt: record.dealt.map((d) => (d.index === shown.index ? { index: d.index, card: truth } : d)),
          };
          const bad = verifyReveal(tampered);
          expect(bad.ok).toBe(false);
          expect(bad.failures).toEqual([
            expect.objectContaining({ code: 'card_mismatch', index: shown.index, recorded: truth }),
          ]);
          expect(bad.cardsWithheld).toBe(withheld);
        }
      }
    }
    expect(withheldHands).toBeGreaterThan(100);
  });
});

describe('the draw-game reshuffle vectors in docs/fairness.md', () => {
  // The test-vector hand with no client seeds, whose first ten cards are 2s 6d 7c Ts Kh Ah 2c 8s 8h 6h.
  const base = prepareDeck({
    handId: '00000000-0000-4000-8000-000000000000',
    serverSeed: Uint8Array.from({ length: 32 }, (_, i) => i),
    clientSeeds: [],
    kind: 'standard52',
  });
  const discards = '2c 7c 6d 6h 8h Kh Ah 2s 8s Ts'.split(' ') as Card[];

  function record(dealtBefore: number, pile: string): RevealRecord {
    const dealt = [...base.order.slice(0, dealtBefore), ...pile.split(' ')].map((card, index) => ({
      index,
      card: card as Card,
    }));
    return toRevealRecord(base.commitment, '27td', dealt, [{ atIndex: dealtBefore, discards }]);
  }

  it('stub dealt out, then the ten discards reshuffled into indices 52..61', () => {
    const deck = new HandDeck(base.commitment.deckSeed, 'standard52');
    expect(base.streamPosition).toBe(204);
    deck.dealMany(52);
    deck.reshuffle(discards);
    expect(
      deck
        .dealMany(10)
        .map((d) => d.card)
        .join(' '),
    ).toBe('Ts 2s 6d Kh Ah 2c 8s 7c 6h 8h');
    expect(deck.streamPosition).toBe(240);
    expect(verifyReveal(record(52, 'Ts 2s 6d Kh Ah 2c 8s 7c 6h 8h')).failures).toEqual([]);
  });

  it('bottom card kept: reshuffle at 51, the undealt 3s joins the pile', () => {
    const deck = new HandDeck(base.commitment.deckSeed, 'standard52');
    deck.dealMany(51);
    deck.reshuffle(discards);
    expect(
      deck
        .dealMany(11)
        .map((d) => d.card)
        .join(' '),
    ).toBe('8h Kh 2s 8s 6d Ah 3s 2c 6h Ts 7c');
    expect(verifyReveal(record(51, '8h Kh 2s 8s 6d Ah 3s 2c 6h Ts 7c')).failures).toEqual([]);
  });

  it('the verifier agrees independently of the engine', () => {
    const deckSeed = deckSeedOf(
      Uint8Array.from({ length: 32 }, (_, i) => i),
      '00000000-0000-4000-8000-000000000000',
      [],
    );
    expect(deckSeed).toEqual(fromHex('06980780c6fe2c763ce8ad8a0c4c6960e7180e714cd5a58a6d77381c062ee664'));
  });
});

describe('draw-game tampering', () => {
  const honest = (): RevealRecord => structuredClone(fixture('draw-reshuffles.json')[0] as RevealRecord);

  it('discards listed in another order still verify (the pile is sorted first)', () => {
    const record = honest();
    record.reshuffles![0]!.discards.reverse();
    expect(verifyReveal(record).ok).toBe(true);
  });

  it('a discard left out of the pile changes the cards dealt from it', () => {
    const record = honest();
    record.reshuffles![0]!.discards.pop();
    expect(codes(verifyReveal(record).failures)).toContain('card_mismatch');
  });

  it('a card still in the stub cannot be named as a discard', () => {
    // The bottom-card fixture reshuffles at 51, while the initial deck's last card is still undealt.
    const record = structuredClone(fixture('draw-reshuffles.json')[1] as RevealRecord);
    const first = record.reshuffles![0]!;
    expect(first.at_index).toBe(51);
    const bottom = deckOrder(fromHex(record.deck_seed)!, 'standard52')[51]!;
    first.discards.push(bottom as Card);
    const result = verifyReveal(record);
    expect(result.failures).toContainEqual(
      expect.objectContaining({ code: 'reshuffle_invalid', reshuffle: 0, reason: expect.stringContaining('stub') }),
    );
  });

  it('a card named twice in one reshuffle is refused', () => {
    const record = honest();
    const first = record.reshuffles![0]!;
    first.discards.push(first.discards[0]!);
    expect(verifyReveal(record).failures).toContainEqual(
      expect.objectContaining({ code: 'reshuffle_invalid', reason: expect.stringContaining('twice') }),
    );
  });

  it('a reshuffle moved to another index is detected', () => {
    const record = honest();
    record.reshuffles![1]!.at_index -= 3;
    expect(verifyReveal(record).ok).toBe(false);
  });

  it('hiding the reshuffles leaves cards past the end of the deck', () => {
    const record = honest();
    delete record.reshuffles;
    const result = verifyReveal(record);
    expect(result.failures).toContainEqual(
      expect.objectContaining({ code: 'card_mismatch', index: 52, expected: null }),
    );
  });

  it('a substituted card after a reshuffle fails at its index', () => {
    const record = honest();
    const target = record.dealt[70]!;
    const other = record.dealt.find((d) => d.card !== target.card)!.card;
    target.card = other;
    expect(verifyReveal(record).failures).toEqual([expect.objectContaining({ code: 'card_mismatch', index: 70 })]);
  });
});
