import { describe, expect, it } from 'vitest';
import { parseCards, type Card } from '../cards.js';
import { InvalidHandError } from './errors.js';
import {
  describeLow27,
  describeLow8,
  describeLowA5,
  evaluateLow27,
  evaluateLow8,
  evaluateLowA5,
  evaluateLowA5Codes,
  qualifiesLow8,
} from './low.js';
import { orderAgreement } from './order-agreement.js';

const cards = (s: string): Card[] => parseCards(s);

describe('8-or-better', () => {
  it.each([
    ['Ac 2d 3h 4s 5c Kd Qh', '5-4-3-2-A low', [5, 4, 3, 2, 1], '5c 4s 3h 2d Ac'],
    ['8c 7d 6h 5s 4c Kd Qh', '8-7-6-5-4 low', [8, 7, 6, 5, 4], '8c 7d 6h 5s 4c'],
    ['8c 6d 4h 3s 2c Kd Qh', '8-6-4-3-2 low', [8, 6, 4, 3, 2], '8c 6d 4h 3s 2c'],
    // Pairs do not count: the paired cards are simply not used.
    ['Ac Ad 2c 2d 3h 4s 5c', '5-4-3-2-A low', [5, 4, 3, 2, 1], '5c 4s 3h 2d Ad'],
    // Straights and flushes do not count against a low.
    ['Ah 2h 3h 4h 5h', '5-4-3-2-A low', [5, 4, 3, 2, 1], '5h 4h 3h 2h Ah'],
    ['7h 6h 5h 4h 3h Kc Kd', '7-6-5-4-3 low', [7, 6, 5, 4, 3], '7h 6h 5h 4h 3h'],
  ])('%s makes %s', (hand, name, tiebreak, best) => {
    const d = describeLow8(cards(hand))!;
    expect(d.name).toBe(name);
    expect(d.category).toBe('high_card');
    expect(d.tiebreak).toEqual(tiebreak);
    expect(d.best).toEqual(cards(best));
    expect(d.value).toBe(evaluateLow8(cards(hand)));
  });

  it.each([
    ['9c 7d 6h 5s 4c Kd Qh', 'a nine is too high'],
    ['Ac Ad 2c 2d 3h 3s Kc', 'only four distinct low ranks'],
    ['8c 8d 7h 7s 6c 6d 5h', 'four distinct ranks, all low, but paired'],
    ['Tc Jd Qh Ks 9c', 'nothing low'],
  ])('%s has no low (%s)', (hand) => {
    expect(evaluateLow8(cards(hand))).toBeNull();
    expect(describeLow8(cards(hand))).toBeNull();
    expect(qualifiesLow8(evaluateLowA5(cards(hand)))).toBe(false);
  });

  it.each([
    ['Ac 2d 3h 4s 5c', '>', 'Ac 2d 3h 4s 6c', 'the wheel is the best low'],
    ['Ac 2d 3h 4s 6c', '>', '2c 3d 4h 5s 6c', 'the ace counts low'],
    ['7c 5d 4h 3s 2c', '>', '7c 6d 4h 3s 2c', 'compared from the top card down'],
    ['8c 5d 4h 3s 2c', '<', '7c 6d 5h 4s 3c', 'an eight low loses to any seven low'],
    ['8c 6d 4h 3s 2c', '=', '8h 6s 4d 3c 2d', 'suits never matter'],
    // Stud counterfeit: pairing the 2 changes nothing, the best five are still 8-4-3-2-A.
    ['Ac 2d 3h 4s 8c 2h 3s', '=', 'Ad 2c 3c 4d 8d Kc Qs', 'pairing does not improve the low'],
  ])('%s %s %s (%s)', (a, op, b) => {
    const va = evaluateLow8(cards(a))!;
    const vb = evaluateLow8(cards(b))!;
    expect(va).not.toBeNull();
    expect(vb).not.toBeNull();
    if (op === '>') expect(va).toBeGreaterThan(vb);
    else if (op === '<') expect(va).toBeLessThan(vb);
    else expect(va).toBe(vb);
  });
});

