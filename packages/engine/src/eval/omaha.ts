import type { Card } from '../cards.js';
import { assertCodes, assertDistinct, checkedCodes } from './cards-in.js';
import { bestCandidate, omahaFives } from './describe.js';
import type { HandDescription, HandValue } from './hand-class.js';
import { describeWith, evaluate5, standardTables } from './high.js';
import { describeLowValue8, low8OfFive, lowTables } from './low.js';
import { HIGH_GROUP_SHIFT, RANK_BIT, RANK_KEY, rankIndex } from './rank-index.js';

/*
 * Omaha: exactly two hole cards and exactly three board cards. Rank keys are additive, so each of the
 * (up to 10) hole pairs and 10 board triples is summed once, and each of the 2+3 combinations costs one
 * addition and one five-card table read. A combination is a flush only when the pair is suited and the
 * triple is suited in the same suit, which is the whole of the "four of a suit in hand" trap: suits
 * never mix across combinations. Scratch arrays are module-level because evaluation is synchronous.
 */
const MAX_PAIRS = 15; // C(6, 2)
const MAX_TRIPLES = 10; // C(5, 3)
const pairKey = new Int32Array(MAX_PAIRS);
const pairSuit = new Int32Array(MAX_PAIRS);
const pairMask = new Int32Array(MAX_PAIRS);
const tripleKey = new Int32Array(MAX_TRIPLES);
const tripleSuit = new Int32Array(MAX_TRIPLES);
const tripleMask = new Int32Array(MAX_TRIPLES);

const NO_PAIR_SUIT = -1;
const NO_TRIPLE_SUIT = -2;

function checkShape(hole: ArrayLike<number>, board: ArrayLike<number>): void {
  assertCodes(hole, 2, 6, 'an Omaha hand');
  assertCodes(board, 3, 5, 'an Omaha board');
}

/** Omaha high from card codes: exactly 2 of the hole cards (2..6) and 3 of the board (3..5). */
export function evaluateOmahaHighCodes(hole: ArrayLike<number>, board: ArrayLike<number>): HandValue {
  checkShape(hole, board);
  const tables = standardTables();
  const index = rankIndex();
  const rank = tables.rank;
  const flush = tables.flush;
  const base5 = index.base5;
  const lowSlot = index.lowSlot;

  let pairs = 0;
  for (let i = 0; i < hole.length; i++) {
    const a = hole[i]!;
    for (let j = i + 1; j < hole.length; j++) {
      const b = hole[j]!;
      pairKey[pairs] = RANK_KEY[a]! + RANK_KEY[b]!;
      pairSuit[pairs] = (a & 3) === (b & 3) ? a & 3 : NO_PAIR_SUIT;
      pairMask[pairs] = RANK_BIT[a]! | RANK_BIT[b]!;
      pairs++;
    }
  }
  let triples = 0;
  const nb = board.length;
  for (let i = 0; i < nb; i++) {
    const a = board[i]!;
    for (let j = i + 1; j < nb; j++) {
      const b = board[j]!;
      for (let k = j + 1; k < nb; k++) {
        const c = board[k]!;
        tripleKey[triples] = RANK_KEY[a]! + RANK_KEY[b]! + RANK_KEY[c]!;
        tripleSuit[triples] = (a & 3) === (b & 3) && (b & 3) === (c & 3) ? a & 3 : NO_TRIPLE_SUIT;
        tripleMask[triples] = RANK_BIT[a]! | RANK_BIT[b]! | RANK_BIT[c]!;
        triples++;
      }
    }
  }

  let best = 0;
  for (let t = 0; t < triples; t++) {
    const tk = tripleKey[t]!;
    const ts = tripleSuit[t]!;
    for (let p = 0; p < pairs; p++) {
      let v: number;
      if (pairSuit[p] === ts) {
        v = flush[pairMask[p]! | tripleMask[t]!]!;
      } else {
        const k = pairKey[p]! + tk;
        v = rank[base5[k >>> HIGH_GROUP_SHIFT]! + lowSlot[k & 0xffff]!]!;
      }
      if (v > best) best = v;
    }
  }
  return best;
}

