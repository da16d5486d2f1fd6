import { describe, expect, it } from 'vitest';
import { lowA5Key, nonFlushKey, SHORT_DECK_RULES, STANDARD_RULES } from './classify.js';
import { evaluateCodesWith, standardTables } from './high.js';
import { evaluatorTableBytes } from './index.js';
import { evaluateLowA5Codes, lowTables } from './low.js';
import { HIGH_GROUP_KEYS, HIGH_GROUP_SHIFT, LOW_GROUP_KEYS, RANK_KEY, rankIndex } from './rank-index.js';
import { shortDeckTables } from './short-deck.js';

/** Every multiset of `ranks` ranks with at most four of each and `min`..`max` cards. */
function multisets(ranks: number, min: number, max: number): number[][] {
  const out: number[][] = [];
  const counts = new Array<number>(ranks).fill(0);
  const visit = (r: number, size: number): void => {
    if (r === ranks) {
      if (size >= min) out.push(counts.slice());
      return;
    }
    for (let c = 0; c <= 4 && size + c <= max; c++) {
      counts[r] = c;
      visit(r + 1, size + c);
    }
    counts[r] = 0;
  };
  visit(0, 0);
  return out;
}

/** A hand with these rank counts and no flush: suits cycle c, d, h, s over the cards in rank order. */
function handOf(counts: readonly number[]): number[] {
  const codes: number[] = [];
  counts.forEach((c, r) => {
    for (let i = 0; i < c; i++) codes.push(r * 4 + (codes.length % 4));
  });
  return codes;
}

describe('rank keys', () => {
  it.each([
    ['deuce..eight', LOW_GROUP_KEYS],
    ['nine..ace', HIGH_GROUP_KEYS],
  ])('give every %s multiset of up to seven cards its own sum', (_, keys) => {
    const sums = multisets(keys.length, 0, 7).map((m) => m.reduce((s, c, r) => s + c * keys[r]!, 0));
    expect(new Set(sums).size).toBe(sums.length);
  });

  it('keep the low group under 16 bits and a seven-card sum inside a positive int32', () => {
    const lowMax = 4 * LOW_GROUP_KEYS[6]! + 3 * LOW_GROUP_KEYS[5]!;
    expect(lowMax).toBeLessThan(1 << HIGH_GROUP_SHIFT);
    const codes = [51, 50, 49, 48, 47, 46, 45]; // four aces and three kings: the largest sum
    expect(codes.reduce((s, c) => s + RANK_KEY[c]!, 0)).toBeLessThan(2 ** 31);
  });

  it('index 6,175 + 18,395 + 49,205 rank multisets', () => {
    expect(rankIndex().fiveCardEntries).toBe(6_175);
    expect(rankIndex().entries).toBe(73_775);
  });
});

describe('tables against first principles', () => {
  const all = multisets(13, 5, 7);

  it('hold, for every 5..7-card rank multiset, the best non-flush high hand judged directly', () => {
    // The 6- and 7-card slots are filled by best-of-removals; nonFlushKey judges the whole multiset.
    const std = standardTables();
    const short = shortDeckTables();
    let wrong = 0;
    for (const counts of all) {
      const hand = handOf(counts);
      if (std.keyOfValue[evaluateCodesWith(std, hand)] !== nonFlushKey(counts, STANDARD_RULES)) wrong++;
      if (short.keyOfValue[evaluateCodesWith(short, hand)] !== nonFlushKey(counts, SHORT_DECK_RULES)) wrong++;
    }
    expect(all).toHaveLength(73_775);
    expect(wrong).toBe(0);
  });

  it('hold, for every 5..7-card rank multiset, the best A-5 low over all its five-card subsets', () => {
    const keys = lowTables().keyOfValue;
    let wrong = 0;
    for (const counts of all) {
      const hand = handOf(counts);
      let best = Infinity; // smaller A-5 key = better low
      const n = hand.length;
      for (let skip = 0; skip < 1 << n; skip++) {
        let bits = 0;
        for (let s = skip; s !== 0; s &= s - 1) bits++;
        if (bits !== n - 5) continue;
        const sub = new Array<number>(13).fill(0);
        for (let i = 0; i < n; i++) if (!(skip & (1 << i))) sub[hand[i]! >> 2]!++;
        best = Math.min(best, lowA5Key(sub));
      }
      if (keys[evaluateLowA5Codes(hand)] !== best) wrong++;
    }
    expect(wrong).toBe(0);
  });
});

describe('memory', () => {
  it('keeps every evaluator table well under 10 MB', () => {
    const bytes = evaluatorTableBytes();
    expect(bytes).toBeGreaterThan(500_000); // the tables exist and are counted
    expect(bytes).toBeLessThan(2_000_000);
  });
});
