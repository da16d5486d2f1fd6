import type { ServerMessage } from '@felt/protocol';
import type { CommandResult } from '../table/command-history.js';
import type { ClientCommandFrame } from '../table/commands.js';
import type { TournamentOrder, TournamentOrderResult } from '../tournament/contracts.js';

/** What a table actor is asked to do (each through its mailbox, one at a time). */
export type TableCommand =
  | {
      readonly kind: 'attach';
      readonly connectionId: string;
      readonly streamId: string;
      readonly userId: string;
      /** join_table with spectate: a non-member watching. */
      readonly spectate?: boolean;
      /** The user's display name (a spectator's is shown with their chat). */
      readonly userName?: string;
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
  | { readonly kind: 'tick' }
  /** The tournament director's order to this table (idempotent by its order id). */
  | { readonly kind: 'tournament'; readonly order: TournamentOrder };

export interface ConnectionReply {
  readonly connectionId: string;
  readonly message: ServerMessage;
}

export interface TableOutcome {
  readonly tableSeq: number;
  /**
   * Server messages the command produced for the connection that sent it: the snapshot on attach
   * (after a voided hand it must not miss), the resync answer. Never an ack or an error: `result`
   * is the only encoding of those.
   */
  readonly replies: readonly ConnectionReply[];
  /**
   * A client command's answer: accepted at a table_seq, or refused with nothing changed. For a
   * command_id the table had already answered, that first answer again. Absent for other commands.
   */
  readonly result?: CommandResult;
  /** A tournament order's answer (the first one again for a repeated order id). */
  readonly order?: TournamentOrderResult;
}