function omahaCodes(hole: readonly Card[], board: readonly Card[]): [number[], number[]] {
  const h = checkedCodes(hole, 2, 6, 'an Omaha hand');
  const b = checkedCodes(board, 3, 5, 'an Omaha board');
  assertDistinct(h, b);
  return [h, b];
}

/** Omaha high: exactly 2 of the hole cards (4 or 5; 2..6 accepted) + exactly 3 of the board (3..5). */
export function evaluateOmahaHigh(hole: readonly Card[], board: readonly Card[]): HandValue {
  const [h, b] = omahaCodes(hole, board);
  return evaluateOmahaHighCodes(h, b);
}

export function describeOmahaHigh(hole: readonly Card[], board: readonly Card[]): HandDescription {
  const [h, b] = omahaCodes(hole, board);
  const best = bestCandidate(omahaFives(h, b), (f) => evaluate5(f[0]!, f[1]!, f[2]!, f[3]!, f[4]!))!;
  return describeWith(standardTables(), best.value, best.five);
}

/*
 * Omaha 8-or-better low: the pair and the triple must each be unpaired cards of eight or lower, and
 * share no rank; their union is then five distinct low ranks, valued through the A-5 table.
 */
const LOW8_BIT = new Int32Array(52);
const DISQUALIFIED = 0x100;
for (let code = 0; code < 52; code++) {
  const r = code >> 2;
  LOW8_BIT[code] = r === 12 ? 1 : r <= 6 ? 1 << (r + 1) : DISQUALIFIED;
}

/** Omaha 8-or-better low from card codes (2+3), or null when no combination qualifies. */
export function evaluateOmahaLow8Codes(hole: ArrayLike<number>, board: ArrayLike<number>): HandValue | null {
  checkShape(hole, board);
  const byMask = lowTables().low8ByMask;
  let pairs = 0;
  for (let i = 0; i < hole.length; i++) {
    const a = LOW8_BIT[hole[i]!]!;
    for (let j = i + 1; j < hole.length; j++) {
      const b = LOW8_BIT[hole[j]!]!;
      if (a !== b && ((a | b) & DISQUALIFIED) === 0) pairMask[pairs++] = a | b;
    }
  }
  let triples = 0;
  const nb = board.length;
  for (let i = 0; i < nb; i++) {
    const a = LOW8_BIT[board[i]!]!;
    for (let j = i + 1; j < nb; j++) {
      const b = LOW8_BIT[board[j]!]!;
      for (let k = j + 1; k < nb; k++) {
        const c = LOW8_BIT[board[k]!]!;
        if (a !== b && a !== c && b !== c && ((a | b | c) & DISQUALIFIED) === 0) tripleMask[triples++] = a | b | c;
      }
    }
  }
  let best = 0;
  for (let t = 0; t < triples; t++) {
    const tm = tripleMask[t]!;
    for (let p = 0; p < pairs; p++) {
      const pm = pairMask[p]!;
      if ((pm & tm) !== 0) continue;
      const v = byMask[pm | tm]!;
      if (v > best) best = v;
    }
  }
  return best === 0 ? null : best;
}

/** Omaha 8-or-better low with the 2+3 rule, or null. Values are A-5 values (see evaluateLowA5). */
export function evaluateOmahaLow8(hole: readonly Card[], board: readonly Card[]): HandValue | null {
  const [h, b] = omahaCodes(hole, board);
  return evaluateOmahaLow8Codes(h, b);
}

export function describeOmahaLow8(hole: readonly Card[], board: readonly Card[]): HandDescription | null {
  const [h, b] = omahaCodes(hole, board);
  const best = bestCandidate(omahaFives(h, b), low8OfFive);
  return best === null ? null : describeLowValue8(best.value, best.five);
}
