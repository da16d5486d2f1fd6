import { describe, expect, it } from 'vitest';
import { cardCode, parseCards, type Card } from '../cards.js';
import { omahaFives } from './describe.js';
import { InvalidHandError } from './errors.js';
import { describeHigh, evaluate5 } from './high.js';
import { low8OfFive } from './low.js';
import {
  describeOmahaHigh,
  describeOmahaLow8,
  evaluateOmahaHigh,
  evaluateOmahaHighCodes,
  evaluateOmahaLow8,
  evaluateOmahaLow8Codes,
} from './omaha.js';

const cards = (s: string): Card[] => parseCards(s);
const high = (hole: string, board: string): number => evaluateOmahaHigh(cards(hole), cards(board));

describe('Omaha high: exactly two hole cards and three board cards', () => {
  it.each([
    // Four of a suit in hand is not a flush without three of the suit on board.
    ['Ah Kh Qh Jh', '2h 3h 4c 5d 9s', 'high_card', 'High Card, Ace'],
    ['Ah Kh 2c 3d', '7h 8h 9h Tc Jc', 'flush', 'Flush, Ace high'],
    // Four to a straight on board needs two hole cards to finish: one nine is not enough...
    ['9d Ac Qc Qd', '5c 6d 7h 8s Kc', 'pair', 'Pair of Queens'],
    // ...two connected hole cards are.
    ['9d Tc Qc Qd', '5c 6d 7h 8s Kc', 'straight', 'Straight, Ten high'],
    // A board pair with a pocket pair: the full house uses the pair in hand as trips.
    ['7c 7d Ac Qs', 'Kc Kd 7h 4s 2c', 'full_house', 'Full House, Sevens over Kings'],
    ['Ac Ad 9c 8c', 'Kc Kd 7h 4s 2c', 'two_pair', 'Two Pair, Aces and Kings'],
    // Trips on board: a pocket pair makes a full house, two odd cards only trips with two kickers.
    ['Ac Ad 9c 8c', 'Kc Kd Kh 4s 2c', 'full_house', 'Full House, Kings over Aces'],
    ['Ac Qd 9c 8c', 'Kc Kd Kh 4s 2c', 'trips', 'Three of a Kind, Kings'],
    ['Ks Qd 9c 8c', 'Kc Kd Kh 4s 2c', 'quads', 'Four of a Kind, Kings'],
    // Quads on board cannot play: only three board cards may be used.
    ['2c 3d 9h 8h', 'Kc Kd Kh Ks Ac', 'trips', 'Three of a Kind, Kings'],
    // A flush or straight on board plays only with two hole cards that fit it.
    ['As 2c 3d 4d', 'Kh Qh Jh Th 9h', 'high_card', 'High Card, Ace'],
    ['As Ks 3d 4d', 'Kh Qh Jh Th 9h', 'straight', 'Straight, Ace high'],
    ['Ah 2h 3d 4d', 'Kh Qh Jh Th 9h', 'flush', 'Flush, Ace high'],
    // PLO5 and a turn board.
    ['Ah Kh Qd Jd Tc', '9h 8h 2h', 'flush', 'Flush, Ace high'],
    ['Ah Kd Qd Jd Tc', '9h 8h 2h 3c', 'high_card', 'High Card, Ace'],
  ])('%s on %s is %s (%s)', (hole, board, category, name) => {
    const d = describeOmahaHigh(cards(hole), cards(board));
    expect(d.category).toBe(category);
    expect(d.name).toBe(name);
    expect(d.value).toBe(high(hole, board));
    const holeSet = new Set(cards(hole));
    expect(d.best.filter((c) => holeSet.has(c))).toHaveLength(2);
    expect(d.best.filter((c) => !holeSet.has(c))).toHaveLength(3);
    // The five used, judged alone, give the same value.
    expect(describeHigh(d.best).value).toBe(d.value);
  });

  it("compares with the Hold'em ranking", () => {
    expect(high('Ah Kh 2c 3d', '7h 8h 9h Tc Jc')).toBeGreaterThan(high('Qc Kd 2s 3s', '7h 8h 9h Tc Jc'));
    expect(high('Ac Ad 2c 3d', 'As Ah Kd Qc Jc')).toBe(high('Ac Ad 2c 3d', 'As Ah Kd Qc Jc'));
  });

  it('equals the best of the 2+3 fives by brute force on 5,000 seeded deals of every shape', () => {
    let seed = 7;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let checked = 0;
    let wrong = 0;
    for (let i = 0; i < 5_000; i++) {
      const holeSize = 4 + (i % 2);
      const boardSize = 3 + (i % 3);
      const deck = Array.from({ length: 52 }, (_, c) => c);
      const draw = (): number => deck.splice(next() % deck.length, 1)[0]!;
      const hole = Array.from({ length: holeSize }, draw);
      const board = Array.from({ length: boardSize }, draw);
      const fives = omahaFives(hole, board);
      const brute = Math.max(...fives.map((f) => evaluate5(f[0]!, f[1]!, f[2]!, f[3]!, f[4]!)));
      if (evaluateOmahaHighCodes(hole, board) !== brute) wrong++;
      const lows = fives.map(low8OfFive).filter((v): v is number => v !== null);
      const bruteLow = lows.length === 0 ? null : Math.max(...lows);
      if (evaluateOmahaLow8Codes(hole, board) !== bruteLow) wrong++;
      checked++;
    }
    expect(checked).toBe(5_000);
    expect(wrong).toBe(0);
  });

  it('refuses a card in both hole and board, and bad shapes', () => {
    expect(() => evaluateOmahaHigh(cards('Ah Kh Qh Jh'), cards('Ah 2c 3c'))).toThrow(InvalidHandError);
    expect(() => evaluateOmahaHigh(cards('Ah'), cards('2c 3c 4c'))).toThrow(InvalidHandError);
    expect(() => evaluateOmahaHigh(cards('Ah Kh Qh Jh'), cards('2c 3c'))).toThrow(InvalidHandError);
    expect(() => evaluateOmahaHigh(cards('Ah Kh Qh Jh'), cards('2c 3c 4c 5c 6c 7c'))).toThrow(InvalidHandError);
    expect(() => evaluateOmahaHighCodes([0, 1, 2, 3], [4, 5, 99])).toThrow(InvalidHandError);
  });
});

