import { describe, expect, it } from 'vitest';
import { validActions } from '../test-support/fixtures.js';
import { clampWager, hasSizingButtons, isAllIn, isFixedWager, potSizedTo, wagerOf, wagerStep } from './bet-sizing.js';

describe('wagerOf', () => {
  it('prefers a raise, then a bet, then a Stud completion', () => {
    expect(wagerOf(validActions())?.kind).toBe('raise');
    expect(wagerOf(validActions({ raise: null, bet: { min: 20, max: 500 } }))?.kind).toBe('bet');
    expect(wagerOf(validActions({ raise: null, bet: null, complete: { min: 4, max: 4 } }))?.kind).toBe('complete');
    expect(wagerOf(validActions({ raise: null, bet: null }))).toBeNull();
  });

  it('knows the to-amount that is all-in and sorts fixed choices', () => {
    const w = wagerOf(validActions({ player_bet: 20, stack: 480, raise: { min: 60, max: 500, choices: [80, 60] } }))!;
    expect(w.allInTo).toBe(500);
    expect(w.choices).toEqual([60, 80]);
  });
});

describe('clampWager', () => {
  const w = wagerOf(validActions({ raise: { min: 40, max: 1000 } }))!;

  it('keeps amounts inside the legal range, in whole chips', () => {
    expect(clampWager(10, w)).toBe(40);
    expect(clampWager(5000, w)).toBe(1000);
    expect(clampWager(123.9, w)).toBe(123);
    expect(clampWager(Number.NaN, w)).toBe(40);
  });

  it('snaps to the nearest legal choice (ties to the smaller)', () => {
    const fl = wagerOf(validActions({ raise: { min: 40, max: 80, choices: [40, 80] } }))!;
    expect(clampWager(59, fl)).toBe(40);
    expect(clampWager(60, fl)).toBe(40);
    expect(clampWager(61, fl)).toBe(80);
    expect(clampWager(1_000, fl)).toBe(80);
  });
});

describe('potSizedTo', () => {
  it('sizes a raise facing a bet as call plus the pot after the call (no limit)', () => {
    // Blinds 10/20 and nothing else: pot 30, facing 20 with 0 in. Pot raise: 20 + (30 + 20) = 70.
    const va = validActions({ pot: 30, current_bet: 20, player_bet: 0, raise: { min: 40, max: 1000 } });
    const w = wagerOf(va)!;
    expect(potSizedTo(va, 1, w)).toBe(70);
    expect(potSizedTo(va, 0.5, w)).toBe(45);
  });

  it('sizes an opening bet as a share of the pot', () => {
    const va = validActions({
      pot: 120,
      current_bet: 0,
      player_bet: 0,
      call: null,
      check: true,
      raise: null,
      bet: { min: 20, max: 900 },
    });
    const w = wagerOf(va)!;
    expect(potSizedTo(va, 1, w)).toBe(120);
    expect(potSizedTo(va, 0.5, w)).toBe(60);
  });

  it('never leaves the legal range: a small pot gives the minimum, a short stack the maximum', () => {
    const tiny = validActions({ pot: 3, current_bet: 2, player_bet: 1, raise: { min: 4, max: 1000 } });
    expect(potSizedTo(tiny, 0.5, wagerOf(tiny)!)).toBe(4);
    const short = validActions({
      pot: 300,
      current_bet: 100,
      player_bet: 0,
      stack: 150,
      raise: { min: 150, max: 150 },
      all_in: 150,
    });
    expect(potSizedTo(short, 1, wagerOf(short)!)).toBe(150);
  });

  it('equals the maximum in pot limit, where the maximum is the pot raise', () => {
    // Pot 60, facing 40 with 20 in: the pot raise is 40 + (60 + 20) = 120, which PL makes the maximum.
    const va = validActions({ pot: 60, current_bet: 40, player_bet: 20, raise: { min: 80, max: 120 } });
    expect(potSizedTo(va, 1, wagerOf(va)!)).toBe(120);
  });
});

describe('the sizing controls', () => {
  it('offers ½-pot and pot only with a real range, and fixed amounts need no slider', () => {
    expect(hasSizingButtons(wagerOf(validActions())!)).toBe(true);
    const fl = wagerOf(validActions({ raise: { min: 40, max: 40 } }))!;
    expect(hasSizingButtons(fl)).toBe(false);
    expect(isFixedWager(fl)).toBe(true);
    const choices = wagerOf(validActions({ raise: { min: 40, max: 80, choices: [40, 80] } }))!;
    expect(hasSizingButtons(choices)).toBe(false);
    expect(isFixedWager(choices)).toBe(false);
  });

  it('steps by the big blind, at least one chip', () => {
    expect(wagerStep(20)).toBe(20);
    expect(wagerStep(0)).toBe(1);
  });
});

describe('isAllIn', () => {
  it('asks for confirmation whenever the whole stack goes in', () => {
    const va = validActions({ player_bet: 20, stack: 480, call: 480, current_bet: 600 });
    expect(isAllIn(va, 'all_in')).toBe(true);
    expect(isAllIn(va, 'call')).toBe(true);
    expect(isAllIn(validActions({ call: 20, stack: 1000 }), 'call')).toBe(false);
    expect(isAllIn(va, 'wager', 500)).toBe(true);
    expect(isAllIn(va, 'wager', 499)).toBe(false);
  });
});
