import type { Card } from '../cards.js';
import { assertCodes, assertDistinct, checkedCodes } from './cards-in.js';
import { lowA5Key } from './classify.js';
import { bestCandidate, displayOrder, subsets } from './describe.js';
import {
  classKey,
  HandCategory,
  highName,
  keyCategory,
  keyRanks,
  lowName,
  type HandDescription,
  type HandValue,
} from './hand-class.js';
import { evaluate5, standardTables } from './high.js';
import { denseClasses, HIGH_GROUP_SHIFT, RANK_KEY, rankIndex } from './rank-index.js';
import { fiveCardKeys, lazy, rankTable } from './tables.js';

/*
 * A-5 lows (Razz, and the low half of every 8-or-better game) share one table over the rank index: the
 * value of the best A-5 low among the multiset's five-card subsets. An 8-or-better low is an A-5 low that
 * is unpaired with no card above an eight, which is exactly an A-5 value at or above that of 8-7-6-5-4,
 * so the 8-or-better evaluators are the A-5 table plus one comparison, and their values are A-5 values.
 */
interface LowTables {
  readonly rank: Uint16Array;
  readonly keyOfValue: Int32Array;
  /** The A-5 value of 8-7-6-5-4: the worst qualifying low. */
  readonly qualifier8: number;
  /** A-5 value of each unpaired 8-or-better low by its rank mask (bit 0 ace, bit i rank i + 1); 0 elsewhere. */
  readonly low8ByMask: Uint16Array;
}

const ACE_INDEX = 12;

/** Rank-index counts of the ranks in an A-5 mask (bit 0 the ace, bit i the rank i + 1). */
function countsOfLowMask(mask: number): Uint8Array {
  const counts = new Uint8Array(13);
  for (let bit = 0; bit < 8; bit++) if (mask & (1 << bit)) counts[bit === 0 ? ACE_INDEX : bit - 1] = 1;
  return counts;
}

export const lowTables = lazy((): LowTables => {
  const keys5 = fiveCardKeys(lowA5Key);
  const classes = denseClasses([keys5], true);
  const qualifier8 = classes.valueOf(lowA5Key(countsOfLowMask(0b11111000)));
  const low8ByMask = new Uint16Array(256);
  for (let mask = 0; mask < 256; mask++) {
    let bits = 0;
    for (let m = mask; m !== 0; m &= m - 1) bits++;
    if (bits === 5) low8ByMask[mask] = classes.valueOf(lowA5Key(countsOfLowMask(mask)));
  }
  return { rank: rankTable(keys5, classes), keyOfValue: classes.keyOfValue, qualifier8, low8ByMask };
});

/** A-5 low of 5..7 card codes (duplicates unchecked). */
export function evaluateLowA5Codes(codes: ArrayLike<number>): HandValue {
  assertCodes(codes, 5, 7, 'a low hand');
  const t = lowTables();
  const index = rankIndex();
  let k = 0;
  for (let i = 0; i < codes.length; i++) k += RANK_KEY[codes[i]!]!;
  return t.rank[index.base[codes.length]![k >>> HIGH_GROUP_SHIFT]! + index.lowSlot[k & 0xffff]!]!;
}

/** Razz: A-5 lowball, best five of 5..7, pairs count against, straights and flushes ignored, no qualifier. */
export function evaluateLowA5(cards: readonly Card[]): HandValue {
  const codes = checkedCodes(cards, 5, 7, 'a low hand');
  assertDistinct(codes);
  return evaluateLowA5Codes(codes);
}

/** A-5 low of 5..7 cards that qualifies 8-or-better, or null. Values are A-5 values. */
export function evaluateLow8(cards: readonly Card[]): HandValue | null {
  const v = evaluateLowA5(cards);
  return v >= lowTables().qualifier8 ? v : null;
}

/** Whether an A-5 value (evaluateLowA5) is an 8-or-better low. */
export function qualifiesLow8(value: HandValue): boolean {
  return value >= lowTables().qualifier8;
}

function describeA5(value: HandValue, five: readonly number[]): HandDescription {
  const key = lowTables().keyOfValue[value] ?? 0;
  const category = keyCategory(key);
  const tiebreak = keyRanks(key);
  return {
    value,
    category,
    name: category === HandCategory.HIGH_CARD ? lowName(tiebreak) : highName(category, tiebreak),
    tiebreak,
    best: displayOrder(five, true),
  };
}

