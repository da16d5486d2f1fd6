import { describe, expect, it } from 'vitest';
import { parseCards, type Card } from '../cards.js';
import { subsets } from './describe.js';
import { InvalidHandError } from './errors.js';
import { describeShortDeck, evaluateShortDeck, evaluateShortDeckCodes } from './short-deck.js';

const cards = (s: string): Card[] => parseCards(s);
const sd = (s: string): number => evaluateShortDeck(cards(s));

describe('short deck', () => {
  // Reference 001, "Short Deck Rankings": Royal Flush > Straight Flush > Four of a Kind > Flush >
  // Full House > Straight > ...; A-6-7-8-9 is the lowest straight. Trips stay below a straight: the
  // reference changes only the flush / full house order.
  it.each([
    ['Ah Th 8h 7h 6h', '>', 'Kc Kd Kh Qs Qc', 'a flush beats a full house'],
    ['Ac Ad Ah As 6c', '>', 'Ah Kh Qh Jh 9h', 'quads beat a flush'],
    ['Kc Kd Kh Qs Qc', '>', 'Ac Kd Qh Js Tc', 'a full house beats a straight'],
    ['6c 7d 8h 9s Ac', '>', 'Ac Ad Ah Kc Qd', 'A-6-7-8-9 is a straight and beats trips'],
    ['6c 7d 8h 9s Tc', '>', '6d 7h 8s 9c Ad', 'A-6-7-8-9 is the lowest straight'],
    ['6h 7h 8h 9h Ah', '>', 'Ac Ad Ah As Kc', 'A-6-7-8-9 suited is a straight flush'],
    ['6h 7h 8h 9h Th', '>', '6d 7d 8d 9d Ad', 'and the lowest one'],
    ['Ac Kd Qh Js Tc', '>', 'Kc Qd Jh Ts 9c', 'broadway is the top straight'],
    ['Ac Kc 7c 8c 9c Kd Kh', '>', 'Ad Kc Ac 8c 9d Kd Kh', 'the flush beats the full house in seven cards'],
  ])('%s %s %s (%s)', (a, op, b) => {
    expect(op).toBe('>');
    expect(sd(a)).toBeGreaterThan(sd(b));
  });

  it.each([
    ['Ac 6d 7h 8s 9c Kd Qh', 'straight', 'Straight, Nine high', [9], '9c 8s 7h 6d Ac'],
    ['Ah 6h 7h 8h 9h Kd Qh', 'straight_flush', 'Straight Flush, Nine high', [9], '9h 8h 7h 6h Ah'],
    ['Ah Th 8h 7h 6h Kc Kd', 'flush', 'Flush, Ace high', [14, 10, 8, 7, 6], 'Ah Th 8h 7h 6h'],
    ['As Ks Qs Js Ts 9s 8s', 'straight_flush', 'Royal Flush', [14], 'As Ks Qs Js Ts'],
  ])('%s is %s: %s', (hand, category, name, tiebreak, best) => {
    const d = describeShortDeck(cards(hand));
    expect(d.category).toBe(category);
    expect(d.name).toBe(name);
    expect(d.tiebreak).toEqual(tiebreak);
    expect(d.best).toEqual(cards(best));
    expect(d.value).toBe(sd(hand));
  });

  it('judges seven cards as the best of their fives (2,000 seeded hands)', () => {
    let seed = 11;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let wrong = 0;
    for (let i = 0; i < 2_000; i++) {
      const deck = Array.from({ length: 36 }, (_, c) => c + 16);
      const hand = Array.from({ length: 7 }, () => deck.splice(next() % deck.length, 1)[0]!);
      const brute = Math.max(...subsets(hand, 5).map((f) => evaluateShortDeckCodes(f)));
      if (evaluateShortDeckCodes(hand) !== brute) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('refuses a card the 36-card deck does not hold', () => {
    expect(() => sd('Ac 5d 7h 8s 9c')).toThrow(InvalidHandError);
    expect(() => evaluateShortDeckCodes([0, 20, 24, 28, 32])).toThrow(InvalidHandError);
  });
});
