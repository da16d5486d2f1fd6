// The client's answer to a table frame, written from the worker's one answer to it (an Ack or a
// CommandError, proto/felt/table/v1/table.proto): the worker never sends the client's ack or error
// message itself. Key order is the wire order docs/protocol.md shows.
import { ErrorCode, isErrorCode, type Ack, type ErrorMessage, type TableFrame } from '@felt/protocol';
import type { WorkerAnswer } from './worker-link.js';

/** What a client's error echoes of the frame it refuses. */
export interface FrameEcho {
  readonly table_id: string;
  readonly command_id?: string | undefined;
}

export function echoOf(frame: TableFrame): FrameEcho {
  return { table_id: frame.table_id, command_id: frame.command_id };
}

/**
 * `ack` for an accepted table command that carried a command_id (a repeated one gets the table_seq
 * of its first acceptance); null for the frames that are answered otherwise (join_table and
 * resync_request by their snapshot, leave_table by nothing).
 */
export function clientAck(frame: TableFrame, atTableSeq: number): Ack | null {
  switch (frame.type) {
    case 'join_table':
    case 'leave_table':
    case 'resync_request':
      return null;
    default:
      if (frame.command_id === undefined) return null;
      return { type: 'ack', table_id: frame.table_id, command_id: frame.command_id, at_table_seq: atTableSeq };
  }
}

/** `error` for a frame this gateway failed to handle: nothing of the failure reaches the client. */
export function internalError(echo: FrameEcho): ErrorMessage {
  return { type: 'error', code: ErrorCode.INTERNAL, message: 'internal error', ...idsOf(echo) };
}

/**
 * `error` for a frame the worker refused (its code, message and details), or could not be asked
 * about (unavailable). A code this gateway does not know is its internal error, and its text stays
 * inside.
 */
export function clientError(answer: Exclude<WorkerAnswer, { kind: 'ack' }>, echo: FrameEcho): ErrorMessage {
  const ids = idsOf(echo);
  if (answer.kind !== 'error') {
    return { type: 'error', code: ErrorCode.UNAVAILABLE, message: 'the table is unavailable; retry shortly', ...ids };
  }
  if (!isErrorCode(answer.code) || answer.code === ErrorCode.INTERNAL) return internalError(echo);
  return {
    type: 'error',
    code: answer.code,
    message: answer.message,
    ...ids,
    ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    ...(answer.min !== undefined ? { min: answer.min } : {}),
    ...(answer.max !== undefined ? { max: answer.max } : {}),
  };
}

function idsOf(echo: FrameEcho): { table_id: string; command_id?: string } {
  return { table_id: echo.table_id, ...(echo.command_id !== undefined ? { command_id: echo.command_id } : {}) };
}
