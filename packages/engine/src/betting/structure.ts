import { SetupError, SetupErrorCode } from '../errors.js';

/** The betting structure, independent of the game being played. */
export const BetLimit = { NO_LIMIT: 'nl', POT_LIMIT: 'pl', FIXED_LIMIT: 'fl' } as const;
export type BetLimit = (typeof BetLimit)[keyof typeof BetLimit];

export function isBetLimit(value: unknown): value is BetLimit {
  return value === 'nl' || value === 'pl' || value === 'fl';
}

/** Table stakes: the forced bets and, for fixed limit, the bet units. All amounts are integer chips. */
export interface Stakes {
  readonly smallBlind: number;
  readonly bigBlind: number;
  /** Ante posted by every dealt-in player (0 or absent: none). */
  readonly ante?: number;
  /** Big-blind ante: the big blind posts one ante for the whole table (0 or absent: none). */
  readonly bigBlindAnte?: number;
  /** Button blind (short deck): posted by the button. */
  readonly buttonBlind?: number;
  /** Stud bring-in. */
  readonly bringIn?: number;
  /** Fixed-limit small bet; defaults to the big blind. */
  readonly smallBet?: number;
  /** Fixed-limit big bet; defaults to twice the small bet. */
  readonly bigBet?: number;
  /**
   * Maximum number of bets and raises per betting round (blinds do not count), as pokerkit counts
   * them. Fixed limit defaults to 4; no-limit and pot-limit default to no cap.
   */
  readonly raiseCap?: number | null;
}

/** The resolved betting structure of one hand. */
export interface BettingStructure {
  readonly limit: BetLimit;
  /** Smallest opening bet and initial raise increment in no-limit and pot-limit: the big blind. */
  readonly minBet: number;
  readonly smallBet: number;
  readonly bigBet: number;
  readonly raiseCap: number | null;
  /** The bring-in of the Stud games (0 elsewhere). */
  readonly bringIn: number;
}

