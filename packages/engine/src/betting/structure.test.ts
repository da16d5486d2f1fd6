import { describe, expect, it } from 'vitest';
import { SetupError } from '../errors.js';
import { bettingStructure, wagerRange, type WagerContext } from './structure.js';

const ctx = (o: Partial<WagerContext>): WagerContext => ({
  currentBet: 0,
  lastFullRaise: 10,
  playerBet: 0,
  playerStack: 1000,
  potTotal: 30,
  raiseCount: 0,
  betUnit: 'small',
  ...o,
});

describe('wagerRange', () => {
  const nl = bettingStructure('nl', { smallBlind: 5, bigBlind: 10 });
  const pl = bettingStructure('pl', { smallBlind: 5, bigBlind: 10 });
  const fl = bettingStructure('fl', { smallBlind: 5, bigBlind: 10 });

  it('no-limit: from the big blind (or a full raise) to everything', () => {
    expect(wagerRange(nl, ctx({}))).toEqual({ min: 10, max: 1000 });
    expect(wagerRange(nl, ctx({ currentBet: 40, lastFullRaise: 30, playerBet: 10 }))).toEqual({ min: 70, max: 1010 });
  });

  it('an all-in below the minimum is the only wager left', () => {
    expect(wagerRange(nl, ctx({ currentBet: 40, lastFullRaise: 30, playerStack: 50 }))).toEqual({ min: 50, max: 50 });
    expect(wagerRange(nl, ctx({ playerStack: 6 }))).toEqual({ min: 6, max: 6 });
    // Not even a call's worth: no wager at all.
    expect(wagerRange(nl, ctx({ currentBet: 40, playerStack: 40 }))).toBeNull();
  });

  it('pot-limit: at most the pot after calling', () => {
    expect(wagerRange(pl, ctx({ potTotal: 30 }))).toEqual({ min: 10, max: 30 });
    // Facing 40 with 10 in: call 30, pot becomes 100, raise to 40 + 100.
    expect(wagerRange(pl, ctx({ currentBet: 40, lastFullRaise: 30, playerBet: 10, potTotal: 70 }))).toEqual({
      min: 70,
      max: 140,
    });
    // The minimum bet stands even when the pot is smaller.
    expect(wagerRange(pl, ctx({ potTotal: 4 }))).toEqual({ min: 10, max: 10 });
  });

  it('fixed-limit: one size per street and a cap', () => {
    expect(fl).toMatchObject({ smallBet: 10, bigBet: 20, raiseCap: 4 });
    expect(wagerRange(fl, ctx({}))).toEqual({ min: 10, max: 10 });
    expect(wagerRange(fl, ctx({ betUnit: 'big', currentBet: 20 }))).toEqual({ min: 40, max: 40 });
    expect(wagerRange(fl, ctx({ currentBet: 40, raiseCount: 4 }))).toBeNull();
  });

  it('validates stakes', () => {
    expect(() => bettingStructure('nl', { smallBlind: 1, bigBlind: 0 })).toThrow(SetupError);
    expect(() => bettingStructure('nl', { smallBlind: 1.5, bigBlind: 2 })).toThrow(SetupError);
    expect(() => bettingStructure('xx' as 'nl', { smallBlind: 1, bigBlind: 2 })).toThrow(SetupError);
  });
});