const a5Of = (five: readonly number[]): number => evaluateLowA5Codes(five);

export function describeLowA5(cards: readonly Card[]): HandDescription {
  const codes = checkedCodes(cards, 5, 7, 'a low hand');
  assertDistinct(codes);
  const best = bestCandidate(subsets(codes, 5), a5Of)!;
  return describeA5(best.value, best.five);
}

export function describeLow8(cards: readonly Card[]): HandDescription | null {
  const codes = checkedCodes(cards, 5, 7, 'a low hand');
  assertDistinct(codes);
  const best = bestCandidate(subsets(codes, 5), a5Of)!;
  return best.value >= lowTables().qualifier8 ? describeA5(best.value, best.five) : null;
}

/** The 8-or-better value of exactly five codes, or null: used by the Omaha low describe. */
export function low8OfFive(five: readonly number[]): HandValue | null {
  const v = evaluateLowA5Codes(five);
  return v >= lowTables().qualifier8 ? v : null;
}

export function describeLowValue8(value: HandValue, five: readonly number[]): HandDescription {
  return describeA5(value, five);
}

/*
 * Deuce-to-seven: exactly five cards judged as a high hand and reversed, with the ace always high, so
 * A-2-3-4-5 is not a straight but an ace-high hand (and suited, an ace-high flush). That is the standard
 * high ranking with those two classes moved, so 2-7 values are a remapping of standard values.
 */
interface Low27Tables {
  /** 2-7 value by standard five-card value. */
  readonly ofHigh: Uint16Array;
  readonly keyOfValue: Int32Array;
}

const low27Tables = lazy((): Low27Tables => {
  const std = standardTables();
  const keys = new Int32Array(std.keyOfValue.length).fill(-1);
  const wheel = [14, 5, 4, 3, 2];
  for (let v = 1; v < keys.length; v++) {
    const key = std.keyOfValue[v]!;
    const category = keyCategory(key);
    const top = keyRanks(key)[0];
    if (category === HandCategory.STRAIGHT && top === 5) keys[v] = classKey(0, 0, wheel);
    else if (category === HandCategory.STRAIGHT_FLUSH && top === 5) keys[v] = classKey(5, 5, wheel);
    else keys[v] = key;
  }
  const classes = denseClasses([keys], true);
  const ofHigh = new Uint16Array(keys.length);
  for (let v = 1; v < keys.length; v++) ofHigh[v] = classes.valueOf(keys[v]!);
  return { ofHigh, keyOfValue: classes.keyOfValue };
});

function low27Codes(cards: readonly Card[]): number[] {
  const codes = checkedCodes(cards, 5, 5, 'a deuce-to-seven hand');
  assertDistinct(codes);
  return codes;
}

/** Deuce-to-seven value of five card codes (duplicates unchecked): the fast path of {@link evaluateLow27}. */
export function evaluateLow27Codes(c0: number, c1: number, c2: number, c3: number, c4: number): HandValue {
  return low27Tables().ofHigh[evaluate5(c0, c1, c2, c3, c4)]!;
}

/** The hand category of a deuce-to-seven value. */
export function low27Category(value: HandValue): HandCategory {
  return keyCategory(low27Tables().keyOfValue[value] ?? 0);
}

/** Deuce-to-seven lowball: exactly five cards, straights and flushes count against, the ace is high. */
export function evaluateLow27(cards: readonly Card[]): HandValue {
  const c = low27Codes(cards);
  return low27Tables().ofHigh[evaluate5(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!)]!;
}

export function describeLow27(cards: readonly Card[]): HandDescription {
  const c = low27Codes(cards);
  const t = low27Tables();
  const value = t.ofHigh[evaluate5(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!)]!;
  const key = t.keyOfValue[value] ?? 0;
  const category = keyCategory(key);
  const tiebreak = keyRanks(key);
  return {
    value,
    category,
    name: category === HandCategory.HIGH_CARD ? lowName(tiebreak) : highName(category, tiebreak),
    tiebreak,
    best: displayOrder(c, false),
  };
}

/** Table bytes of the low evaluators (builds them). */
export function lowTableBytes(): number {
  const a = lowTables();
  const b = low27Tables();
  return (
    a.rank.byteLength +
    a.keyOfValue.byteLength +
    a.low8ByMask.byteLength +
    b.ofHigh.byteLength +
    b.keyOfValue.byteLength
  );
}
