/**
 * Stable codes of `error` messages. Clients branch on these, so a value never changes meaning;
 * messages beside them are for people.
 */
export const ErrorCode = {
  /** The frame was not valid JSON. */
  BAD_JSON: 'bad_json',
  /** Valid JSON, but not a valid frame of its type (missing or extra fields, wrong types). */
  INVALID_FRAME: 'invalid_frame',
  /** A `type` this server does not know. */
  UNKNOWN_TYPE: 'unknown_type',
  /** Frames arrive faster than the per-socket rate limit allows; this one was dropped. */
  RATE_LIMITED: 'rate_limited',
  /** The user is not a member of the room behind this table. */
  NOT_MEMBER: 'not_member',
  /** No open room has this table id. */
  TABLE_NOT_FOUND: 'table_not_found',
  /** The command needs the connection to have joined the table first. */
  NOT_JOINED: 'not_joined',
  /** The table's worker could not be reached; retry shortly. */
  UNAVAILABLE: 'unavailable',
  /** The table is closed. */
  TABLE_CLOSED: 'table_closed',
  /** The server failed; nothing was applied. */
  INTERNAL: 'internal',
  /** The command needs a seat at this table (spectators only watch). */
  NOT_SEATED: 'not_seated',
  /** An action from a seat that is not the actor. */
  NOT_YOUR_TURN: 'not_your_turn',
  /** The turn_token is not the one of the current turn (an earlier turn's, or made up). */
  STALE_TURN: 'stale_turn_token',
  /** The hand_id is not the hand in progress (an earlier hand's, or made up). */
  STALE_HAND: 'stale_hand',
  /** The rules do not allow this action now (e.g. a check facing a bet); `reason` names the rule. */
  ILLEGAL_ACTION: 'illegal_action',
  /** A bet, raise or completion amount outside the legal range; `min` and `max` give the range. */
  INVALID_AMOUNT: 'invalid_amount',
  /** A client seed outside the window, a second seed for the seat, or from a seat not dealt in. */
  SEED_REFUSED: 'seed_refused',
  /**
   * Not yours to do at this table; `reason` says why (NotAllowedReason): start_hand from someone
   * other than the host or with force-start switched off (host_only); sit_out, leave or start_hand
   * at a tournament table, whose director seats and deals (tournament).
   */
  NOT_ALLOWED: 'not_allowed',
  /** start_hand while a hand is on, or with fewer than two players ready. */
  CANNOT_START: 'cannot_start',
  /** show_cards when there is no finished hand of yours to show, or it was already shown. */
  CANNOT_SHOW: 'cannot_show',
  /** sit_in with no chips left at the table: top up through the lobby first. */
  NO_CHIPS: 'no_chips',
  /** The table has more requests waiting than it queues; nothing was applied, retry shortly. */
  BUSY: 'busy',
  /**
   * A bound was reached: the table has as many spectators as it admits, or this connection is
   * attached to as many tables as one connection may be.
   */
  LIMIT_REACHED: 'limit_reached',
  /**
   * chat while the room has chat off, or from a spectator where only players may chat; `reason`
   * says which (ChatDisabledReason).
   */
  CHAT_DISABLED: 'chat_disabled',
  /** chat faster than the per-user limit of the table allows; wait a moment. */
  CHAT_RATE_LIMITED: 'chat_rate_limited',
  /** A chat message over the length limit (CHAT_TEXT_MAX characters after trimming). */
  MESSAGE_TOO_LONG: 'message_too_long',
  /** A chat message that is empty after trimming or contains control characters. */
  MESSAGE_INVALID: 'message_invalid',
  /** blind_key, blind_shuffle or blind_shares at a table that does not deal engine-blind hands. */
  NOT_ENGINE_BLIND: 'not_engine_blind',
  /**
   * An engine-blind message the hand cannot take now (nothing changed); `reason` says why: not a
   * participant, not this step, not your turn to shuffle, sent already, or a position not dealt.
   */
  BLIND_REFUSED: 'blind_refused',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_CODES = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

/** Why a frame was refused with `not_allowed` (the error's `reason`). */
export const NotAllowedReason = {
  /** Only the host may start a hand, and only where the room lets them. */
  HOST_ONLY: 'host_only',
  /** A tournament table: its director seats, moves and deals; players cannot sit out or leave. */
  TOURNAMENT: 'tournament',
} as const;
export type NotAllowedReason = (typeof NotAllowedReason)[keyof typeof NotAllowedReason];

export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}
