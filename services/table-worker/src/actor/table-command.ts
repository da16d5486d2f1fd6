import type { Ack, ErrorCode, ErrorMessage, ServerMessage } from '@felt/protocol';
import type { CommandResult } from '../table/command-history.js';
import type { ClientCommandFrame } from '../table/commands.js';

/** What a table actor is asked to do (each through its mailbox, one at a time). */
export type TableCommand =
  | {
      readonly kind: 'attach';
      readonly connectionId: string;
      readonly streamId: string;
      readonly userId: string;
      /** join_table with spectate: a non-member watching. */
      readonly spectate?: boolean;
    }
  | { readonly kind: 'detach'; readonly connectionId: string; readonly userId: string }
  /** The gateway stream carrying these connections ended (gateway died or restarted). */
  | { readonly kind: 'stream_closed'; readonly streamId: string }
  | {
      readonly kind: 'resync';
      readonly connectionId: string;
      readonly userId: string;
      readonly fromTableSeq?: number;
      readonly commandId?: string;
    }
  /** A client command (action, client_seed, sit_in, …) from a connection attached to this table. */
  | {
      readonly kind: 'client';
      readonly connectionId: string;
      readonly userId: string;
      readonly frame: ClientCommandFrame;
    }
  /** The lobby changed the room (member joined or left, room closed): reread it. */
  | { readonly kind: 'refresh' }
  /** The lobby recorded a member's leave request (worker-mode cash-out). */
  | { readonly kind: 'member_leaving'; readonly userId: string }
  /** A timer is due (action clock, seed window, bots, next hand). */
  | { readonly kind: 'tick' };

export interface ConnectionReply {
  readonly connectionId: string;
  readonly message: ServerMessage;
}

export interface TableOutcome {
  readonly tableSeq: number;
  readonly replies: readonly ConnectionReply[];
  /** A client command was refused (nothing changed); the reply list carries the full error. */
  readonly refusal?: { readonly code: ErrorCode; readonly message: string };
}

/** The answer to a client command, or to the same command_id sent again: an ack or a typed error. */
export function commandReply(
  table: { readonly tableId: string; readonly tableSeq: number },
  connectionId: string,
  commandId: string | undefined,
  result: CommandResult,
): TableOutcome {
  const tableId = table.tableId;
  if (result.ok) {
    const ack: Ack = { type: 'ack', table_id: tableId, command_id: commandId!, at_table_seq: result.atTableSeq };
    return { tableSeq: table.tableSeq, replies: [{ connectionId, message: ack }] };
  }
  const error: ErrorMessage = {
    type: 'error',
    code: result.code,
    message: result.message,
    table_id: tableId,
    ...(commandId !== undefined ? { command_id: commandId } : {}),
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    ...(result.min !== undefined ? { min: result.min } : {}),
    ...(result.max !== undefined ? { max: result.max } : {}),
  };
  return {
    tableSeq: table.tableSeq,
    replies: [{ connectionId, message: error }],
    refusal: { code: result.code, message: result.message },
  };
}