describe('A-5 lowball (Razz)', () => {
  it.each([
    ['Kc Qd Jh Tc 9d', '>', 'Ac Ad 2c 3d 4h', 'any unpaired hand beats a pair'],
    ['Ac Ad 2c 3d 4h', '>', '2c 2d 3h 4s 5c', 'a pair of aces is the lowest pair'],
    ['2c 2d 3h 4s 5c', '>', '2h 2s 3c 4d 6c', 'same pair: kickers from the top'],
    ['2c 2d 3h 3s Kc', '>', 'Ac Ad Ah 2c 3d', 'two pair beats trips'],
    ['Ac Ad Ah 2c 3d', '>', 'Ac Ad Ah 2c 2d', 'trips beat a full house'],
    ['Ac Ad Ah 2c 2d', '>', 'Ac Ad Ah As 2c', 'a full house beats quads'],
    ['Ah 2h 3h 4h 5h', '=', 'Ac 2d 3h 4s 5c', 'a flush and a straight do not count'],
    ['Kc Qd Jh Tc 9d', '>', 'Kc Qd Jh Tc Td', 'king-high beats a pair of tens'],
  ])('%s %s %s (%s)', (a, op, b) => {
    const va = evaluateLowA5(cards(a));
    const vb = evaluateLowA5(cards(b));
    if (op === '>') expect(va).toBeGreaterThan(vb);
    else expect(va).toBe(vb);
  });

  it.each([
    ['Ac Ad 2c 2d 3h 3s Kc', 'pair', 'Pair of Aces', [1, 13, 3, 2], 'Ad Ac Kc 3s 2d'],
    // Two ranks only: the full house with trips of the lower rank is the best of the fives.
    ['Kc Kd Kh Ks Qc Qd Qh', 'full_house', 'Full House, Queens over Kings', [12, 13], 'Qh Qd Qc Ks Kh'],
    ['Kc Kd Kh Ks Qc Qd 2h', 'two_pair', 'Two Pair, Kings and Queens', [13, 12, 2], 'Ks Kh Qd Qc 2h'],
    ['9c 8d 7h 6s 5c Kc Kd', 'high_card', '9-8-7-6-5 low', [9, 8, 7, 6, 5], '9c 8d 7h 6s 5c'],
  ])('%s is %s: %s', (hand, category, name, tiebreak, best) => {
    const d = describeLowA5(cards(hand));
    expect(d.category).toBe(category);
    expect(d.name).toBe(name);
    expect(d.tiebreak.slice(0, tiebreak.length)).toEqual(tiebreak);
    expect(d.best.slice(0, cards(best).length)).toEqual(cards(best));
    expect(d.value).toBe(evaluateLowA5(cards(hand)));
  });

  it('matches a naive A-5 comparator over 20,000 seeded 7-card hands', () => {
    // Independent of the tables: sort each five into (pairing category, ranks by group then high to
    // low, ace = 1), keep the smallest over the 21 fives, and compare orders.
    let seed = 0x2a5;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const n = 20_000;
    const ours = new Int32Array(n);
    const naive = new Float64Array(n);
    for (let h = 0; h < n; h++) {
      const deck = Array.from({ length: 52 }, (_, i) => i);
      const hand: number[] = [];
      for (let i = 0; i < 7; i++) hand.push(deck.splice(next() % deck.length, 1)[0]!);
      ours[h] = evaluateLowA5Codes(hand);
      let best = Infinity;
      for (let a = 0; a < 7; a++)
        for (let b = a + 1; b < 7; b++) {
          // rank value: ace 1, deuce 2 .. king 13 (c >> 2 is 0 for a deuce, 12 for an ace)
          const values = hand.filter((_, i) => i !== a && i !== b).map((c) => (c >> 2 === 12 ? 1 : (c >> 2) + 2));
          const counts = new Map<number, number>();
          for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
          const groups = [...counts].sort((x, y) => y[1] - x[1] || y[0] - x[0]);
          const shape = groups.map((g) => g[1]).join('');
          const category = ['11111', '2111', '221', '311', '32', '41'].indexOf(shape);
          let score = category;
          for (const [v, c] of groups) for (let i = 0; i < c; i++) score = score * 16 + v;
          best = Math.min(best, score);
        }
      naive[h] = best;
    }
    expect(orderAgreement(ours, naive, true).percent).toBe(100);
  });
});

describe('deuce-to-seven', () => {
  it.each([
    ['7c 5d 4h 3s 2c', '>', '7c 6d 4h 3s 2c', '7-5-4-3-2 is the best hand'],
    ['8c 6d 5h 4s 3c', '>', '6c 5d 4h 3s 2c', 'a straight counts against'],
    ['Kc Qd Jh 9s 8c', '>', '7h 5h 4h 3h 2h', 'a flush counts against'],
    ['Kc Qd Jh 9s 8c', '>', 'Ac 5d 4h 3s 2c', 'the ace is high'],
    ['Ac 5d 4h 3s 2c', '>', '2c 2d 3h 4s 5c', 'A-5-4-3-2 is not a straight: it beats a pair'],
    ['Ac Kd Qh Js 9c', '>', '2c 2d 3h 4s 5c', 'any unpaired hand beats a pair'],
    ['2c 2d 3h 4s 5c', '>', '2c 2d 3h 3s 4c', 'a pair beats two pair'],
    ['Ah 5h 4h 3h 2h', '<', 'Kc Qd Jh 9s 8c', 'the suited A-5-4-3-2 is an ace-high flush, not a straight flush'],
    ['Ah 5h 4h 3h 2h', '>', '2c 2d 2h 3s 3c', 'but a flush still beats a full house in badness order'],
  ])('%s %s %s (%s)', (a, op, b) => {
    const va = evaluateLow27(cards(a));
    const vb = evaluateLow27(cards(b));
    if (op === '>') expect(va).toBeGreaterThan(vb);
    else expect(va).toBeLessThan(vb);
  });

  it.each([
    ['7c 5d 4h 3s 2c', 'high_card', '7-5-4-3-2 low', [7, 5, 4, 3, 2]],
    ['Ac 5d 4h 3s 2c', 'high_card', 'A-5-4-3-2 low', [14, 5, 4, 3, 2]],
    ['6c 5d 4h 3s 2c', 'straight', 'Straight, Six high', [6]],
    ['Ah 5h 4h 3h 2h', 'flush', 'Flush, Ace high', [14, 5, 4, 3, 2]],
    ['9c 9d 4h 3s 2c', 'pair', 'Pair of Nines', [9, 4, 3, 2]],
  ])('%s is %s: %s', (hand, category, name, tiebreak) => {
    const d = describeLow27(cards(hand));
    expect(d.category).toBe(category);
    expect(d.name).toBe(name);
    expect(d.tiebreak).toEqual(tiebreak);
    expect(d.value).toBe(evaluateLow27(cards(hand)));
    expect([...d.best].sort()).toEqual(cards(hand).sort());
  });

  it('takes exactly five cards', () => {
    expect(() => evaluateLow27(cards('7c 5d 4h 3s 2c 8d'))).toThrow(InvalidHandError);
    expect(() => evaluateLow27(cards('7c 5d 4h 3s'))).toThrow(InvalidHandError);
  });
});
