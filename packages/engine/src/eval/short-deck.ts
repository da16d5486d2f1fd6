import type { Card } from '../cards.js';
import { assertDistinct, checkedCodes } from './cards-in.js';
import { SHORT_DECK_RULES } from './classify.js';
import { bestCandidate, subsets } from './describe.js';
import { EvalErrorCode, InvalidHandError } from './errors.js';
import { keyCategory, type HandCategory, type HandDescription, type HandValue } from './hand-class.js';
import { describeWith, evaluateCodesWith } from './high.js';
import { buildHighTables, lazy } from './tables.js';

/*
 * Short deck: a flush beats a full house and A-6-7-8-9 is the lowest straight; trips
 * stay below a straight (see SHORT_DECK_RULES). Its own tables, built on first use, over the same index
 * as the standard ones. With at most seven cards a flush and a full house (or quads) cannot both be
 * present, so "flush suit found, read the flush table" stays correct under the reordered categories.
 */
export const shortDeckTables = lazy(() => buildHighTables(SHORT_DECK_RULES));

const LOWEST_SHORT_DECK_RANK = 4; // the six

function assertShortDeck(codes: ArrayLike<number>): void {
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code >> 2 < LOWEST_SHORT_DECK_RANK) {
      throw new InvalidHandError(EvalErrorCode.RANK_NOT_IN_DECK, `card ${code} is not in the 36-card deck`, { code });
    }
  }
}

/** Short-deck value of 5..7 card codes (sixes and up; duplicates unchecked). */
export function evaluateShortDeckCodes(codes: ArrayLike<number>): HandValue {
  assertShortDeck(codes);
  return evaluateCodesWith(shortDeckTables(), codes);
}

function shortCodes(cards: readonly Card[]): number[] {
  const codes = checkedCodes(cards, 5, 7, 'a short-deck hand');
  assertDistinct(codes);
  assertShortDeck(codes);
  return codes;
}

/** Short deck (36 cards): best five of 5..7; flush beats full house; A-6-7-8-9 is the lowest straight. */
export function evaluateShortDeck(cards: readonly Card[]): HandValue {
  return evaluateCodesWith(shortDeckTables(), shortCodes(cards));
}

export function describeShortDeck(cards: readonly Card[]): HandDescription {
  const codes = shortCodes(cards);
  const tables = shortDeckTables();
  const best = bestCandidate(subsets(codes, 5), (f) => evaluateCodesWith(tables, f))!;
  return describeWith(tables, best.value, best.five);
}

/** The category of a short-deck value. */
export function shortDeckCategory(value: HandValue): HandCategory {
  return keyCategory(shortDeckTables().keyOfValue[value] ?? 0);
}
