import { CodedError } from '../coded-error.js';

export const FairnessErrorCode = {
  INVALID_HEX: 'invalid_hex',
  INVALID_SEED: 'invalid_seed',
  INVALID_SEAT: 'invalid_seat',
  DUPLICATE_SEAT: 'duplicate_seat',
  INVALID_HAND_ID: 'invalid_hand_id',
  INVALID_DRAW_BOUND: 'invalid_draw_bound',
  INVALID_STREAM_POSITION: 'invalid_stream_position',
  STREAM_EXHAUSTED: 'stream_exhausted',
  DECK_EXHAUSTED: 'deck_exhausted',
  INVALID_RESHUFFLE: 'invalid_reshuffle',
  INVALID_DECK_STATE: 'invalid_deck_state',
} as const;
export type FairnessErrorCode = (typeof FairnessErrorCode)[keyof typeof FairnessErrorCode];

/**
 * Every way the derivation refuses its input. Refusing is the point: a seed of the wrong length or a
 * duplicated seat would still hash to *something*, and a deck derived from it could not be verified by a
 * third party following docs/fairness.md.
 */
export class FairnessError extends CodedError<FairnessErrorCode> {
  override readonly name = 'FairnessError';
  constructor(
    code: FairnessErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
