import { CodedError } from '@felt/engine';
import { ErrorCode } from '@felt/protocol';

/** Details a refusal may carry to the client (docs/protocol.md, `error`). */
export interface RefusalDetails {
  /** illegal_action: the rule that refused it (an @felt/engine ActionErrorCode). */
  readonly reason?: string;
  /** invalid_amount: the legal range. */
  readonly min?: number;
  readonly max?: number;
}

/** A refusal the gateway passes on to the client as `error {code, message, …}`; nothing was applied. */
export class TableError extends CodedError<ErrorCode> {
  override readonly name = 'TableError';
  constructor(
    code: ErrorCode,
    message: string,
    readonly tableId: string,
    readonly details: RefusalDetails = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

export function notMember(tableId: string): TableError {
  return new TableError(ErrorCode.NOT_MEMBER, 'you are not a member of this table', tableId);
}

export function tableNotFound(tableId: string): TableError {
  return new TableError(ErrorCode.TABLE_NOT_FOUND, 'no open table has this id', tableId);
}

export function tableClosed(tableId: string): TableError {
  return new TableError(ErrorCode.TABLE_CLOSED, 'this table is closed', tableId);
}

export function notJoined(tableId: string): TableError {
  return new TableError(ErrorCode.NOT_JOINED, 'join the table first', tableId);
}
