import {
  ActionType as ProtoActionType,
  type Act,
  type BlindKey,
  type BlindShares,
  type BlindShuffle,
  type ClientCommand,
  type GatewayFrame,
} from '@felt/proto';
import {
  ActionType,
  type ActionFrame,
  type BlindKeyFrame,
  type BlindSharesFrame,
  type BlindShuffleFrame,
} from '@felt/protocol';
import type { TableCommand } from '../actor/table-command.js';
import type { ClientCommandFrame } from '../table/commands.js';

/** One request from a gateway, in the worker's terms: proto types stop in this file. */
export interface TableRequest {
  /** The span and metric label: attach, detach, resync, or the client frame's type. */
  readonly type: string;
  readonly requestId: string;
  readonly tableId: string;
  readonly traceContext: Record<string, string>;
  readonly command: TableCommand;
}

/** A command this worker cannot read: a gateway built from another version of the contract. */
export interface UnreadableRequest {
  readonly unreadable: { readonly requestId: string; readonly tableId: string; readonly message: string };
}

const ACTIONS: Readonly<Record<ProtoActionType, ActionType | undefined>> = {
  [ProtoActionType.ACTION_TYPE_UNSPECIFIED]: undefined,
  [ProtoActionType.UNRECOGNIZED]: undefined,
  [ProtoActionType.ACTION_TYPE_FOLD]: ActionType.FOLD,
  [ProtoActionType.ACTION_TYPE_CHECK]: ActionType.CHECK,
  [ProtoActionType.ACTION_TYPE_CALL]: ActionType.CALL,
  [ProtoActionType.ACTION_TYPE_BET]: ActionType.BET,
  [ProtoActionType.ACTION_TYPE_RAISE]: ActionType.RAISE,
  [ProtoActionType.ACTION_TYPE_ALL_IN]: ActionType.ALL_IN,
  [ProtoActionType.ACTION_TYPE_BRING_IN]: ActionType.BRING_IN,
  [ProtoActionType.ACTION_TYPE_COMPLETE]: ActionType.COMPLETE,
  [ProtoActionType.ACTION_TYPE_DISCARD]: ActionType.DISCARD,
};

/**
 * Maps one gateway frame to a table request. The gateway validated the client's frame against the
 * @felt/protocol schemas before it built the typed command, and the stream is authenticated, so the
 * fields are trusted as they are; only a command this build cannot read at all is refused. Returns
 * null for frames that are not requests (hello).
 */
export function toTableRequest(
  frame: GatewayFrame['frame'],
  streamId: string,
): TableRequest | UnreadableRequest | null {
  switch (frame?.$case) {
    case 'attach': {
      const a = frame.attach;
      return {
        type: 'attach',
        requestId: a.requestId,
        tableId: a.tableId,
        traceContext: a.traceContext,
        command: {
          kind: 'attach',
          connectionId: a.connectionId,
          streamId,
          userId: a.userId,
          ...(a.spectate ? { spectate: true } : {}),
          ...(a.userName !== '' ? { userName: a.userName } : {}),
        },
      };
    }
    case 'detach': {
      const d = frame.detach;
      return {
        type: 'detach',
        requestId: d.requestId,
        tableId: d.tableId,
        traceContext: d.traceContext,
        command: { kind: 'detach', connectionId: d.connectionId, userId: d.userId },
      };
    }
    case 'command':
      return fromClientCommand(frame.command);
    default:
      return null;
  }
}

function fromClientCommand(c: ClientCommand): TableRequest | UnreadableRequest {
  const head = { requestId: c.requestId, tableId: c.tableId, traceContext: c.traceContext };
  if (c.command?.$case === 'resync') {
    return {
      ...head,
      type: 'resync',
      command: {
        kind: 'resync',
        connectionId: c.connectionId,
        userId: c.userId,
        ...(c.command.resync.fromTableSeq !== undefined ? { fromTableSeq: c.command.resync.fromTableSeq } : {}),
        ...(c.commandId !== undefined ? { commandId: c.commandId } : {}),
      },
    };
  }
  const frame = toClientCommandFrame(c);
  if (typeof frame === 'string') return { unreadable: { requestId: c.requestId, tableId: c.tableId, message: frame } };
  return {
    ...head,
    type: frame.type,
    command: { kind: 'client', connectionId: c.connectionId, userId: c.userId, frame },
  };
}

