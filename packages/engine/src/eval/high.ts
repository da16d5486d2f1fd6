import type { Card } from '../cards.js';
import { assertCodes, assertDistinct, checkedCodes } from './cards-in.js';
import { STANDARD_RULES } from './classify.js';
import { bestCandidate, displayOrder, straightAceLow, subsets } from './describe.js';
import {
  highName,
  keyCategory,
  keyRanks,
  type HandCategory,
  type HandDescription,
  type HandValue,
} from './hand-class.js';
import {
  FLUSH_BITS,
  flushSuit,
  HIGH_GROUP_SHIFT,
  RANK_BIT,
  RANK_KEY,
  rankIndex,
  SUIT_BIAS,
  SUIT_KEY,
} from './rank-index.js';
import { buildHighTables, type HighTables } from './tables.js';

/*
 * Standard high hands. The tables are built on first use (importing the engine, say into a browser
 * bundle through @felt/protocol, should not cost their construction), and the hot paths read them
 * through module bindings behind one `STANDARD === undefined` test rather than through an object.
 */
let STANDARD: HighTables | undefined;
let RANK_TABLE: Uint16Array = new Uint16Array(0);
let FLUSH_TABLE: Uint16Array = new Uint16Array(0);
let BASE5: Int32Array = new Int32Array(0);
let BASE7: Int32Array = new Int32Array(0);
let LOW_SLOT: Uint16Array = new Uint16Array(0);

function loadStandard(): HighTables {
  const index = rankIndex();
  const tables = buildHighTables(STANDARD_RULES);
  RANK_TABLE = tables.rank;
  FLUSH_TABLE = tables.flush;
  BASE5 = index.base5;
  BASE7 = index.base7;
  LOW_SLOT = index.lowSlot;
  STANDARD = tables;
  return tables;
}

/** The standard tables (built on first use). */
export function standardTables(): HighTables {
  return STANDARD ?? loadStandard();
}

/** Distinct standard values: 7,462 classes of five-card hands, valued 1 (7-5-4-3-2) .. 7,462 (royal flush). */
export const HIGH_CLASS_COUNT = 7462;

function flushMask7(
  suit: number,
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
  c6: number,
): number {
  let m = 0;
  if ((c0 & 3) === suit) m |= RANK_BIT[c0]!;
  if ((c1 & 3) === suit) m |= RANK_BIT[c1]!;
  if ((c2 & 3) === suit) m |= RANK_BIT[c2]!;
  if ((c3 & 3) === suit) m |= RANK_BIT[c3]!;
  if ((c4 & 3) === suit) m |= RANK_BIT[c4]!;
  if ((c5 & 3) === suit) m |= RANK_BIT[c5]!;
  if ((c6 & 3) === suit) m |= RANK_BIT[c6]!;
  return m;
}

/**
 * The fastest path: seven distinct card codes (cards.ts), unchecked. Fourteen additions, then three
 * table reads (base and low slot side by side, then the value); a flush (about 3% of random hands)
 * reads its suit's rank mask instead.
 */
export function evaluate7(
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
  c6: number,
): HandValue {
  if (STANDARD === undefined) loadStandard();
  const s =
    SUIT_BIAS +
    SUIT_KEY[c0]! +
    SUIT_KEY[c1]! +
    SUIT_KEY[c2]! +
    SUIT_KEY[c3]! +
    SUIT_KEY[c4]! +
    SUIT_KEY[c5]! +
    SUIT_KEY[c6]!;
  const f = s & FLUSH_BITS;
  if (f !== 0) return FLUSH_TABLE[flushMask7(flushSuit(f), c0, c1, c2, c3, c4, c5, c6)]!;
  const k =
    RANK_KEY[c0]! + RANK_KEY[c1]! + RANK_KEY[c2]! + RANK_KEY[c3]! + RANK_KEY[c4]! + RANK_KEY[c5]! + RANK_KEY[c6]!;
  return RANK_TABLE[BASE7[k >>> HIGH_GROUP_SHIFT]! + LOW_SLOT[k & 0xffff]!]!;
}

/** Five distinct card codes, unchecked. */
export function evaluate5(c0: number, c1: number, c2: number, c3: number, c4: number): HandValue {
  if (STANDARD === undefined) loadStandard();
  const s = SUIT_BIAS + SUIT_KEY[c0]! + SUIT_KEY[c1]! + SUIT_KEY[c2]! + SUIT_KEY[c3]! + SUIT_KEY[c4]!;
  if ((s & FLUSH_BITS) !== 0) {
    return FLUSH_TABLE[RANK_BIT[c0]! | RANK_BIT[c1]! | RANK_BIT[c2]! | RANK_BIT[c3]! | RANK_BIT[c4]!]!;
  }
  const k = RANK_KEY[c0]! + RANK_KEY[c1]! + RANK_KEY[c2]! + RANK_KEY[c3]! + RANK_KEY[c4]!;
  return RANK_TABLE[BASE5[k >>> HIGH_GROUP_SHIFT]! + LOW_SLOT[k & 0xffff]!]!;
}

/**
 * Best five of `codes` (5..7 cards) using one ranking's tables. Lengths and code ranges are checked;
 * distinctness is not (see evaluateHigh).
 */
export function evaluateCodesWith(tables: HighTables, codes: ArrayLike<number>): HandValue {
  assertCodes(codes, 5, 7, 'a high hand');
  const n = codes.length;
  let s = SUIT_BIAS;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    s += SUIT_KEY[c]!;
    k += RANK_KEY[c]!;
  }
  const f = s & FLUSH_BITS;
  if (f !== 0) {
    const suit = flushSuit(f);
    let m = 0;
    for (let i = 0; i < n; i++) {
      const c = codes[i]!;
      if ((c & 3) === suit) m |= RANK_BIT[c]!;
    }
    return tables.flush[m]!;
  }
  const index = rankIndex();
  return tables.rank[index.base[n]![k >>> HIGH_GROUP_SHIFT]! + index.lowSlot[k & 0xffff]!]!;
}

/** Best five of 5, 6 or 7 card codes (cards.ts). */
export function evaluateHighCodes(codes: ArrayLike<number>): HandValue {
  return evaluateCodesWith(standardTables(), codes);
}

/** Standard high hand (Hold'em, Stud): best five of 5, 6 or 7 cards. */
export function evaluateHigh(cards: readonly Card[]): HandValue {
  const codes = checkedCodes(cards, 5, 7, 'a high hand');
  assertDistinct(codes);
  return evaluateCodesWith(standardTables(), codes);
}

/** The category of a standard high value (evaluateHigh, evaluate7, evaluateOmahaHigh). */
export function highCategory(value: HandValue): HandCategory {
  return keyCategory(standardTables().keyOfValue[value] ?? 0);
}

/** Category, name and tiebreak of a value from one ranking's tables, with the five cards that make it. */
export function describeWith(tables: HighTables, value: HandValue, five: readonly number[]): HandDescription {
  const key = tables.keyOfValue[value] ?? 0;
  const category = keyCategory(key);
  const tiebreak = keyRanks(key);
  return {
    value,
    category,
    name: highName(category, tiebreak),
    tiebreak,
    best: displayOrder(five, straightAceLow(category, tiebreak)),
  };
}

export function describeHigh(cards: readonly Card[]): HandDescription {
  const codes = checkedCodes(cards, 5, 7, 'a high hand');
  assertDistinct(codes);
  const best = bestCandidate(subsets(codes, 5), (f) => evaluate5(f[0]!, f[1]!, f[2]!, f[3]!, f[4]!))!;
  return describeWith(standardTables(), best.value, best.five);
}
