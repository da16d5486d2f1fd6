import { describe, expect, it } from 'vitest';
import { initialDeck, type Card } from '../cards.js';
import {
  DeckStream,
  FairnessError,
  FairnessErrorCode,
  HandDeck,
  canonicalOrder,
  deriveDeckSeed,
  fisherYates,
  prepareDeck,
  reshuffle,
  shuffleDeck,
  shuffleDeckWithStream,
  toRevealRecord,
} from './index.js';

const SERVER_SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const HAND_ID = '00000000-0000-4000-8000-000000000000';
const DECK_SEED = deriveDeckSeed(SERVER_SEED, HAND_ID, []);

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof FairnessError) return err.code;
    throw err;
  }
  return undefined;
}

/** A 2-7 Triple Draw-like hand: six players, five cards each, everybody draws as many as they can. */
function playDrawHand(deck: HandDeck, discardEach: number): { hands: Card[][]; muck: Card[] } {
  const hands: Card[][] = Array.from({ length: 6 }, () => []);
  for (let round = 0; round < 5; round++) for (const h of hands) h.push(deck.deal().card);
  const muck: Card[] = [];
  for (let draw = 0; draw < 3; draw++) {
    for (const hand of hands) {
      const thrown = hand.splice(0, discardEach);
      if (deck.remaining < thrown.length) {
        // House rule used here: deal the stub out, then reshuffle everything already mucked.
        const fromStub = deck.dealMany(deck.remaining).map((d) => d.card);
        deck.reshuffle(muck.splice(0));
        hand.push(...fromStub, ...deck.dealMany(thrown.length - fromStub.length).map((d) => d.card));
      } else {
        hand.push(...deck.dealMany(thrown.length).map((d) => d.card));
      }
      muck.push(...thrown);
    }
  }
  return { hands, muck };
}

describe('HandDeck without reshuffles is plain felt-deck-v1', () => {
  it('deals shuffleDeck order with indices 0..k−1 and consumes exactly the shuffle', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    const dealt = deck.dealMany(52);
    expect(dealt.map((d) => d.card)).toEqual(shuffleDeck(DECK_SEED, 'standard52'));
    expect(dealt.map((d) => d.index)).toEqual([...Array(52).keys()]);
    expect(deck.streamPosition).toBe(shuffleDeckWithStream(DECK_SEED, 'standard52').stream.position);
    expect(code(() => deck.deal())).toBe(FairnessErrorCode.DECK_EXHAUSTED);
  });
});

describe('draw-game reshuffle', () => {
  it('continues the stream after the shuffle and Fisher–Yates the pile in canonical order', () => {
    const { order, stream } = shuffleDeckWithStream(DECK_SEED, 'standard52');
    const position = stream.position;
    const discards: Card[] = ['Kd', '2c', 'As', '7h'];
    const pile = reshuffle(stream, discards, 'standard52');

    const replay = new DeckStream(DECK_SEED, position);
    expect(pile).toEqual(fisherYates(['2c', 'Kd', '7h', 'As'], replay));
    expect(stream.position).toBe(replay.position);
    expect(stream.position).toBeGreaterThan(position);
    // Collection order does not matter, only the set.
    expect(reshuffle(new DeckStream(DECK_SEED, position), ['As', '7h', '2c', 'Kd'], 'standard52')).toEqual(pile);
    expect(order).toHaveLength(52);
  });

  it('canonical order is the initial-deck order and refuses foreign or repeated cards', () => {
    expect(canonicalOrder(['As', '2d', 'Kc', '2c'], 'standard52')).toEqual(['2c', 'Kc', '2d', 'As']);
    expect(code(() => canonicalOrder(['5c'], 'short36'))).toBe(FairnessErrorCode.INVALID_RESHUFFLE);
    expect(code(() => canonicalOrder(['5c', '5c'], 'standard52'))).toBe(FairnessErrorCode.INVALID_RESHUFFLE);
  });

  it('a six-handed triple draw runs past 52 cards with contiguous indices and no card live twice', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    const { hands, muck } = playDrawHand(deck, 5);
    expect(deck.reshuffles.length).toBeGreaterThan(0);
    expect(deck.nextIndex).toBeGreaterThan(52);
    const dealt = deck.dealt;
    expect(dealt.map((d) => d.index)).toEqual([...Array(dealt.length).keys()]);
    // Conservation: the hands, the muck and the stub hold every card exactly once.
    const stub = Array.from({ length: deck.remaining }, () => deck.deal().card);
    const all = [...hands.flat(), ...muck, ...stub].sort();
    expect(all).toEqual(initialDeck('standard52').sort());
  });

  it('the stub remainder goes into the pile when the game reshuffles before it is empty', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    const first = deck.dealMany(51).map((d) => d.card);
    const bottom = shuffleDeck(DECK_SEED, 'standard52')[51];
    expect(deck.reshuffle(first.slice(0, 10))).toBe(11);
    const pile = deck.dealMany(11).map((d) => d.card);
    expect(pile.sort()).toEqual([...first.slice(0, 10), bottom].sort());
    expect(deck.reshuffles).toEqual([{ atIndex: 51, discards: canonicalOrder(first.slice(0, 10), 'standard52') }]);
  });

  it('refuses discards that were never dealt, are in the stub, or repeat a reshuffle point', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    const dealt = deck.dealMany(10).map((d) => d.card);
    const undealt = shuffleDeck(DECK_SEED, 'standard52')[20] as Card;
    expect(code(() => deck.reshuffle([undealt]))).toBe(FairnessErrorCode.INVALID_RESHUFFLE);
    deck.reshuffle(dealt.slice(0, 2));
    // Those two are back in the stub now; they cannot be discarded again until dealt again.
    expect(code(() => deck.reshuffle(dealt.slice(0, 1)))).toBe(FairnessErrorCode.INVALID_RESHUFFLE);
    deck.deal();
    expect(code(() => deck.reshuffle([dealt[0] as Card, dealt[0] as Card]))).toBe(FairnessErrorCode.INVALID_RESHUFFLE);
  });
});

