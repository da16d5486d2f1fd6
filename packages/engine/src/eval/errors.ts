import { CodedError } from '../coded-error.js';

export const EvalErrorCode = {
  INVALID_HAND_SIZE: 'invalid_hand_size',
  DUPLICATE_CARD: 'duplicate_card',
  INVALID_CARD_CODE: 'invalid_card_code',
  RANK_NOT_IN_DECK: 'rank_not_in_deck',
} as const;
export type EvalErrorCode = (typeof EvalErrorCode)[keyof typeof EvalErrorCode];

/**
 * A hand an evaluator cannot judge: the wrong number of cards, a card twice, or (short deck) a rank the
 * deck does not hold. The table-driven evaluators would otherwise index a table slot that belongs to a
 * different hand and return a plausible but wrong value, so the checked entry points refuse instead.
 */
export class InvalidHandError extends CodedError<EvalErrorCode> {
  override readonly name = 'InvalidHandError';
  constructor(
    code: EvalErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
