// The frames this gateway sends a worker (proto/felt/table/v1/table.proto), built from client frames
// that have passed the @felt/protocol schemas: the worker trusts them and does not validate again.
import { injectTraceContext } from '@felt/platform';
import { ActionType as ProtoActionType, type ClientCommand, type GatewayFrame } from '@felt/proto';
import type {
  ActionFrame,
  ActionType,
  BlindKeyFrame,
  BlindSharesFrame,
  BlindShuffleFrame,
  TableCommandFrame,
} from '@felt/protocol';
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
    case 'blind_key':
      return { $case: 'blindKey', blindKey: blindKeyOf(frame) };
    case 'blind_shuffle':
      return { $case: 'blindShuffle', blindShuffle: blindShuffleOf(frame) };
    case 'blind_shares':
      return { $case: 'blindShares', blindShares: blindSharesOf(frame) };
  }
}

/** 64 lowercase hex digits (the schema checked them) as the 32 bytes they stand for. */
function bytes(hex: string): Buffer {
  return Buffer.from(hex, 'hex');
}

function blindKeyOf(frame: BlindKeyFrame) {
  const { Y, c, s } = frame.proof;
  return { handId: frame.hand_id, y: bytes(Y), c: bytes(c), s: bytes(s) };
}

function blindShuffleOf(frame: BlindShuffleFrame) {
  return {
    handId: frame.hand_id,
    output: frame.output.map((ct) => ({ c1: bytes(ct.c1), c2: bytes(ct.c2) })),
    openings: frame.proof.openings.map((o) =>
      'seed' in o
        ? { opening: { $case: 'seed' as const, seed: bytes(o.seed) } }
        : { opening: { $case: 'perm' as const, perm: { perm: o.perm, rand: o.rand.map(bytes) } } },
    ),
  };
}

function blindSharesOf(frame: BlindSharesFrame) {
  return {
    handId: frame.hand_id,
    shares: frame.shares.map((sh) => ({ position: sh.position, d: bytes(sh.D), c: bytes(sh.c), s: bytes(sh.s) })),
  };
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
