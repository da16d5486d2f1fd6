// The frames this gateway sends a worker (proto/felt/table/v1/table.proto), built from client frames
// that have passed the @felt/protocol schemas: the worker trusts them and does not validate again.
import { injectTraceContext } from '@felt/platform';
import { ActionType as ProtoActionType, type ClientCommand, type GatewayFrame } from '@felt/proto';
import type { ActionFrame, ActionType, TableCommandFrame } from '@felt/protocol';
import type { ClientConnection } from './connection-index.js';

const ACTIONS = {
  fold: ProtoActionType.ACTION_TYPE_FOLD,
  check: ProtoActionType.ACTION_TYPE_CHECK,
  call: ProtoActionType.ACTION_TYPE_CALL,
  bet: ProtoActionType.ACTION_TYPE_BET,
  raise: ProtoActionType.ACTION_TYPE_RAISE,
  all_in: ProtoActionType.ACTION_TYPE_ALL_IN,
  bring_in: ProtoActionType.ACTION_TYPE_BRING_IN,
  complete: ProtoActionType.ACTION_TYPE_COMPLETE,
  discard: ProtoActionType.ACTION_TYPE_DISCARD,
} as const satisfies Record<ActionType, ProtoActionType>;

/** join_table: attaches the connection, as a spectator when it asked to watch. */
export function attachFrame(
  requestId: string,
  conn: ClientConnection,
  tableId: string,
  spectate: boolean,
): GatewayFrame {
  return {
    frame: {
      $case: 'attach',
      attach: {
        requestId,
        connectionId: conn.id,
        userId: conn.userId,
        userName: conn.name,
        tableId,
        traceContext: injectTraceContext(),
        spectate,
      },
    },
  };
}

/** leave_table, or the socket closed. */
export function detachFrame(requestId: string, conn: ClientConnection, tableId: string): GatewayFrame {
  return {
    frame: {
      $case: 'detach',
      detach: { requestId, connectionId: conn.id, userId: conn.userId, tableId, traceContext: injectTraceContext() },
    },
  };
}

/** Every other table frame: a typed command for the table's worker. */
export function commandFrame(requestId: string, conn: ClientConnection, frame: TableCommandFrame): GatewayFrame {
  return {
    frame: {
      $case: 'command',
      command: {
        requestId,
        connectionId: conn.id,
        userId: conn.userId,
        tableId: frame.table_id,
        traceContext: injectTraceContext(),
        ...(frame.command_id !== undefined ? { commandId: frame.command_id } : {}),
        command: typedCommand(frame),
      },
    },
  };
}

function typedCommand(frame: TableCommandFrame): ClientCommand['command'] {
  switch (frame.type) {
    case 'action':
      return { $case: 'act', act: actOf(frame) };
    case 'client_seed':
      return { $case: 'clientSeed', clientSeed: { handId: frame.hand_id, seed: frame.seed } };
    case 'sit_in':
      return { $case: 'sitIn', sitIn: { post: frame.post === true } };
    case 'sit_out':
      return { $case: 'sitOut', sitOut: {} };
    case 'leave':
      return { $case: 'leave', leave: {} };
    case 'start_hand':
      return { $case: 'startHand', startHand: {} };
    case 'show_cards':
      return { $case: 'showCards', showCards: { handId: frame.hand_id } };
    case 'resync_request':
      return {
        $case: 'resync',
        resync: frame.from_table_seq !== undefined ? { fromTableSeq: frame.from_table_seq } : {},
      };
    case 'chat':
      return { $case: 'chat', chat: { text: frame.text } };
  }
}

function actOf(frame: ActionFrame) {
  return {
    handId: frame.hand_id,
    turnToken: frame.turn_token,
    action: ACTIONS[frame.action],
    ...(frame.amount !== undefined ? { amount: frame.amount } : {}),
    cards: frame.cards ?? [],
  };
}
