import { cardCode, isCard, InvalidCardError, type Card } from '../cards.js';
import { EvalErrorCode, InvalidHandError } from './errors.js';

/** Card strings to codes, refusing a bad count, a malformed card or a card given twice. */
export function checkedCodes(cards: readonly Card[], min: number, max: number, what: string): number[] {
  if (!Array.isArray(cards) || cards.length < min || cards.length > max) {
    const got = Array.isArray(cards) ? cards.length : typeof cards;
    throw new InvalidHandError(
      EvalErrorCode.INVALID_HAND_SIZE,
      `${what} needs ${min === max ? min : `${min} to ${max}`} cards, got ${got}`,
      { what, min, max, got },
    );
  }
  const codes: number[] = [];
  for (const card of cards) {
    if (!isCard(card)) throw new InvalidCardError(card);
    codes.push(cardCode(card));
  }
  return codes;
}

/** Throws on a card that appears twice across all the given groups (hole and board together). */
export function assertDistinct(...groups: readonly (readonly number[])[]): void {
  let low = 0; // codes 0..25
  let high = 0; // codes 26..51
  for (const group of groups) {
    for (const code of group) {
      const bit = 1 << (code % 26);
      const seen = code < 26 ? low & bit : high & bit;
      if (seen !== 0) {
        throw new InvalidHandError(EvalErrorCode.DUPLICATE_CARD, `card ${code} appears twice`, { code });
      }
      if (code < 26) low |= bit;
      else high |= bit;
    }
  }
}

/** Length and range checks for the code fast paths (duplicates are the caller's business there). */
export function assertCodes(codes: ArrayLike<number>, min: number, max: number, what: string): void {
  const n = codes.length;
  if (n < min || n > max) {
    throw new InvalidHandError(EvalErrorCode.INVALID_HAND_SIZE, `${what} needs ${min} to ${max} cards, got ${n}`, {
      what,
      min,
      max,
      got: n,
    });
  }
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    if (!(c >= 0 && c < 52 && (c | 0) === c)) {
      throw new InvalidHandError(EvalErrorCode.INVALID_CARD_CODE, `invalid card code ${c}`, { code: c });
    }
  }
}
