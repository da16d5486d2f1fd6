import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quickHand, stacksOf } from '../../test/helpers.js';
import { SetupError } from '../errors.js';
import { decideRake, deductRake, type GrossShare } from './rake.js';
import { resolveRake } from './setup.js';

const rake = (percent: number, cap: number, extra: { headsUpPercent?: number; noFlopNoDrop?: boolean } = {}) =>
  resolveRake({ percent, cap, ...extra });

describe('decideRake', () => {
  it('takes floor(contested * percent / 100)', () => {
    expect(decideRake(rake(5, 0), 105, 3, true)).toMatchObject({ amount: 5, rule: 'standard', bps: 500 });
    expect(decideRake(rake(2.5, 0), 199, 3, true)).toMatchObject({ amount: 4, bps: 250 });
  });

  it('limits it by the cap, where 0 means no cap', () => {
    expect(decideRake(rake(5, 30), 1000, 3, true)).toMatchObject({ amount: 30, capped: true });
    expect(decideRake(rake(5, 0), 1000, 3, true)).toMatchObject({ amount: 50, capped: false });
  });

  it('uses the heads-up percentage with exactly two players left', () => {
    expect(decideRake(rake(5, 0, { headsUpPercent: 2 }), 1000, 2, true)).toMatchObject({
      amount: 20,
      rule: 'heads_up',
    });
    expect(decideRake(rake(5, 0, { headsUpPercent: 2 }), 1000, 3, true)).toMatchObject({
      amount: 50,
      rule: 'standard',
    });
    expect(decideRake(rake(5, 0), 1000, 2, true)).toMatchObject({ amount: 50, rule: 'standard' });
  });

  it('takes nothing without a flop when no-flop-no-drop is on (the default)', () => {
    expect(decideRake(rake(5, 0), 1000, 3, false)).toMatchObject({ amount: 0, rule: 'no_flop' });
    expect(decideRake(rake(5, 0, { noFlopNoDrop: false }), 1000, 3, false)).toMatchObject({ amount: 50 });
    expect(decideRake(null, 1000, 3, true)).toMatchObject({ amount: 0, rule: 'none' });
  });

  it('refuses percentages with more than two decimals or out of range', () => {
    expect(() => rake(2.555, 0)).toThrow(SetupError);
    expect(() => rake(101, 0)).toThrow(SetupError);
    expect(() => resolveRake({ percent: 5, cap: -1 })).toThrow(SetupError);
  });
});

