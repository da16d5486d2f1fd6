/**
 * Stable error codes of the lobby's HTTP API: `{ "error": { "code", "message" } }`. Clients branch
 * on the code; the message is for people and never carries internals.
 */
export const ApiErrorCode = {
  /** The body, query or path failed validation (or was not JSON). */
  INVALID_REQUEST: 'invalid_request',
  /** The room config failed RoomConfig's rules; `issues` lists each field. */
  INVALID_ROOM_CONFIG: 'invalid_room_config',
  UNAUTHENTICATED: 'unauthenticated',
  INVALID_CREDENTIALS: 'invalid_credentials',
  NAME_TAKEN: 'name_taken',
  NOT_HOST: 'not_host',
  NOT_FOUND: 'not_found',
  ROOM_NOT_FOUND: 'room_not_found',
  ROOM_CLOSED: 'room_closed',
  NO_ROOM_AVAILABLE: 'no_room_available',
  INVALID_SEAT: 'invalid_seat',
  SEAT_TAKEN: 'seat_taken',
  ALREADY_SEATED: 'already_seated',
  ROOM_FULL: 'room_full',
  NOT_SEATED: 'not_seated',
  BUY_IN_OUT_OF_RANGE: 'buy_in_out_of_range',
  INSUFFICIENT_FUNDS: 'insufficient_funds',
  /** The player's last seat at this room is still being cashed out (or its cash-out did not reconcile). */
  CASH_OUT_PENDING: 'cash_out_pending',
  /** The player asked to leave; the table lets them go at the end of the hand. */
  LEAVE_REQUESTED: 'leave_requested',
  HAND_NOT_FOUND: 'hand_not_found',
  /** The hand exists but the requested format cannot express it (e.g. PHH has no pot-limit Hold'em). */
  EXPORT_UNSUPPORTED: 'export_unsupported',
  /** An Idempotency-Key was reused for a different request. */
  IDEMPOTENCY_CONFLICT: 'idempotency_conflict',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  /** Too many attempts (log-in, sign-up, joins by code) from this address or for this name; see Retry-After. */
  RATE_LIMITED: 'rate_limited',
  /** The host already has as many open rooms as one may (FELT_MAX_OPEN_ROOMS_PER_USER). */
  ROOM_LIMIT_REACHED: 'room_limit_reached',
  /** A state-changing request from a page on another origin (CSRF). */
  ORIGIN_NOT_ALLOWED: 'origin_not_allowed',
  /** Password hashing is saturated; nothing was done. Retry after Retry-After seconds. */
  BUSY: 'busy',
  UNAVAILABLE: 'unavailable',
  INTERNAL: 'internal',
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];
export const API_ERROR_CODES = Object.values(ApiErrorCode) as [ApiErrorCode, ...ApiErrorCode[]];

export type ApiErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

const STATUS: Readonly<Record<ApiErrorCode, ApiErrorStatus>> = {
  invalid_request: 400,
  invalid_room_config: 400,
  invalid_seat: 400,
  buy_in_out_of_range: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  not_host: 403,
  not_found: 404,
  room_not_found: 404,
  no_room_available: 404,
  name_taken: 409,
  room_closed: 409,
  seat_taken: 409,
  already_seated: 409,
  room_full: 409,
  not_seated: 409,
  insufficient_funds: 409,
  idempotency_conflict: 409,
  cash_out_pending: 409,
  leave_requested: 409,
  hand_not_found: 404,
  export_unsupported: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  room_limit_reached: 409,
  origin_not_allowed: 403,
  busy: 503,
  unavailable: 503,
  internal: 500,
};

export function statusOf(code: ApiErrorCode): ApiErrorStatus {
  return STATUS[code];
}

/** A refusal the API reports as is: code, HTTP status, a message safe to show, optional details. */
export class LobbyError extends Error {
  readonly status: ApiErrorStatus;
  /** Sent as the Retry-After header (whole seconds) with 429 and 503 refusals. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'LobbyError';
    this.status = STATUS[code];
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** A refusal that says when to try again: 429 rate_limited or 503 busy, with Retry-After. */
export function retryLater(
  code: typeof ApiErrorCode.RATE_LIMITED | typeof ApiErrorCode.BUSY,
  message: string,
  retryAfterMs: number,
): LobbyError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new LobbyError(code, message, { retry_after_seconds: retryAfterSeconds }, { retryAfterSeconds });
}
