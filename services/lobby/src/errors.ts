import { CodedError } from '@felt/engine';
import { LobbyErrorCode } from '@felt/protocol';

/**
 * Stable error codes of the lobby's HTTP API, defined with the rest of the HTTP contract in
 * @felt/protocol (`LobbyErrorCode`).
 */
export const ApiErrorCode = LobbyErrorCode;
export type ApiErrorCode = LobbyErrorCode;

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
  seat_available: 409,
  waitlist_full: 409,
  waitlist_limit: 409,
  origin_not_allowed: 403,
  tournament_not_found: 404,
  tournament_closed: 409,
  tournament_full: 409,
  not_registered: 409,
  tournament_entry_limit: 409,
  busy: 503,
  unavailable: 503,
  internal: 500,
};

export function statusOf(code: ApiErrorCode): ApiErrorStatus {
  return STATUS[code];
}

/** A refusal the API reports as is: code, HTTP status, a message safe to show, optional details. */
export class LobbyError extends CodedError<ApiErrorCode> {
  override readonly name = 'LobbyError';
  readonly status: ApiErrorStatus;
  /** Sent as the Retry-After header (whole seconds) with 429 and 503 refusals. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    code: ApiErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(code, message, options);
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
