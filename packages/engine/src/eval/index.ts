/*
 * Hand evaluators. Every evaluator returns a HandValue where higher is better (lows included), comparable
 * among hands judged by the same evaluator; equal values tie. Each has a describe* counterpart.
 */
import { lowTableBytes } from './low.js';
import { rankIndex } from './rank-index.js';
import { shortDeckTables } from './short-deck.js';
import { standardTables } from './high.js';

export { EvalErrorCode, InvalidHandError } from './errors.js';
export { HAND_CATEGORIES, HandCategory, type HandDescription, type HandValue } from './hand-class.js';
export {
  describeHigh,
  evaluate5,
  evaluate7,
  evaluateHigh,
  evaluateHighCodes,
  HIGH_CLASS_COUNT,
  highCategory,
} from './high.js';
export {
  describeOmahaHigh,
  describeOmahaLow8,
  evaluateOmahaHigh,
  evaluateOmahaHighCodes,
  evaluateOmahaLow8,
  evaluateOmahaLow8Codes,
} from './omaha.js';
export { describeShortDeck, evaluateShortDeck, evaluateShortDeckCodes, shortDeckCategory } from './short-deck.js';
export {
  describeLow27,
  describeLow8,
  describeLowA5,
  evaluateLow27,
  evaluateLow27Codes,
  low27Category,
  evaluateLow8,
  evaluateLowA5,
  evaluateLowA5Codes,
  qualifiesLow8,
} from './low.js';

/** Bytes held by every evaluator table once built (this builds them all): for the bench and capacity notes. */
export function evaluatorTableBytes(): number {
  const byteLength = (...a: readonly ArrayBufferView[]): number => a.reduce((s, x) => s + x.byteLength, 0);
  const std = standardTables();
  const short = shortDeckTables();
  return (
    rankIndex().bytes +
    byteLength(std.rank, std.flush, std.keyOfValue, short.rank, short.flush, short.keyOfValue) +
    lowTableBytes()
  );
}
export { orderAgreement, type OrderAgreement } from './order-agreement.js';
