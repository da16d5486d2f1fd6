import { CodedError } from '../coded-error.js';

export const TournamentErrorCode = {
  /** No payout bracket, or no seating, for this many players. */
  FIELD_SIZE: 'field_size',
  /** An amount that is not a non-negative safe integer. */
  AMOUNT_INVALID: 'amount_invalid',
  /** A place below 1. */
  PLACE_INVALID: 'place_invalid',
  /** A blind structure that cannot be played: no levels, a level with no length, blinds that fall. */
  STRUCTURE_INVALID: 'structure_invalid',
  /** Seating data that contradicts itself: a seat out of range or taken twice, a player seated twice. */
  SEATING_INVALID: 'seating_invalid',
  /** A late entry or a close of registration once registration is closed (or the tournament is over). */
  REGISTRATION_CLOSED: 'registration_closed',
  /** An entry for a player who is still seated in the tournament. */
  ALREADY_IN: 'already_in',
  /** An entry number that does not follow the player's last entry (1 for a newcomer, then 2, 3, …). */
  ENTRY_INVALID: 'entry_invalid',
  /** An add-on for a player who is not seated at a table (out, or never entered), or once it is over. */
  ADD_ON_NOT_NOW: 'add_on_not_now',
  /** A second add-on for the same entry. */
  ADD_ON_TAKEN: 'add_on_taken',
  /** New prizes once the tournament is over: every prize is paid already. */
  PRIZES_PAID: 'prizes_paid',
} as const;
export type TournamentErrorCode = (typeof TournamentErrorCode)[keyof typeof TournamentErrorCode];

/** A tournament computation refused on its input; nothing was changed. */
export class TournamentError extends CodedError<TournamentErrorCode> {
  override readonly name = 'TournamentError';
  constructor(
    code: TournamentErrorCode,
    message: string,
    readonly details: Readonly<Record<string, number | string | null>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