function isChips(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/** How a game opens the action; decides which stakes it needs (mirrors the games' ForcedBetStyle). */
export type StakesStyle = 'blinds' | 'button_blind' | 'bring_in';

export function validateStakes(stakes: Stakes, style: StakesStyle = 'blinds'): void {
  const fields: (keyof Stakes)[] = ['smallBlind', 'bigBlind', 'ante', 'bigBlindAnte', 'buttonBlind', 'bringIn'];
  for (const f of fields) {
    const v = stakes[f];
    if (v !== undefined && !isChips(v)) {
      throw new SetupError(SetupErrorCode.INVALID_STAKES, `${f} must be a non-negative integer`, {
        field: f,
        value: v,
      });
    }
  }
  for (const f of ['smallBet', 'bigBet'] as const) {
    const v = stakes[f];
    if (v !== undefined && !(isChips(v) && v > 0)) {
      throw new SetupError(SetupErrorCode.INVALID_STAKES, `${f} must be a positive integer`, { field: f, value: v });
    }
  }
  if (style === 'bring_in') {
    // Stud games have no blinds: the small bet is the unit, the bring-in opens the action.
    if (stakes.smallBet === undefined) {
      throw new SetupError(SetupErrorCode.INVALID_STAKES, 'a bring-in game needs a small bet', { smallBet: null });
    }
    const bringIn = stakes.bringIn ?? 0;
    if (!(bringIn > 0) || bringIn > stakes.smallBet) {
      throw new SetupError(SetupErrorCode.INVALID_STAKES, 'the bring-in must be positive and at most the small bet', {
        bringIn,
        smallBet: stakes.smallBet,
      });
    }
  } else if (!(stakes.bigBlind > 0)) {
    throw new SetupError(SetupErrorCode.INVALID_STAKES, 'the big blind must be positive', {
      bigBlind: stakes.bigBlind,
    });
  }
  const cap = stakes.raiseCap;
  if (cap !== undefined && cap !== null && !(Number.isSafeInteger(cap) && cap >= 1)) {
    throw new SetupError(SetupErrorCode.INVALID_STAKES, 'raiseCap must be a positive integer or null', { cap });
  }
}

/**
 * Resolves the stakes under a betting structure. In the blind games the big blind is the minimum bet
 * (no-limit, pot-limit) and the default small bet; the bring-in games (Stud, Razz) have no big blind, so
 * the small bet, which is also the completion, is the minimum bet under every structure.
 */
export function bettingStructure(limit: BetLimit, stakes: Stakes, style: StakesStyle = 'blinds'): BettingStructure {
  if (!isBetLimit(limit)) throw new SetupError(SetupErrorCode.UNSUPPORTED_LIMIT, `unknown limit ${String(limit)}`);
  validateStakes(stakes, style);
  const smallBet = stakes.smallBet ?? stakes.bigBlind;
  const bigBet = stakes.bigBet ?? smallBet * 2;
  const raiseCap = stakes.raiseCap !== undefined ? stakes.raiseCap : limit === 'fl' ? 4 : null;
  const minBet = style === 'bring_in' ? smallBet : stakes.bigBlind;
  return { limit, minBet, smallBet, bigBet, raiseCap, bringIn: style === 'bring_in' ? (stakes.bringIn ?? 0) : 0 };
}

/** What a wager range depends on, seen from the player about to act. */
export interface WagerContext {
  /** The highest bet of the round (preflop at least the nominal big blind). */
  readonly currentBet: number;
  /** The size of the last full bet or raise of the round: the minimum raise increment. */
  readonly lastFullRaise: number;
  /** The player's bet in this round so far. */
  readonly playerBet: number;
  readonly playerStack: number;
  /** Every chip in the middle: collected pots plus all bets of this round. */
  readonly potTotal: number;
  /** Bets and raises made in this round (for the fixed-limit cap). */
  readonly raiseCount: number;
  /** The fixed-limit unit of the street. */
  readonly betUnit: 'small' | 'big';
  /**
   * The current bet is a bring-in nobody has completed yet: the smallest raise is to the completion (the
   * small bet in fixed limit, the minimum bet otherwise), whatever the bring-in was.
   */
  readonly completion?: boolean;
  /**
   * Fixed limit with an open pair on Stud's fourth street and no big bet made yet: a wager may add either
   * the small or the big bet.
   */
  readonly bigBetOption?: boolean;
}

/** Inclusive range of "to" amounts (the player's total bet for the round after the wager). */
export interface WagerRange {
  readonly min: number;
  readonly max: number;
  /** When set, the only legal amounts (fixed limit with the open-pair option); otherwise all of min..max. */
  readonly choices?: readonly number[];
}

/**
 * The legal bet (when `currentBet` is 0) or raise amounts, as totals for the round, or `null` when the
 * player cannot wager more than a call. An all-in short of the minimum is always allowed, as the only
 * amount (`min === max`).
 */
export function wagerRange(structure: BettingStructure, ctx: WagerContext): WagerRange | null {
  const allInTo = ctx.playerBet + ctx.playerStack;
  if (allInTo <= ctx.currentBet) return null;
  if (structure.raiseCap !== null && ctx.raiseCount >= structure.raiseCap) return null;
  let min: number;
  let max: number;
  const completing = ctx.completion === true && ctx.currentBet > 0;
  switch (structure.limit) {
    case 'nl':
      min = ctx.currentBet === 0 || completing ? structure.minBet : ctx.currentBet + ctx.lastFullRaise;
      max = allInTo;
      break;
    case 'pl': {
      min = ctx.currentBet === 0 || completing ? structure.minBet : ctx.currentBet + ctx.lastFullRaise;
      // Pot-size raise: call first, then raise by the whole pot including the call.
      const toCall = ctx.currentBet - ctx.playerBet;
      max = Math.max(min, ctx.currentBet + ctx.potTotal + toCall);
      break;
    }
    case 'fl': {
      const unit = ctx.betUnit === 'big' ? structure.bigBet : structure.smallBet;
      if (completing) {
        min = unit;
        max = unit;
      } else if (ctx.bigBetOption === true && ctx.betUnit === 'small') {
        const small = ctx.currentBet + structure.smallBet;
        const big = ctx.currentBet + structure.bigBet;
        if (allInTo <= small) return { min: allInTo, max: allInTo };
        const top = Math.min(big, allInTo);
        return top === small ? { min: small, max: small } : { min: small, max: top, choices: [small, top] };
      } else {
        min = ctx.currentBet + unit;
        max = min;
      }
      break;
    }
  }
  if (max > allInTo) max = allInTo;
  if (min > max) min = max;
  return { min, max };
}

/** Whether `to` is a legal amount in `range` (inclusive; only the listed amounts when it has choices). */
export function inWagerRange(range: WagerRange, to: number): boolean {
  if (range.choices !== undefined) return range.choices.includes(to);
  return to >= range.min && to <= range.max;
}

/** The fixed-limit unit of a street, or the minimum bet otherwise; the initial "last full raise". */
export function initialRaiseSize(structure: BettingStructure, betUnit: 'small' | 'big'): number {
  if (structure.limit === 'fl') return betUnit === 'big' ? structure.bigBet : structure.smallBet;
  return structure.minBet;
}
