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
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_CODES = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}
