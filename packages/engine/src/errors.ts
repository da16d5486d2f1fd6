/**
 * Typed errors of the rules engine. Every refusal carries a stable `code` that an edge (gRPC, HTTP, the
 * WebSocket gateway) maps to a client-facing error, plus structured fields for logs and tests. Messages
 * are for engineers; they never reach a client verbatim.
 */
import { CodedError } from './coded-error.js';

export const ActionErrorCode = {
  HAND_COMPLETE: 'hand_complete',
  NOT_BETTING: 'not_betting',
  NOT_IN_HAND: 'not_in_hand',
  NOT_YOUR_TURN: 'not_your_turn',
  CANNOT_CHECK: 'cannot_check',
  CANNOT_FOLD: 'cannot_fold',
  NOTHING_TO_CALL: 'nothing_to_call',
  CANNOT_BET: 'cannot_bet',
  CANNOT_RAISE: 'cannot_raise',
  RAISE_NOT_REOPENED: 'raise_not_reopened',
  RAISE_CAP_REACHED: 'raise_cap_reached',
  AMOUNT_INVALID: 'amount_invalid',
  AMOUNT_TOO_SMALL: 'amount_too_small',
  AMOUNT_TOO_LARGE: 'amount_too_large',
  CANNOT_SHOW: 'cannot_show',
  /** A bring-in when none is due, or another action while it is. */
  CANNOT_BRING_IN: 'cannot_bring_in',
  BRING_IN_DUE: 'bring_in_due',
  /** A discard outside a draw round, or a betting action during one. */
  NOT_DRAWING: 'not_drawing',
  INVALID_DISCARD: 'invalid_discard',
  UNKNOWN_ACTION: 'unknown_action',
  /**
   * A bet, raise or completion when no opponent still in the hand could answer it: every other player
   * is all-in or cannot put in more than the current bet. Only a call (or check) or a fold remains.
   */
  NO_OPPONENT_CAN_ANSWER: 'no_opponent_can_answer',
  /** Blind dealing: board cards given when no board is due. */
  NOT_DEALING: 'not_dealing',
  /**
   * Blind dealing: cards given as input (board, show) of the wrong count, not of the game's deck,
   * repeated, or already on the board or in a shown hand.
   */
  INVALID_CARDS: 'invalid_cards',
} as const;
export type ActionErrorCode = (typeof ActionErrorCode)[keyof typeof ActionErrorCode];

/** A player action the rules do not allow right now. The hand is unchanged when this is thrown. */
export class ActionError extends CodedError<ActionErrorCode> {
  override readonly name = 'ActionError';
  constructor(
    code: ActionErrorCode,
    message: string,
    readonly details: Readonly<{
      seat?: number | null;
      action?: string;
      amount?: number;
      min?: number;
      max?: number;
      actor?: number | null;
      cards?: readonly string[];
    }> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export const SetupErrorCode = {
  INVALID_STAKES: 'invalid_stakes',
  INVALID_PLAYERS: 'invalid_players',
  INVALID_FORCED_BET: 'invalid_forced_bet',
  INVALID_DECK: 'invalid_deck',
  INVALID_RAKE: 'invalid_rake',
  INVALID_HOUSE_RULES: 'invalid_house_rules',
  UNKNOWN_GAME: 'unknown_game',
  UNSUPPORTED_LIMIT: 'unsupported_limit',
  /** A draw game had to reshuffle the discards, which needs the hand's deck seed (docs/fairness.md). */
  DECK_SEED_REQUIRED: 'deck_seed_required',
  /** Blind dealing with a game it cannot play (up cards, draws), or with a deck or deck seed. */
  UNSUPPORTED_DEALING: 'unsupported_dealing',
} as const;
export type SetupErrorCode = (typeof SetupErrorCode)[keyof typeof SetupErrorCode];

/** A hand or table configuration that cannot be played. */
export class SetupError extends CodedError<SetupErrorCode> {
  override readonly name = 'SetupError';
  constructor(
    code: SetupErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export const ShowdownIntegrityCode = {
  POT_WITHOUT_CONTENDER: 'pot_without_contender',
  INELIGIBLE_CONTENDER: 'ineligible_contender',
  POT_AMOUNT_MISMATCH: 'pot_amount_mismatch',
  POT_ELIGIBILITY_MISMATCH: 'pot_eligibility_mismatch',
  CHIPS_NOT_CONSERVED: 'chips_not_conserved',
} as const;
export type ShowdownIntegrityCode = (typeof ShowdownIntegrityCode)[keyof typeof ShowdownIntegrityCode];

/**
 * A pot that cannot be paid as the rules say (docs/engine.md, "Pots, rake, showdown"). Thrown before
 * any pot pays, so the hand stays unsettled and the table can freeze loudly instead of destroying or
 * misdirecting chips.
 */
export class ShowdownIntegrityError extends CodedError<'showdown_integrity'> {
  override readonly name = 'ShowdownIntegrityError';
  constructor(
    readonly reason: ShowdownIntegrityCode,
    message: string,
    readonly details: Readonly<{
      handId: string;
      pot?: number;
      seats?: number[];
      expected?: unknown;
      actual?: unknown;
    }>,
  ) {
    super('showdown_integrity', message);
  }
}

export const SerializationErrorCode = {
  INVALID_FORMAT: 'invalid_format',
  LOG_MISMATCH: 'log_mismatch',
  REPLAY_FAILED: 'replay_failed',
} as const;
export type SerializationErrorCode = (typeof SerializationErrorCode)[keyof typeof SerializationErrorCode];

/** A snapshot that does not restore to the state it claims (corrupt, truncated, or from another version). */
export class SerializationError extends CodedError<SerializationErrorCode> {
  override readonly name = 'SerializationError';
  constructor(
    code: SerializationErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export const TableErrorCode = {
  INVALID_SEAT: 'invalid_seat',
  SEAT_TAKEN: 'seat_taken',
  SEAT_EMPTY: 'seat_empty',
  PLAYER_ALREADY_SEATED: 'player_already_seated',
  HAND_IN_PROGRESS: 'hand_in_progress',
  NO_HAND_IN_PROGRESS: 'no_hand_in_progress',
  NOT_ENOUGH_PLAYERS: 'not_enough_players',
  INVALID_AMOUNT: 'invalid_amount',
  HAND_MISMATCH: 'hand_mismatch',
  INVALID_SNAPSHOT: 'invalid_snapshot',
  INVALID_CONFIG: 'invalid_config',
} as const;
export type TableErrorCode = (typeof TableErrorCode)[keyof typeof TableErrorCode];

/** A seating operation the table refuses. */
export class TableError extends CodedError<TableErrorCode> {
  override readonly name = 'TableError';
  constructor(
    code: TableErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(code, message);
  }
}

export const ExportErrorCode = {
  UNSUPPORTED: 'unsupported',
  PARSE: 'parse',
  REPLAY_MISMATCH: 'replay_mismatch',
} as const;
export type ExportErrorCode = (typeof ExportErrorCode)[keyof typeof ExportErrorCode];

/** A hand that a history format cannot express, or a history file that does not parse or replay. */
export class ExportError extends CodedError<ExportErrorCode> {
  override readonly name = 'ExportError';
  constructor(
    code: ExportErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