describe('deductRake', () => {
  // Clockwise from the button: seat 3, then 1, then 2.
  const first = new Map([
    [3, 0],
    [1, 1],
    [2, 2],
  ]);
  const rakes = (shares: GrossShare[], rake: number, clockwise = first): number[] =>
    deductRake(shares, rake, clockwise).map((net, i) => shares[i]!.gross - net);

  it('takes the rake in proportion: floors of the kept chips, leftovers by largest fraction', () => {
    // 101 chips split 51 / 50, rake 5: they keep 48.47 and 47.52 -> 48 + 47, and the leftover chip goes
    // to the larger fraction (seat 2), whoever is first after the button.
    const a = [
      { pot: 0, seat: 1, gross: 51 },
      { pot: 0, seat: 2, gross: 50 },
    ];
    expect(deductRake(a, 5, first)).toEqual([48, 48]);
    const b = [
      { pot: 0, seat: 2, gross: 51 },
      { pot: 0, seat: 3, gross: 50 },
    ];
    expect(deductRake(b, 5, first)).toEqual([48, 48]);
  });

  it('gives a leftover chip on equal fractions to the first winner clockwise from the button', () => {
    // 50 / 50, rake 5: both keep 47.5.
    expect(
      deductRake(
        [
          { pot: 0, seat: 1, gross: 50 },
          { pot: 0, seat: 2, gross: 50 },
        ],
        5,
        first,
      ),
    ).toEqual([48, 47]);
    expect(
      deductRake(
        [
          { pot: 0, seat: 2, gross: 50 },
          { pot: 0, seat: 3, gross: 50 },
        ],
        5,
        first,
      ),
    ).toEqual([47, 48]);
    // The same seat in two pots with equal fractions: the lower pot index keeps the chip.
    expect(
      deductRake(
        [
          { pot: 1, seat: 1, gross: 10 },
          { pot: 0, seat: 1, gross: 10 },
        ],
        1,
        first,
      ),
    ).toEqual([9, 10]);
  });

  it('never takes more than a share or less than nothing across side pots with different winners', () => {
    // The case the old split broke: rake 1 over three pots won by three players. Every share lost one
    // chip to rounding and the two leftover chips all went to the first winner after the button (seat 3),
    // who was paid 121 from a pot share of 120: pot 0 raked -1.
    const shares = [
      { pot: 0, seat: 3, gross: 120 },
      { pot: 1, seat: 1, gross: 210 },
      { pot: 2, seat: 2, gross: 1800 },
    ];
    expect(deductRake(shares, 1, first)).toEqual([120, 210, 1799]);
    expect(rakes(shares, 1)).toEqual([0, 0, 1]);
    // A one-chip share next to a big pot split two ways.
    const small = [
      { pot: 0, seat: 3, gross: 1 },
      { pot: 1, seat: 1, gross: 5 },
      { pot: 1, seat: 2, gross: 5 },
    ];
    expect(deductRake(small, 1, first)).toEqual([1, 5, 4]);
    // Rake equal to everything: every share pays all of it.
    expect(deductRake(small, 11, first)).toEqual([0, 0, 0]);
  });

  it('leaves shares alone without rake', () => {
    expect(deductRake([{ pot: 0, seat: 1, gross: 10 }], 0, first)).toEqual([10]);
    expect(deductRake([], 0, first)).toEqual([]);
  });

  it('refuses a rake larger than the pots and amounts that are not chips', () => {
    expect(() => deductRake([{ pot: 0, seat: 1, gross: 10 }], 11, first)).toThrow(RangeError);
    expect(() => deductRake([], 1, first)).toThrow(RangeError);
    expect(() => deductRake([{ pot: 0, seat: 1, gross: 10 }], -1, first)).toThrow(RangeError);
    expect(() => deductRake([{ pot: 0, seat: 1, gross: 1.5 }], 1, first)).toThrow(RangeError);
  });

  const shareList = fc
    .array(
      fc.record({
        pot: fc.integer({ min: 0, max: 5 }),
        seat: fc.integer({ min: 1, max: 9 }),
        gross: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 5_000_000 })),
      }),
      { minLength: 1, maxLength: 12 },
    )
    .filter((shares) => shares.some((s) => s.gross > 0));
  const seatOrder = fc.shuffledSubarray([1, 2, 3, 4, 5, 6, 7, 8, 9], { minLength: 9, maxLength: 9 });

  it('property: each share pays floor or ceil of its quota, within [0, gross], adding up to the rake', () => {
    fc.assert(
      fc.property(shareList, fc.double({ min: 0, max: 1, noNaN: true }), seatOrder, (shares, f, order) => {
        let total = 0;
        for (const s of shares) total += s.gross;
        const rake = Math.min(total, Math.floor(total * f));
        const clockwise = new Map(order.map((seat, i) => [seat, i]));
        const nets = deductRake(shares, rake, clockwise);
        let sum = 0;
        const perPot = new Map<number, number>();
        const perSeat = new Map<number, number>();
        shares.forEach((s, i) => {
          const net = nets[i]!;
          const paid = s.gross - net;
          expect(Number.isSafeInteger(net)).toBe(true);
          expect(paid).toBeGreaterThanOrEqual(0);
          expect(paid).toBeLessThanOrEqual(s.gross);
          // In proportion: floor or ceil of rake * gross / total, exactly.
          const quota = BigInt(rake) * BigInt(s.gross);
          const floor = Number(quota / BigInt(total));
          expect(paid === floor || (paid === floor + 1 && quota % BigInt(total) !== 0n)).toBe(true);
          sum += paid;
          perPot.set(s.pot, (perPot.get(s.pot) ?? 0) + paid);
          perSeat.set(s.seat, (perSeat.get(s.seat) ?? 0) + paid);
        });
        expect(sum).toBe(rake);
        for (const v of perPot.values()) expect(v).toBeGreaterThanOrEqual(0);
        for (const v of perSeat.values()) expect(v).toBeGreaterThanOrEqual(0);
        // Largest remainder: a share rounded up never has a smaller fraction than one rounded down.
        const frac = (i: number): bigint => (BigInt(rake) * BigInt(shares[i]!.gross)) % BigInt(total);
        const roundedUp = shares.map(
          (s, i) => BigInt(s.gross - nets[i]!) * BigInt(total) > BigInt(rake) * BigInt(s.gross),
        );
        const up = shares.map((_, i) => i).filter((i) => roundedUp[i]);
        const down = shares.map((_, i) => i).filter((i) => !roundedUp[i] && frac(i) !== 0n);
        for (const u of up) for (const d of down) expect(frac(u) >= frac(d)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('rake in a hand', () => {
  it('is never taken from an uncalled bet', () => {
    const h = quickHand({
      stacks: { 1: 1000, 2: 1000 },
      button: 1,
      rake: { percent: 10, cap: 0 },
    });
    h.raise(1, 20);
    h.call(2);
    h.bet(2, 500);
    h.fold(1);
    const s = h.settlement!;
    expect(s.uncalled).toEqual([{ seat: 2, amount: 500 }]);
    expect(s.rake).toMatchObject({ amount: 4, contested: 40 });
    expect(stacksOf(h)).toEqual({ 1: 980, 2: 1016 });
  });

  it('is not taken when the hand ends before the flop, but is after an all-in runout', () => {
    const pre = quickHand({ stacks: { 1: 1000, 2: 1000 }, button: 1, rake: { percent: 10, cap: 0 } });
    pre.raise(1, 20);
    pre.fold(2);
    expect(pre.settlement!.rake.amount).toBe(0);
    const runout = quickHand({
      stacks: { 1: 100, 2: 100 },
      button: 1,
      rake: { percent: 10, cap: 0 },
      hole: { 1: 'AsAd', 2: 'KsKd' },
      board: '2c7d9hTs3c',
    });
    runout.raise(1, 100);
    runout.call(2);
    expect(runout.settlement!.rake).toMatchObject({ amount: 20, rule: 'standard' });
    expect(stacksOf(runout)).toEqual({ 1: 180, 2: 0 });
  });

  it('comes out of split pots in proportion, with the per-pot rake in the settlement', () => {
    const h = quickHand({
      stacks: { 1: 1000, 2: 1000, 3: 1000 },
      button: 3,
      rake: { percent: 5, cap: 0, headsUpPercent: 2.5 },
      hole: { 1: '2c3d', 2: '2d3c', 3: '7h8h' },
      board: 'AsKsQsJsTs',
    });
    h.raise(3, 50);
    h.call(1);
    h.call(2);
    // Three players in at settlement: 5% of 150 = 7; each share of 50 keeps 50 * 143 / 150 = 47.67, so
    // 47 each and two leftover chips on equal fractions: seats 1 and 2, first after the button.
    for (let i = 0; i < 3; i++) {
      h.check(1);
      h.check(2);
      h.check(3);
    }
    const s = h.settlement!;
    expect(s.rake).toMatchObject({ amount: 7, rule: 'standard' });
    expect(s.pots[0]!.winners.map((w) => [w.seat, w.gross, w.net])).toEqual([
      [1, 50, 48],
      [2, 50, 48],
      [3, 50, 47],
    ]);
    expect(s.pots[0]!.rake).toBe(7);
    expect(s.players.map((p) => p.net)).toEqual([-2, -2, -3]);
    expect(s.players.map((p) => p.rakePaid)).toEqual([2, 2, 3]);
  });

  it('never rakes a side pot or a player below zero (side pots won by different players)', () => {
    // Main 120 to seat 1, side 210 to seat 2, side 1800 to seat 3; 5% capped at 1 chip. The old split
    // took a rounded-up chip from every share and paid the two leftovers to seat 1: 121 from a pot of 120.
    const h = quickHand({
      stacks: { 1: 30, 2: 100, 3: 1000, 4: 1000 },
      button: 4,
      rake: { percent: 5, cap: 1 },
      hole: { 1: 'AsAd', 2: 'KsKd', 3: 'QsQd', 4: '4h5d' },
      board: '2c7d9hTs3c',
    });
    h.raise(3, 1000);
    h.call(4);
    h.call(1);
    h.call(2);
    const s = h.settlement!;
    expect(s.rake).toMatchObject({ amount: 1, capped: true, contested: 2130 });
    expect(s.pots.map((p) => [p.amount, p.rake, p.winners.map((w) => [w.seat, w.gross, w.net])])).toEqual([
      [120, 0, [[1, 120, 120]]],
      [210, 0, [[2, 210, 210]]],
      [1800, 1, [[3, 1800, 1799]]],
    ]);
    expect(s.players.map((p) => [p.seat, p.rakePaid, p.net])).toEqual([
      [1, 0, 90],
      [2, 0, 110],
      [3, 1, 799],
      [4, 0, -1000],
    ]);
    let net = 0;
    for (const p of s.players) net += p.net;
    expect(net + s.rake.amount).toBe(0);
  });
});
