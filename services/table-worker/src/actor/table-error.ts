import { ErrorCode } from '@felt/protocol';

/** A refusal the gateway passes on to the client as `error {code, message}`. */
export class TableError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly tableId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TableError';
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
