// Every refusal a player can meet, as a sentence they can act on. Codes come from three places: the
// table (protocol ErrorCode), the lobby's HTTP API, and the SDK itself. Unknown codes fall back to a
// generic sentence rather than leaking a server message.
import { CommandRefusedError, FeltSdkError, LobbyApiError, SdkErrorCode } from '@felt/client';
import { ErrorCode, type ErrorMessage } from '@felt/protocol';

const TABLE_TEXT: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.BAD_JSON]: 'Your app sent something the table could not read. Reload the page.',
  [ErrorCode.INVALID_FRAME]: 'Your app sent something the table could not read. Reload the page.',
  [ErrorCode.UNKNOWN_TYPE]: 'Your app is out of date. Reload the page.',
  [ErrorCode.RATE_LIMITED]: 'You are clicking faster than the table allows. Wait a moment and try again.',
  [ErrorCode.NOT_MEMBER]: 'You are not seated in this room. Join it from the lobby first.',
  [ErrorCode.TABLE_NOT_FOUND]: 'This table no longer exists.',
  [ErrorCode.NOT_JOINED]: 'Still connecting to the table. Try again in a moment.',
  [ErrorCode.UNAVAILABLE]: 'The table is briefly unavailable. Try again in a moment.',
  [ErrorCode.TABLE_CLOSED]: 'This table has closed.',
  [ErrorCode.INTERNAL]: 'Something went wrong on our side. Nothing was changed; try again.',
  [ErrorCode.NOT_SEATED]: 'Spectators can only watch. Take a seat to play.',
  [ErrorCode.NOT_YOUR_TURN]: 'It is not your turn.',
  [ErrorCode.STALE_TURN]: 'That turn is already over.',
  [ErrorCode.STALE_HAND]: 'That hand is already over.',
  [ErrorCode.ILLEGAL_ACTION]: 'That move is not allowed right now.',
  [ErrorCode.INVALID_AMOUNT]: 'That amount is not allowed.',
  [ErrorCode.SEED_REFUSED]: 'Your random seed arrived too late for this hand; it was dealt with the server seed only.',
  [ErrorCode.NOT_ALLOWED]: 'Only the host can start a hand now.',
  [ErrorCode.CANNOT_START]: 'A hand cannot start yet: it needs at least two players who are sitting in with chips.',
  [ErrorCode.CANNOT_SHOW]: 'There is no hand of yours to show.',
  [ErrorCode.NO_CHIPS]: 'You have no chips at this table. Top up first, then sit in.',
  [ErrorCode.BUSY]: 'The table is busy. Nothing was done; try again in a moment.',
  [ErrorCode.LIMIT_REACHED]:
    'A limit was reached: this table has as many watchers as it admits, or you have too many tables open.',
};

const ILLEGAL_REASONS: Readonly<Record<string, string>> = {
  cannot_check: 'You cannot check: there is a bet to call.',
  cannot_fold: 'You can check for free, so folding is not offered.',
  raise_not_reopened: 'The betting was not reopened, so you cannot raise.',
  no_opponent_can_answer: 'Nobody left in the hand can call more: you can only call or fold.',
  bring_in_due: 'You must post the bring-in or complete.',
  raise_cap_reached: 'The betting is capped on this street.',
};

/** The sentence for a table refusal, using its `reason`, `min` and `max` where they say more. */
export function tableErrorText(error: Pick<ErrorMessage, 'code' | 'reason' | 'min' | 'max'>): string {
  if (error.code === ErrorCode.ILLEGAL_ACTION && error.reason !== undefined) {
    return ILLEGAL_REASONS[error.reason] ?? TABLE_TEXT[ErrorCode.ILLEGAL_ACTION];
  }
  if (error.code === ErrorCode.INVALID_AMOUNT && error.min !== undefined && error.max !== undefined) {
    return `That amount is not allowed: choose between ${error.min.toLocaleString('en-US')} and ${error.max.toLocaleString('en-US')}.`;
  }
  return TABLE_TEXT[error.code] ?? 'The table refused that. Try again.';
}

const LOBBY_TEXT: Readonly<Record<string, string>> = {
  invalid_request: 'Some of the details are not valid. Check the form and try again.',
  invalid_room_config: 'That room setup is not valid. Check the highlighted fields.',
  invalid_seat: 'That seat does not exist at this table.',
  buy_in_out_of_range: "That buy-in is outside the room's range.",
  unauthenticated: 'Your session has ended. Log in again.',
  invalid_credentials: 'That name and password do not match.',
  not_host: 'Only the host can do that.',
  room_not_found: 'No open room with that code can seat you. Check the code and the buy-in.',
  no_room_available: 'No open table matches right now. Create one instead.',
  not_found: 'That was not found.',
  hand_not_found: 'That hand is not among yours.',
  name_taken: 'That name is taken. Pick another one.',
  seat_taken: 'Someone just took that seat. Pick another one.',
  already_seated: 'You already have a seat in this room.',
  room_full: 'This room is full.',
  insufficient_funds: 'Your wallet does not have enough chips for that.',
  not_seated: 'You do not have a seat in this room.',
  room_closed: 'This room has closed.',
  idempotency_conflict: 'That request was already made with different details.',
  payload_too_large: 'That request is too large.',
  unsupported_media_type: 'Your app sent something the lobby could not read. Reload the page.',
  export_unsupported: 'This hand cannot be exported in that format.',
  internal: 'Something went wrong on our side. Nothing was changed; try again.',
  rate_limited: 'Too many attempts. Wait a little and try again.',
  busy: 'The lobby is busy. Nothing was changed; try again in a moment.',
  origin_not_allowed: 'That request came from another site and was refused.',
  room_limit_reached: 'You host as many open rooms as you may. Close one first.',
};

export function lobbyErrorText(code: string, status?: number): string {
  const known = LOBBY_TEXT[code];
  if (known !== undefined) return known;
  if (status !== undefined && status >= 500) return LOBBY_TEXT.internal!;
  return 'The lobby refused that. Try again.';
}

/** Any error the UI catches, as a sentence. Network failures read as connection problems. */
export function errorText(err: unknown): string {
  if (err instanceof CommandRefusedError) return tableErrorText(err.refusal);
  if (err instanceof LobbyApiError) {
    const wait = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
    if ((err.code === 'rate_limited' || err.code === 'busy') && typeof wait === 'number') {
      return `${lobbyErrorText(err.code, err.status)} (about ${Math.max(1, Math.ceil(wait))} s)`;
    }
    if (err.code === 'buy_in_out_of_range') {
      const d = err.details as { min?: unknown; max?: unknown } | undefined;
      if (typeof d?.min === 'number' && typeof d.max === 'number') {
        return `That buy-in is outside the room's range: choose between ${d.min.toLocaleString('en-US')} and ${d.max.toLocaleString('en-US')}.`;
      }
    }
    return lobbyErrorText(err.code, err.status);
  }
  if (err instanceof FeltSdkError) {
    switch (err.code) {
      case SdkErrorCode.COMMAND_TIMEOUT:
        return 'The table did not answer. Check your connection; nothing was changed.';
      case SdkErrorCode.NO_TURN:
        return 'It is not your turn.';
      case SdkErrorCode.SESSION_CLOSED:
        return 'You are no longer connected to this table.';
      default:
        return 'Something went wrong. Try again.';
    }
  }
  if (err instanceof TypeError) return 'Cannot reach Felt. Check your connection and try again.';
  return 'Something went wrong. Try again.';
}