describe('draw-game reshuffle vectors (docs/fairness.md)', () => {
  // The test-vector hand with no client seeds; its first ten cards go back as the discards.
  const discards: Card[] = ['2s', '6d', '7c', 'Ts', 'Kh', 'Ah', '2c', '8s', '8h', '6h'];

  it('stub dealt out: the pile at indices 52..61', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    expect(deck.streamPosition).toBe(204);
    expect(
      deck
        .dealMany(52)
        .slice(0, 10)
        .map((d) => d.card),
    ).toEqual(discards);
    deck.reshuffle(discards);
    expect(deck.reshuffles).toEqual([
      { atIndex: 52, discards: ['2c', '7c', '6d', '6h', '8h', 'Kh', 'Ah', '2s', '8s', 'Ts'] },
    ]);
    expect(
      deck
        .dealMany(10)
        .map((d) => `${d.index}:${d.card}`)
        .join(' '),
    ).toBe('52:Ts 53:2s 54:6d 55:Kh 56:Ah 57:2c 58:8s 59:7c 60:6h 61:8h');
    expect(deck.streamPosition).toBe(240);
  });

  it('bottom card kept back: reshuffle at 51 takes the undealt 3s into the pile', () => {
    const deck = new HandDeck(DECK_SEED, 'standard52');
    deck.dealMany(51);
    expect(deck.reshuffle(discards)).toBe(11);
    expect(
      deck
        .dealMany(11)
        .map((d) => d.card)
        .join(' '),
    ).toBe('8h Kh 2s 8s 6d Ah 3s 2c 6h Ts 7c');
    expect(deck.streamPosition).toBe(244);
  });
});

describe('HandDeck checkpoints', () => {
  it('restores mid-hand and plays forward to exactly the same cards', () => {
    const original = new HandDeck(DECK_SEED, 'standard52');
    const replica = new HandDeck(DECK_SEED, 'standard52');
    // Snapshot at every point of the hand and check the restored copy plays forward identically.
    const script: (() => void)[] = [];
    for (let i = 0; i < 30; i++) script.push(() => void original.deal());
    script.push(() => void original.dealMany(22));
    script.push(() => void original.reshuffle(original.dealt.slice(0, 20).map((d) => d.card)));
    for (let i = 0; i < 8; i++) script.push(() => void original.deal());
    script.push(() => void original.reshuffle(original.dealt.slice(20, 45).map((d) => d.card)));
    for (let i = 0; i < 10; i++) script.push(() => void original.deal());
    for (const [step, action] of script.entries()) {
      action();
      const restored = HandDeck.fromJSON(JSON.parse(JSON.stringify(original)) as ReturnType<HandDeck['toJSON']>);
      expect(restored.dealt).toEqual(original.dealt);
      expect(restored.remaining, `step ${step}`).toBe(original.remaining);
      const future = (d: HandDeck): Card[] => Array.from({ length: d.remaining }, () => d.deal().card);
      const probe = HandDeck.fromJSON(original.toJSON());
      expect(future(restored)).toEqual(future(probe));
    }
    expect(replica.nextIndex).toBe(0);
  });

  it('refuses a checkpoint that does not replay', () => {
    const deck = new HandDeck(DECK_SEED, 'short36');
    deck.dealMany(36);
    deck.reshuffle(deck.dealt.slice(0, 5).map((d) => d.card));
    const state = deck.toJSON();
    expect(code(() => HandDeck.fromJSON({ ...state, streamPosition: state.streamPosition + 4 }))).toBe(
      FairnessErrorCode.INVALID_DECK_STATE,
    );
    expect(code(() => HandDeck.fromJSON({ ...state, dealtCount: 99 }))).toBe(FairnessErrorCode.INVALID_DECK_STATE);
    expect(code(() => HandDeck.fromJSON({ ...state, reshuffles: [{ atIndex: 36, discards: ['2c'] }] }))).toBe(
      FairnessErrorCode.INVALID_DECK_STATE,
    );
  });
});

describe('reveal records for draw games', () => {
  it('carry the reshuffles with snake_case fields', () => {
    const { commitment } = prepareDeck({
      handId: HAND_ID,
      serverSeed: SERVER_SEED,
      clientSeeds: [],
      kind: 'standard52',
    });
    const deck = new HandDeck(commitment.deckSeed, commitment.kind);
    playDrawHand(deck, 5);
    const record = toRevealRecord(commitment, '27td', deck.dealt, deck.reshuffles);
    expect(record.reshuffles?.length).toBe(deck.reshuffles.length);
    expect(record.reshuffles?.[0]?.at_index).toBe(deck.reshuffles[0]?.atIndex);
    expect(record.dealt.length).toBe(deck.nextIndex);
  });
});
