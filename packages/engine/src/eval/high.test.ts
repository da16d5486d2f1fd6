import { describe, expect, it } from 'vitest';
import { cardFromCode, InvalidCardError, parseCards, type Card } from '../cards.js';
import { InvalidHandError } from './errors.js';
import { describeHigh, evaluateHigh, evaluateHighCodes, highCategory } from './high.js';

const cards = (s: string): Card[] => parseCards(s);
const high = (s: string): number => evaluateHigh(cards(s));

describe('describeHigh', () => {
  it.each([
    ['As Ks Qs Js Ts 2c 3d', 'straight_flush', 'Royal Flush', [14], 'As Ks Qs Js Ts'],
    ['9d 8d 7d 6d 5d 5c 5h', 'straight_flush', 'Straight Flush, Nine high', [9], '9d 8d 7d 6d 5d'],
    ['5h 4h 3h 2h Ah Kc Kd', 'straight_flush', 'Straight Flush, Five high', [5], '5h 4h 3h 2h Ah'],
    ['Ac Ad Ah As Kc 2d 3d', 'quads', 'Four of a Kind, Aces', [14, 13], 'As Ah Ad Ac Kc'],
    ['Kc Kd Kh 5c 5d 5h 2s', 'full_house', 'Full House, Kings over Fives', [13, 5], 'Kh Kd Kc 5h 5d'],
    ['Ah 9h 8h 4h 2h Kc Kd', 'flush', 'Flush, Ace high', [14, 9, 8, 4, 2], 'Ah 9h 8h 4h 2h'],
    ['Tc 9d 8h 7s 6c 2d 2h', 'straight', 'Straight, Ten high', [10], 'Tc 9d 8h 7s 6c'],
    ['Ac 2d 3h 4s 5c Kd Qh', 'straight', 'Straight, Five high', [5], '5c 4s 3h 2d Ac'],
    ['7c 7d 7h Ks Jc 2d 3h', 'trips', 'Three of a Kind, Sevens', [7, 13, 11], '7h 7d 7c Ks Jc'],
    ['Jc Jd 4h 4s 2c 2d 9h', 'two_pair', 'Two Pair, Jacks and Fours', [11, 4, 9], 'Jd Jc 4s 4h 9h'],
    ['9c 9d Ah Ks Jc 2d 3h', 'pair', 'Pair of Nines', [9, 14, 13, 11], '9d 9c Ah Ks Jc'],
    ['Ac Kd 9h 7s 5c 4d 2h', 'high_card', 'High Card, Ace', [14, 13, 9, 7, 5], 'Ac Kd 9h 7s 5c'],
    ['7c 5d 4h 3s 2c', 'high_card', 'High Card, Seven', [7, 5, 4, 3, 2], '7c 5d 4h 3s 2c'],
    // Six cards: the flush and the straight are both there; the flush wins.
    ['9h 8h 7h 6h 2h 5c', 'flush', 'Flush, Nine high', [9, 8, 7, 6, 2], '9h 8h 7h 6h 2h'],
    // Three pairs: the best two play, the third pair's rank is the kicker.
    ['Kc Kd Qh Qs Jc Jd 2h', 'two_pair', 'Two Pair, Kings and Queens', [13, 12, 11], 'Kd Kc Qs Qh Jd'],
    // Two sets of trips: the lower set is the pair of the full house.
    ['Kc Kd Kh Qs Qc Qd 2h', 'full_house', 'Full House, Kings over Queens', [13, 12], 'Kh Kd Kc Qs Qd'],
    // Quads with trips: the kicker is one card of the trips.
    ['Ac Ad Ah As Kc Kd Kh', 'quads', 'Four of a Kind, Aces', [14, 13], 'As Ah Ad Ac Kh'],
    // Six to a straight: the top five play.
    ['9c 8d 7h 6s 5c 4d Kh', 'straight', 'Straight, Nine high', [9], '9c 8d 7h 6s 5c'],
    // Six suited cards: the top five of the suit.
    ['Kd Td 8d 6d 4d 2d Ac', 'flush', 'Flush, King high', [13, 10, 8, 6, 4], 'Kd Td 8d 6d 4d'],
    // A straight flush beats the bigger plain flush and straight in the same seven cards.
    ['8s 7s 6s 5s 4s As 9d', 'straight_flush', 'Straight Flush, Eight high', [8], '8s 7s 6s 5s 4s'],
  ])('%s is %s: %s', (hand, category, name, tiebreak, best) => {
    const d = describeHigh(cards(hand));
    expect(d.category).toBe(category);
    expect(d.name).toBe(name);
    expect(d.tiebreak).toEqual(tiebreak);
    expect(d.best).toEqual(cards(best));
    expect(d.value).toBe(high(hand));
    expect(highCategory(d.value)).toBe(category);
  });
});

