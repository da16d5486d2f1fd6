import { describe, expect, it } from 'vitest';
import { HAND_CATEGORIES, keyCategory, type HandCategory } from './hand-class.js';
import { evaluate5, HIGH_CLASS_COUNT, highCategory, standardTables } from './high.js';
import { evaluateLow27Codes, evaluateLowA5Codes, low27Category, lowTables } from './low.js';
import { evaluateShortDeckCodes, shortDeckCategory } from './short-deck.js';

/** Histogram of values over every five-card hand of the cards `from` .. 51. */
function histogram(
  from: number,
  evaluate: (a: number, b: number, c: number, d: number, e: number) => number,
): {
  hist: Int32Array;
  hands: number;
} {
  const hist = new Int32Array(1 << 16);
  let hands = 0;
  for (let a = from; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++)
        for (let d = c + 1; d < 52; d++)
          for (let e = d + 1; e < 52; e++) {
            hist[evaluate(a, b, c, d, e)]!++;
            hands++;
          }
  return { hist, hands };
}

function byCategory(
  hist: Int32Array,
  category: (value: number) => HandCategory,
): { hands: Record<string, number>; classes: Record<string, number> } {
  const hands: Record<string, number> = {};
  const classes: Record<string, number> = {};
  for (let v = 0; v < hist.length; v++) {
    const n = hist[v]!;
    if (n === 0) continue;
    const c = category(v);
    hands[c] = (hands[c] ?? 0) + n;
    classes[c] = (classes[c] ?? 0) + 1;
  }
  return { hands, classes };
}

describe('every five-card hand', () => {
  it('counts all 2,598,960 high hands per category against the known totals', () => {
    const { hist, hands } = histogram(0, evaluate5);
    expect(hands).toBe(2_598_960);
    const counts = byCategory(hist, highCategory);
    expect(counts.hands).toEqual({
      straight_flush: 40, // including the 4 royal flushes
      quads: 624,
      full_house: 3_744,
      flush: 5_108,
      straight: 10_200,
      trips: 54_912,
      two_pair: 123_552,
      pair: 1_098_240,
      high_card: 1_302_540,
    });
    expect(counts.classes).toEqual({
      straight_flush: 10,
      quads: 156,
      full_house: 156,
      flush: 1_277,
      straight: 10,
      trips: 858,
      two_pair: 858,
      pair: 2_860,
      high_card: 1_277,
    });
    // Values are dense: 1 (7-5-4-3-2 offsuit) .. 7,462 (royal flush), every one reached.
    let distinct = 0;
    for (let v = 1; v <= HIGH_CLASS_COUNT; v++) if (hist[v]! > 0) distinct++;
    expect(distinct).toBe(7_462);
    expect(hist[0]).toBe(0);
    expect(hist[HIGH_CLASS_COUNT]).toBe(4); // four royals
    expect(hist[HIGH_CLASS_COUNT + 1]).toBe(0);
    expect(standardTables().keyOfValue.length - 1).toBe(HIGH_CLASS_COUNT);
  });

  it('orders the categories strictly: every hand of a category beats every hand of the one below', () => {
    const keys = standardTables().keyOfValue;
    const order: number[] = [];
    for (let v = 1; v < keys.length; v++) order.push(HAND_CATEGORIES.indexOf(keyCategory(keys[v]!)));
    expect(order).toEqual(order.slice().sort((a, b) => a - b));
    expect(new Set(order).size).toBe(HAND_CATEGORIES.length);
  });

  it('counts all 2,598,960 A-5 lows per pairing category (straights and flushes do not exist)', () => {
    const { hist, hands } = histogram(0, (a, b, c, d, e) => evaluateLowA5Codes([a, b, c, d, e]));
    expect(hands).toBe(2_598_960);
    const keys = lowTables().keyOfValue;
    const counts = byCategory(hist, (v) => keyCategory(keys[v]!));
    expect(counts.hands).toEqual({
      high_card: 1_317_888, // C(13,5) * 4^5: every unpaired hand, straights and flushes included
      pair: 1_098_240,
      two_pair: 123_552,
      trips: 54_912,
      full_house: 3_744,
      quads: 624,
    });
    expect(counts.classes).toEqual({
      high_card: 1_287,
      pair: 2_860,
      two_pair: 858,
      trips: 858,
      full_house: 156,
      quads: 156,
    });
  });

  it('counts all 2,598,960 deuce-to-seven hands: A-5-4-3-2 is ace high (or an ace-high flush), not a straight', () => {
    const { hist, hands } = histogram(0, evaluateLow27Codes);
    expect(hands).toBe(2_598_960);
    const counts = byCategory(hist, low27Category);
    expect(counts.hands).toEqual({
      high_card: 1_302_540 + 1_020, // plus the offsuit wheels
      pair: 1_098_240,
      two_pair: 123_552,
      trips: 54_912,
      straight: 10_200 - 1_020,
      flush: 5_108 + 4, // plus the suited wheels
      full_house: 3_744,
      quads: 624,
      straight_flush: 40 - 4,
    });
    expect(counts.classes).toMatchObject({ high_card: 1_278, straight: 9, flush: 1_278, straight_flush: 9 });
    // Higher is the better low: the best class is 7-5-4-3-2 offsuit (1,020 hands), the worst a royal flush.
    let best = 0;
    for (let v = 0; v < hist.length; v++) if (hist[v]! > 0) best = v;
    expect(hist[best]).toBe(1_020);
    expect(low27Category(best)).toBe('high_card');
    let worst = 0;
    while (hist[worst] === 0) worst++;
    expect(hist[worst]).toBe(4);
    expect(low27Category(worst)).toBe('straight_flush');
  });

  it('counts all 376,992 short-deck hands per category, flush above full house', () => {
    // Ranks 6..A, so the cards are codes 16..51. Totals from the 36-card combinatorics: 6 straights
    // (A-6-7-8-9 .. T-J-Q-K-A), so 24 straight flushes, 4 * C(9,5) - 24 = 480 flushes, 6 * 4^5 - 24 straights.
    const { hist, hands } = histogram(16, (a, b, c, d, e) => evaluateShortDeckCodes([a, b, c, d, e]));
    expect(hands).toBe(376_992);
    const counts = byCategory(hist, shortDeckCategory);
    expect(counts.hands).toEqual({
      straight_flush: 24,
      quads: 288,
      flush: 480,
      full_house: 1_728,
      straight: 6_120,
      trips: 16_128,
      two_pair: 36_288,
      pair: 193_536,
      high_card: 122_400,
    });
    expect(counts.classes).toEqual({
      straight_flush: 6,
      quads: 72,
      flush: 120,
      full_house: 72,
      straight: 6,
      trips: 252,
      two_pair: 252,
      pair: 504,
      high_card: 120,
    });
    // Every short-deck flush beats every short-deck full house, and a straight still beats trips.
    const values = (category: HandCategory): number[] => {
      const out: number[] = [];
      for (let v = 0; v < hist.length; v++) if (hist[v]! > 0 && shortDeckCategory(v) === category) out.push(v);
      return out;
    };
    expect(Math.min(...values('flush'))).toBeGreaterThan(Math.max(...values('full_house')));
    expect(Math.min(...values('full_house'))).toBeGreaterThan(Math.max(...values('straight')));
    expect(Math.min(...values('straight'))).toBeGreaterThan(Math.max(...values('trips')));
    expect(Math.min(...values('straight_flush'))).toBeGreaterThan(Math.max(...values('quads')));
    expect(Math.min(...values('quads'))).toBeGreaterThan(Math.max(...values('flush')));
  });
});
