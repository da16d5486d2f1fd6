import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TournamentError } from './errors.js';
import {
  PAYOUT_BPS_TOTAL,
  payoutBracket,
  placeBusts,
  placePrizes,
  shareTiedPlaces,
  STANDARD_PAYOUTS,
  TOURNAMENT_ENTRANTS_MAX,
  type PayoutBracket,
} from './payouts.js';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe('the standard payout chart', () => {
  it.each(STANDARD_PAYOUTS.map((b) => [`${b.minEntrants}-${b.maxEntrants}`, b] as const))(
    'bracket %s adds up to 100 %, never pays a place more than the one above, pays fewer places than its smallest field',
    (_name, bracket: PayoutBracket) => {
      expect(sum(bracket.placeBps)).toBe(PAYOUT_BPS_TOTAL);
      for (let i = 1; i < bracket.placeBps.length; i++) {
        expect(bracket.placeBps[i]).toBeLessThanOrEqual(bracket.placeBps[i - 1]!);
      }
      expect(bracket.placeBps.every((bps) => Number.isInteger(bps) && bps > 0)).toBe(true);
      expect(bracket.placeBps.length).toBeLessThanOrEqual(Math.max(1, bracket.minEntrants - 1));
    },
  );

  it('covers every field from 2 to the maximum once, and nothing else', () => {
    let next = 2;
    for (const b of STANDARD_PAYOUTS) {
      expect(b.minEntrants).toBe(next);
      expect(b.maxEntrants).toBeGreaterThanOrEqual(b.minEntrants);
      next = b.maxEntrants + 1;
    }
    expect(next - 1).toBe(TOURNAMENT_ENTRANTS_MAX);
    for (const bad of [0, 1, TOURNAMENT_ENTRANTS_MAX + 1, 2.5, Number.NaN]) {
      expect(() => payoutBracket(bad)).toThrow(TournamentError);
    }
  });

  it('pays more places as the field grows, and about the top 15 % of a large field', () => {
    let paid = 0;
    for (const b of STANDARD_PAYOUTS) {
      expect(b.placeBps.length).toBeGreaterThanOrEqual(paid);
      paid = b.placeBps.length;
    }
    expect(payoutBracket(60).placeBps.length).toBe(9);
    expect(payoutBracket(1000).placeBps.length / 1000).toBeLessThanOrEqual(0.15);
  });
});

describe('placePrizes', () => {
  it('rounds each share down and gives what is left to first place', () => {
    // 9 entrants of 100: 50 %, 30 %, 20 % of 900.
    expect(placePrizes(900, 9)).toEqual([450, 270, 180]);
    // A pool of 1,001: 500.5, 300.3 and 200.2 rounded down leave 1 chip, which goes to first place.
    expect(placePrizes(1001, 9)).toEqual([501, 300, 200]);
    expect(placePrizes(0, 9)).toEqual([0, 0, 0]);
    expect(placePrizes(5, 2)).toEqual([5]);
  });

  it('refuses a pool that is not whole chips', () => {
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => placePrizes(bad, 9)).toThrow(TournamentError);
    }
  });

  it('adds up to the pool exactly, for any pool and field size, with first place the largest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 2, max: TOURNAMENT_ENTRANTS_MAX }),
        (pool, entrants) => {
          const prizes = placePrizes(pool, entrants);
          expect(prizes.reduce((a, b) => a + BigInt(b), 0n)).toBe(BigInt(pool));
          expect(prizes.length).toBe(payoutBracket(entrants).placeBps.length);
          for (const p of prizes) expect(Number.isSafeInteger(p) && p >= 0).toBe(true);
          for (let i = 1; i < prizes.length; i++) expect(prizes[i]).toBeLessThanOrEqual(prizes[0]!);
        },
      ),
      { seed: 20261203, numRuns: 2000 },
    );
  });
});