describe('evaluateHigh order', () => {
  it.each([
    // wheels
    ['2c 3d 4h 5s 6c', '>', 'Ac 2d 3h 4s 5c', 'a six-high straight beats the wheel'],
    ['Ac 2d 3h 4s 5c', '>', 'Ac Ad Ah Kc Qd', 'the wheel is a straight: it beats trips'],
    ['5h 4h 3h 2h Ah', '>', 'Kc Kd Kh Ks Ac', 'the steel wheel beats quads'],
    ['6h 5h 4h 3h 2h', '>', '5d 4d 3d 2d Ad', 'a six-high straight flush beats the steel wheel'],
    ['As Ks Qs Js Ts', '>', 'Ks Qs Js Ts 9s', 'royal beats king-high straight flush'],
    ['Ac Kd Qh Js Tc', '>', 'Kc Qd Jh Ts 9c', 'broadway beats king-high straight'],
    // kickers
    ['Ac Ad Kc Qh Jd 3c 2s', '=', 'Ah As Kd Qs Jc 4d 2h', 'only the top three kickers play'],
    ['Ac Ad Kc Qh Jd', '>', 'Ah As Kd Qs Tc', 'the third kicker decides'],
    ['Kc Kd 7h 7s Ac', '>', 'Kh Ks 7c 7d Qc', 'two pair kicker decides'],
    ['Kc Kd 7h 7s 2c', '>', 'Kh Ks 6c 6d Ac', 'second pair beats any kicker'],
    ['Ac Kd Qh Js 9c', '>', 'Ac Kd Qh Js 8c', 'high card down to the fifth card'],
    ['Ac Ad Ah 2c 2d', '>', 'Kc Kd Kh Ac Ad', 'full house by the trips first'],
    ['Ac Ad Ah 3c 3d', '>', 'As Ac Ah 2s 2d', 'then by the pair'],
    ['Ah 9h 8h 4h 3h', '>', 'As 9s 8s 4s 2s', 'flushes compare all five cards'],
    ['Ah 3h 4h 5h 7h', '>', 'Kc Qd Jh Ts 9c', 'a flush beats a straight'],
    ['2c 2d 2h 3c 3d', '>', 'Ah Kh Qh Jh 9h', 'a full house beats a flush'],
    // the board plays
    ['2c 3d As Ks Qd Jh Tc', '=', '4c 5d As Ks Qd Jh Tc', 'both play the board straight'],
    ['2c 3d Ah Ad Ac As Kc', '=', '4c 5d Ah Ad Ac As Kc', 'quads on board, king kicker on board'],
    ['Qc 3d Ah Ad Ac As Kc', '=', '4c 5d Ah Ad Ac As Kc', 'a queen does not beat the board king'],
    // counterfeit: the pocket pair no longer plays once the board pairs twice higher
    ['7c 7d 8h 8s Qc Qd Ah', '=', '2c 3d 8h 8s Qc Qd Ah', 'pocket sevens counterfeited'],
    ['7c 7d 8h 8s Qc Qd 2h', '>', '2c 3d 8h 8s Qc Qd 4h', 'pocket sevens still play as the kicker'],
  ])('%s %s %s (%s)', (a, op, b) => {
    const va = high(a);
    const vb = high(b);
    if (op === '>') expect(va).toBeGreaterThan(vb);
    else expect(va).toBe(vb);
  });
});

describe('refusals', () => {
  it.each([
    ['As Ks Qs Js', 'invalid_hand_size'],
    ['As Ks Qs Js Ts 9s 8s 7s', 'invalid_hand_size'],
    ['As Ks Qs Js As', 'duplicate_card'],
  ])('%s is refused with %s', (hand, code) => {
    expect(() => evaluateHigh(cards(hand))).toThrow(InvalidHandError);
    try {
      describeHigh(cards(hand));
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidHandError).code).toBe(code);
    }
  });

  it('refuses malformed cards and bad codes', () => {
    expect(() => evaluateHigh(['As', 'Ks', 'Qs', 'Js', 'Xx'] as unknown as Card[])).toThrow(InvalidCardError);
    expect(() => evaluateHighCodes([0, 1, 2, 3, 52])).toThrow(InvalidHandError);
    expect(() => evaluateHighCodes([0, 1, 2, 3, 1.5])).toThrow(InvalidHandError);
    expect(() => evaluateHighCodes([0, 1, 2, 3])).toThrow(InvalidHandError);
  });
});

describe('describe is independent of card order', () => {
  it.each(['Kc Kd Kh 5c 5d 5h 2s', 'Ac Ad Kc Qh Jd 3c 2s', '5h 4h 3h 2h Ah Kc Kd', 'Jc Jd 4h 4s 2c 2d 9h'])(
    '%s',
    (hand) => {
      const forward = describeHigh(cards(hand));
      const backward = describeHigh(cards(hand).reverse());
      expect(backward).toEqual(forward);
    },
  );
});

describe('describeHigh on seeded random hands', () => {
  it("returns five of the given cards that, alone, have the hand's value", () => {
    let seed = 99;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let wrong = 0;
    for (let i = 0; i < 3_000; i++) {
      const deck = Array.from({ length: 52 }, (_, c) => c);
      const hand = Array.from({ length: 5 + (i % 3) }, () => cardFromCode(deck.splice(next() % deck.length, 1)[0]!));
      const d = describeHigh(hand);
      const inHand = d.best.every((c) => hand.includes(c));
      if (!inHand || d.best.length !== 5 || evaluateHigh(d.best) !== d.value || evaluateHigh(hand) !== d.value) wrong++;
    }
    expect(wrong).toBe(0);
  });
});
