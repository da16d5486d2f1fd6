import { describe, expect, it } from 'vitest';
import { quickHand, stacksOf } from '../../test/helpers.js';
import { SetupError } from '../errors.js';
import { decideRake, deductRake } from './rake.js';
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
  const first = new Map([
    [3, 0],
    [1, 1],
    [2, 2],
  ]);
  it('reduces every share in proportion, rounding down, the remainder to the first winner after the button', () => {
    // 101 chips split 51 / 50, rake 5: keep 96 -> 48.47 and 47.52 -> 48 + 47 = 95, one chip left.
    const nets = deductRake(
      [
        { pot: 0, seat: 1, gross: 51 },
        { pot: 0, seat: 2, gross: 50 },
      ],
      5,
      first,
    );
    expect(nets).toEqual([49, 47]);
    const other = deductRake(
      [
        { pot: 0, seat: 2, gross: 51 },
        { pot: 0, seat: 3, gross: 50 },
      ],
      5,
      first,
    );
    // Seat 3 is first after the button here.
    expect(other).toEqual([48, 48]);
  });

  it('leaves shares alone without rake', () => {
    expect(deductRake([{ pot: 0, seat: 1, gross: 10 }], 0, first)).toEqual([10]);
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
    // Three players in at settlement: 5% of 150 = 7; each share of 50 keeps floor(50 * 143 / 150) = 47.
    for (let i = 0; i < 3; i++) {
      h.check(1);
      h.check(2);
      h.check(3);
    }
    const s = h.settlement!;
    expect(s.rake).toMatchObject({ amount: 7, rule: 'standard' });
    expect(s.pots[0]!.winners.map((w) => [w.seat, w.gross, w.net])).toEqual([
      [1, 50, 49],
      [2, 50, 47],
      [3, 50, 47],
    ]);
    expect(s.pots[0]!.rake).toBe(7);
    expect(s.players.map((p) => p.net)).toEqual([-1, -3, -3]);
  });
});
