import { ActionType as ProtoActionType, GatewayFrame } from '@felt/proto';
import { ACTION_TYPES, TABLE_COMMAND_TYPES, type TableCommandFrame } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import type { ClientConnection } from './connection-index.js';
import { attachFrame, commandFrame } from './worker-frames.js';

const conn: ClientConnection = { id: 'c1', userId: 'u1', sessionId: 's1', name: 'Ann', tables: new Map() };
const HAND = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'AAAAAAAAAAAAAAAAAAAA';
/** 32 bytes, distinct per `n` and not all one value, as lowercase hex and as the raw bytes. */
const raw = (n: number) => Buffer.from(Array.from({ length: 32 }, (_, i) => (n * 37 + i * 11) % 256));
const hex = (n: number) => raw(n).toString('hex');

/** Through the wire and back, as the worker reads it. */
function sent(frame: TableCommandFrame) {
  const decoded = GatewayFrame.decode(GatewayFrame.encode(commandFrame('r1', conn, frame)).finish()).frame;
  if (decoded?.$case !== 'command') throw new Error('not a command');
  return decoded.command;
}

describe('worker frames', () => {
  it('sends each table command as its typed message, with the connection, table and command_id', () => {
    const frames: [TableCommandFrame, unknown][] = [
      [
        {
          type: 'action',
          table_id: 't1',
          hand_id: HAND,
          turn_token: TOKEN,
          command_id: 'k1',
          action: 'raise',
          amount: 40,
        },
        {
          $case: 'act',
          act: { handId: HAND, turnToken: TOKEN, action: ProtoActionType.ACTION_TYPE_RAISE, amount: 40, cards: [] },
        },
      ],
      [
        {
          type: 'action',
          table_id: 't1',
          hand_id: HAND,
          turn_token: TOKEN,
          command_id: 'k1',
          action: 'discard',
          cards: ['As', 'Td'],
        },
        {
          $case: 'act',
          act: { handId: HAND, turnToken: TOKEN, action: ProtoActionType.ACTION_TYPE_DISCARD, cards: ['As', 'Td'] },
        },
      ],
      [
        { type: 'client_seed', table_id: 't1', hand_id: HAND, seed: 'a'.repeat(64), command_id: 'k1' },
        { $case: 'clientSeed', clientSeed: { handId: HAND, seed: 'a'.repeat(64) } },
      ],
      [
        { type: 'sit_in', table_id: 't1', command_id: 'k1', post: true },
        { $case: 'sitIn', sitIn: { post: true } },
      ],
      [
        { type: 'sit_out', table_id: 't1', command_id: 'k1' },
        { $case: 'sitOut', sitOut: {} },
      ],
      [
        { type: 'leave', table_id: 't1', command_id: 'k1' },
        { $case: 'leave', leave: {} },
      ],
      [
        { type: 'start_hand', table_id: 't1', command_id: 'k1' },
        { $case: 'startHand', startHand: {} },
      ],
      [
        { type: 'show_cards', table_id: 't1', hand_id: HAND, command_id: 'k1' },
        { $case: 'showCards', showCards: { handId: HAND } },
      ],
      [
        { type: 'resync_request', table_id: 't1', from_table_seq: 0, command_id: 'k1' },
        { $case: 'resync', resync: { fromTableSeq: 0 } },
      ],
      [
        { type: 'chat', table_id: 't1', text: 'gl hf', command_id: 'k1' },
        { $case: 'chat', chat: { text: 'gl hf' } },
      ],
      [
        {
          type: 'blind_key',
          table_id: 't1',
          hand_id: HAND,
          command_id: 'k1',
          proof: { Y: hex(1), c: hex(2), s: hex(3) },
        },
        { $case: 'blindKey', blindKey: { handId: HAND, y: raw(1), c: raw(2), s: raw(3) } },
      ],
      [
        {
          type: 'blind_shuffle',
          table_id: 't1',
          hand_id: HAND,
          command_id: 'k1',
          output: [
            { c1: hex(4), c2: hex(5) },
            { c1: hex(6), c2: hex(7) },
          ],
          proof: { openings: [{ seed: hex(8) }, { perm: [1, 0], rand: [hex(9), hex(10)] }] },
        },
        {
          $case: 'blindShuffle',
          blindShuffle: {
            handId: HAND,
            output: [
              { c1: raw(4), c2: raw(5) },
              { c1: raw(6), c2: raw(7) },
            ],
            openings: [
              { opening: { $case: 'seed', seed: raw(8) } },
              { opening: { $case: 'perm', perm: { perm: [1, 0], rand: [raw(9), raw(10)] } } },
            ],
          },
        },
      ],
      [
        {
          type: 'blind_shares',
          table_id: 't1',
          hand_id: HAND,
          command_id: 'k1',
          shares: [{ position: 51, D: hex(11), c: hex(12), s: hex(13) }],
        },
        {
          $case: 'blindShares',
          blindShares: { handId: HAND, shares: [{ position: 51, d: raw(11), c: raw(12), s: raw(13) }] },
        },
      ],
    ];
    expect(new Set(frames.map(([f]) => f.type))).toEqual(new Set(TABLE_COMMAND_TYPES));
    for (const [frame, typed] of frames) {
      const command = sent(frame);
      expect(command, frame.type).toMatchObject({
        requestId: 'r1',
        connectionId: 'c1',
        userId: 'u1',
        tableId: 't1',
        commandId: 'k1',
        command: typed,
      });
    }
  });

  it('names every client action, each with its own value', () => {
    const sentAs = ACTION_TYPES.map((action) => {
      const command = sent({
        type: 'action',
        table_id: 't',
        hand_id: HAND,
        turn_token: TOKEN,
        command_id: 'k',
        action,
      });
      return command.command?.$case === 'act' ? command.command.act.action : undefined;
    });
    expect(sentAs).not.toContain(ProtoActionType.ACTION_TYPE_UNSPECIFIED);
    expect(new Set(sentAs).size).toBe(ACTION_TYPES.length);
  });

  it('leaves out what the frame left out', () => {
    const command = sent({ type: 'resync_request', table_id: 't1' });
    expect(command.commandId).toBeUndefined();
    expect(command.command?.$case === 'resync' && command.command.resync.fromTableSeq).toBeUndefined();
    const call = sent({
      type: 'action',
      table_id: 't',
      hand_id: HAND,
      turn_token: TOKEN,
      command_id: 'k',
      action: 'call',
    });
    expect(call.command?.$case === 'act' && call.command.act.amount).toBeUndefined();
  });

  it('sends engine-blind values as their 32 raw bytes, half the size of the hex', () => {
    const command = sent({
      type: 'blind_key',
      table_id: 't1',
      hand_id: HAND,
      proof: { Y: 'ab'.repeat(32), c: '00'.repeat(32), s: 'ff'.repeat(32) },
    });
    if (command.command?.$case !== 'blindKey') throw new Error('not a blind_key');
    const { y, c, s } = command.command.blindKey;
    expect([y.length, c.length, s.length]).toEqual([32, 32, 32]);
    expect([y.toString('hex'), c.toString('hex'), s.toString('hex')]).toEqual([
      'ab'.repeat(32),
      '00'.repeat(32),
      'ff'.repeat(32),
    ]);
  });

  it('attaches a spectator with spectate', () => {
    expect(attachFrame('r', conn, 't1', true).frame).toMatchObject({
      $case: 'attach',
      attach: { connectionId: 'c1', userId: 'u1', userName: 'Ann', tableId: 't1', spectate: true },
    });
  });
});