describe('Omaha 8-or-better low', () => {
  it.each([
    ['Ac 2c Kd Kh', '3d 4h 5s Qc Jc', '5-4-3-2-A low'],
    ['Ac 2c Kd Kh', '2d 5h 6s 7c Kc', '7-6-5-2-A low'],
    // Four low cards in hand still use only two: A-2 with 6-7-8.
    ['Ac 2c 3d 4d', '6h 7s 8c Kc Qd', '8-7-6-2-A low'],
  ])('%s on %s makes %s', (hole, board, name) => {
    const d = describeOmahaLow8(cards(hole), cards(board))!;
    expect(d.name).toBe(name);
    expect(d.value).toBe(evaluateOmahaLow8(cards(hole), cards(board)));
    const holeSet = new Set(cards(hole));
    expect(d.best.filter((c) => holeSet.has(c))).toHaveLength(2);
  });

  it.each([
    // Counterfeited: the board's 2 duplicates the hand's, leaving only two other low board ranks.
    ['Ac 2c Kd Kh', '2d 4h 5s Kc Qc', 'counterfeit'],
    ['Ac Kc Qd Jh', '2d 3h 4s 5c 6c', 'one low card in hand'],
    ['Ac 2c 3d 4h', '5d 9h Ts Kc Qc', 'one low card on board'],
    ['Ac 2c 3d 4h', '9d Th Js Kc Qc', 'no low board'],
    ['Ac 2c 3d 4h', '5d 5h 6s 6c Qc', 'board lows pair up: only two low ranks'],
  ])('%s on %s has no low (%s)', (hole, board) => {
    expect(evaluateOmahaLow8(cards(hole), cards(board))).toBeNull();
    expect(describeOmahaLow8(cards(hole), cards(board))).toBeNull();
  });

  it('a counterfeited hand loses to a live one', () => {
    const board = cards('2d 4h 5s 8c Kc');
    expect(evaluateOmahaLow8(cards('Ac 3c Kd Kh'), board)).toBeGreaterThan(
      evaluateOmahaLow8(cards('Ac 2c Kd Kh'), board)!,
    );
    expect(cardCode('2d')).toBe(1);
  });
});