/** The client frame a typed command stands for, or why there is none. */
function toClientCommandFrame(c: ClientCommand): ClientCommandFrame | string {
  const table_id = c.tableId;
  const command_id = c.commandId !== undefined ? { command_id: c.commandId } : {};
  switch (c.command?.$case) {
    case 'act':
      return toActionFrame(c.tableId, c.commandId, c.command.act);
    case 'clientSeed': {
      const { handId, seed } = c.command.clientSeed;
      return { type: 'client_seed', table_id, hand_id: handId, seed, ...command_id };
    }
    case 'sitIn':
      return { type: 'sit_in', table_id, ...command_id, ...(c.command.sitIn.post ? { post: true } : {}) };
    case 'sitOut':
      return { type: 'sit_out', table_id, ...command_id };
    case 'leave':
      return { type: 'leave', table_id, ...command_id };
    case 'startHand':
      return { type: 'start_hand', table_id, ...command_id };
    case 'showCards':
      return { type: 'show_cards', table_id, hand_id: c.command.showCards.handId, ...command_id };
    case 'chat':
      return { type: 'chat', table_id, text: c.command.chat.text, ...command_id };
    case 'blindKey':
      return toBlindKeyFrame(table_id, command_id, c.command.blindKey);
    case 'blindShuffle':
      return toBlindShuffleFrame(table_id, command_id, c.command.blindShuffle);
    case 'blindShares':
      return toBlindSharesFrame(table_id, command_id, c.command.blindShares);
    default:
      return 'not a table command';
  }
}

function toActionFrame(tableId: string, commandId: string | undefined, act: Act): ActionFrame | string {
  const action = ACTIONS[act.action];
  if (action === undefined) return 'unknown action';
  // Every action frame has a command_id (the protocol requires one).
  if (commandId === undefined) return 'an action needs a command_id';
  return {
    type: 'action',
    table_id: tableId,
    hand_id: act.handId,
    turn_token: act.turnToken,
    command_id: commandId,
    action,
    ...(act.amount !== undefined ? { amount: act.amount } : {}),
    ...(act.cards.length > 0 ? { cards: act.cards } : {}),
  };
}

// ---- engine-blind dealing ------------------------------------------------------------------------
// Each value is 32 raw bytes on the link (the gateway decoded the client's hex), and goes back into
// the protocol frame as 64 lowercase hex digits. A value of another length is a gateway this build
// cannot read: refused as invalid_frame, never passed on.

const BLIND_VALUE_BYTES = 32;

/** The frame's command_id, when the request had one. */
type CommandIdField = { command_id?: string };

class BadBlindValue extends Error {}

function hex32(value: Uint8Array, what: string): string {
  if (value.length !== BLIND_VALUE_BYTES) {
    throw new BadBlindValue(`${what} is ${value.length} bytes, not ${BLIND_VALUE_BYTES}`);
  }
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
}

/** Runs `build`, turning a value of the wrong length into the reason the command is unreadable. */
function blindFrame<F>(build: () => F): F | string {
  try {
    return build();
  } catch (err) {
    if (err instanceof BadBlindValue) return err.message;
    throw err;
  }
}

function toBlindKeyFrame(tableId: string, commandId: CommandIdField, key: BlindKey): BlindKeyFrame | string {
  return blindFrame(() => ({
    type: 'blind_key',
    table_id: tableId,
    hand_id: key.handId,
    ...commandId,
    proof: { Y: hex32(key.y, 'y'), c: hex32(key.c, 'c'), s: hex32(key.s, 's') },
  }));
}

function toBlindShuffleFrame(
  tableId: string,
  commandId: CommandIdField,
  shuffle: BlindShuffle,
): BlindShuffleFrame | string {
  return blindFrame(() => ({
    type: 'blind_shuffle',
    table_id: tableId,
    hand_id: shuffle.handId,
    ...commandId,
    output: shuffle.output.map((ct, i) => ({
      c1: hex32(ct.c1, `output[${i}].c1`),
      c2: hex32(ct.c2, `output[${i}].c2`),
    })),
    proof: {
      openings: shuffle.openings.map((o, k) => {
        switch (o.opening?.$case) {
          case 'seed':
            return { seed: hex32(o.opening.seed, `openings[${k}].seed`) };
          case 'perm':
            return {
              perm: o.opening.perm.perm,
              rand: o.opening.perm.rand.map((r, j) => hex32(r, `openings[${k}].rand[${j}]`)),
            };
          default:
            throw new BadBlindValue(`openings[${k}] is neither a seed nor a permutation`);
        }
      }),
    },
  }));
}

function toBlindSharesFrame(
  tableId: string,
  commandId: CommandIdField,
  shares: BlindShares,
): BlindSharesFrame | string {
  return blindFrame(() => ({
    type: 'blind_shares',
    table_id: tableId,
    hand_id: shares.handId,
    ...commandId,
    shares: shares.shares.map((sh, i) => ({
      position: sh.position,
      D: hex32(sh.d, `shares[${i}].d`),
      c: hex32(sh.c, `shares[${i}].c`),
      s: hex32(sh.s, `shares[${i}].s`),
    })),
  }));
}