describe('shareTiedPlaces', () => {
  it('shares the prizes of the places the tied players cover, odd chips first in the given order', () => {
    const prizes = [500, 300, 200];
    expect(shareTiedPlaces(prizes, 2, ['a', 'b'])).toEqual([
      { player: 'a', place: 2, amount: 250 },
      { player: 'b', place: 2, amount: 250 },
    ]);
    // Places 3 and 4: 200 + nothing.
    expect(shareTiedPlaces(prizes, 3, ['a', 'b']).map((s) => s.amount)).toEqual([100, 100]);
    // Places 1 to 3 among three: 1000 / 3 = 333 each, one odd chip to the first.
    expect(shareTiedPlaces(prizes, 1, ['x', 'y', 'z']).map((s) => s.amount)).toEqual([334, 333, 333]);
    expect(shareTiedPlaces(prizes, 9, ['a'])).toEqual([{ player: 'a', place: 9, amount: 0 }]);
    expect(shareTiedPlaces(prizes, 1, [])).toEqual([]);
    expect(() => shareTiedPlaces(prizes, 0, ['a'])).toThrow(TournamentError);
  });

  it('pays out the whole pool however the field finishes in tied groups, a better place never less', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc
          .integer({ min: 2, max: 200 })
          .chain((n) =>
            fc.tuple(fc.constant(n), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: n, maxLength: n })),
          ),
        (pool, [entrants, groupSizes]) => {
          const prizes = placePrizes(pool, entrants);
          let place = 1;
          let paid = 0;
          let betterMin = Number.POSITIVE_INFINITY;
          while (place <= entrants) {
            const size = Math.min(groupSizes[place - 1]!, entrants - place + 1);
            const shares = shareTiedPlaces(
              prizes,
              place,
              Array.from({ length: size }, (_, i) => i),
            );
            const amounts = shares.map((s) => s.amount);
            expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
            // Odd chips go by seat order within a tie, but across places the order holds.
            expect(Math.max(...amounts)).toBeLessThanOrEqual(betterMin);
            betterMin = Math.min(...amounts);
            paid += sum(amounts);
            place += size;
          }
          expect(paid).toBe(pool);
        },
      ),
      { seed: 7, numRuns: 500 },
    );
  });
});

describe('placeBusts', () => {
  const bust = (player: string, startingStack: number) => ({ player, startingStack });

  it('places the bigger starting stack higher and ties equal stacks (TDA)', () => {
    expect(placeBusts([bust('a', 100), bust('b', 300), bust('c', 100)], 6, 'starting_stack')).toEqual([
      { place: 7, players: ['b'] },
      { place: 8, players: ['a', 'c'] },
    ]);
  });

  it('ties every bust of the event under the tie rule', () => {
    expect(placeBusts([bust('a', 100), bust('b', 300)], 2, 'tie')).toEqual([{ place: 3, players: ['a', 'b'] }]);
    expect(placeBusts([], 2, 'tie')).toEqual([]);
    expect(() => placeBusts([bust('a', 1)], -1, 'tie')).toThrow(TournamentError);
  });

  it('gives each bust one place in a run below the players remaining, best stack first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 1, max: 100 }),
        (stacks, remaining) => {
          const groups = placeBusts(
            stacks.map((s, i) => bust(`p${i}`, s)),
            remaining,
            'starting_stack',
          );
          let place = remaining + 1;
          let prev = Number.POSITIVE_INFINITY;
          const seen = new Set<string>();
          for (const g of groups) {
            expect(g.place).toBe(place);
            const groupStacks = g.players.map((p) => stacks[Number(p.slice(1))]!);
            expect(new Set(groupStacks).size).toBe(1);
            expect(groupStacks[0]!).toBeLessThan(prev);
            prev = groupStacks[0]!;
            for (const p of g.players) seen.add(p);
            place += g.players.length;
          }
          expect(seen.size).toBe(stacks.length);
        },
      ),
      { seed: 11, numRuns: 500 },
    );
  });
});
