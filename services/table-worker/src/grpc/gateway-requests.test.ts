import { ActionType as ProtoActionType, type ClientCommand, type GatewayFrame } from '@felt/proto';
import { ACTION_TYPES, clientFrameSchema } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { toTableRequest } from './gateway-requests.js';

const HAND = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'AAAAAAAAAAAAAAAAAAAA';

function command(typed: ClientCommand['command'], commandId?: string): GatewayFrame['frame'] {
  return {
    $case: 'command',
    command: {
      requestId: 'r1',
      connectionId: 'c1',
      userId: 'u1',
      tableId: 't1',
      traceContext: {},
      ...(commandId !== undefined ? { commandId } : {}),
      command: typed,
    },
  };
}

/** 32 bytes, distinct per `n`, and the same as the 64 lowercase hex digits the client sent. */
const raw = (n: number, length = 32) => Buffer.from(Array.from({ length }, (_, i) => (n * 37 + i * 11 + 0xa0) % 256));
const hex = (n: number) => raw(n).toString('hex');

/** The frame a typed command maps to, or the reason it is unreadable. */
function mapped(frame: GatewayFrame['frame']): unknown {
  const req = toTableRequest(frame, 's1');
  if (req === null) return null;
  if ('unreadable' in req) return req.unreadable.message;
  return req.command.kind === 'client' ? req.command.frame : req.command;
}

const act = (action: ProtoActionType, extra: { amount?: number; cards?: string[] } = {}) =>
  command({ $case: 'act', act: { handId: HAND, turnToken: TOKEN, action, cards: [], ...extra } }, 'k1');

describe('gateway requests', () => {
  it('maps each typed command to the client frame the table applies, without reading JSON', () => {
    const cases: [GatewayFrame['frame'], unknown][] = [
      [
        act(ProtoActionType.ACTION_TYPE_RAISE, { amount: 40 }),
        {
          type: 'action',
          table_id: 't1',
          hand_id: HAND,
          turn_token: TOKEN,
          command_id: 'k1',
          action: 'raise',
          amount: 40,
        },
      ],
      [
        act(ProtoActionType.ACTION_TYPE_DISCARD, { cards: ['As'] }),
        {
          type: 'action',
          table_id: 't1',
          hand_id: HAND,
          turn_token: TOKEN,
          command_id: 'k1',
          action: 'discard',
          cards: ['As'],
        },
      ],
      [
        command({ $case: 'clientSeed', clientSeed: { handId: HAND, seed: 'a'.repeat(64) } }),
        { type: 'client_seed', table_id: 't1', hand_id: HAND, seed: 'a'.repeat(64) },
      ],
      [
        command({ $case: 'sitIn', sitIn: { post: true } }, 'k'),
        { type: 'sit_in', table_id: 't1', command_id: 'k', post: true },
      ],
      [command({ $case: 'sitIn', sitIn: { post: false } }), { type: 'sit_in', table_id: 't1' }],
      [command({ $case: 'sitOut', sitOut: {} }), { type: 'sit_out', table_id: 't1' }],
      [command({ $case: 'leave', leave: {} }), { type: 'leave', table_id: 't1' }],
      [command({ $case: 'startHand', startHand: {} }), { type: 'start_hand', table_id: 't1' }],
      [
        command({ $case: 'showCards', showCards: { handId: HAND } }),
        { type: 'show_cards', table_id: 't1', hand_id: HAND },
      ],
      [
        command({ $case: 'chat', chat: { text: 'gl hf' } }, 'c'),
        { type: 'chat', table_id: 't1', text: 'gl hf', command_id: 'c' },
      ],
    ];
    for (const [frame, expected] of cases) {
      const req = toTableRequest(frame, 's1');
      expect(req).toMatchObject({
        requestId: 'r1',
        tableId: 't1',
        type: (expected as { type: string }).type,
        command: { kind: 'client', connectionId: 'c1', userId: 'u1' },
      });
      expect(req !== null && 'command' in req && req.command.kind === 'client' && req.command.frame).toStrictEqual(
        expected,
      );
    }
  });

  it('reads every action the contract names', () => {
    const named = Object.values(ProtoActionType).filter(
      (v): v is ProtoActionType =>
        typeof v === 'number' && v !== ProtoActionType.ACTION_TYPE_UNSPECIFIED && v !== ProtoActionType.UNRECOGNIZED,
    );
    const actions = named.map((a) => {
      const req = toTableRequest(act(a), 's1');
      return req !== null && 'command' in req && req.command.kind === 'client' && req.command.frame.type === 'action'
        ? req.command.frame.action
        : undefined;
    });
    expect(new Set(actions)).toEqual(new Set(ACTION_TYPES));
  });

  it('makes attach, detach and resync their own table commands', () => {
    expect(
      toTableRequest(
        {
          $case: 'attach',
          attach: {
            requestId: 'r',
            connectionId: 'c',
            userId: 'u',
            userName: 'U',
            tableId: 't',
            traceContext: {},
            spectate: true,
          },
        },
        's1',
      ),
    ).toMatchObject({
      type: 'attach',
      command: { kind: 'attach', connectionId: 'c', streamId: 's1', userId: 'u', spectate: true, userName: 'U' },
    });
    expect(toTableRequest(command({ $case: 'resync', resync: { fromTableSeq: 7 } }, 'k'), 's1')).toMatchObject({
      type: 'resync',
      command: { kind: 'resync', connectionId: 'c1', userId: 'u1', fromTableSeq: 7, commandId: 'k' },
    });
    expect(toTableRequest({ $case: 'hello', hello: { gatewayId: 'g' } }, 's1')).toBeNull();
  });

  it('maps the engine-blind commands back to their protocol frames, bytes as lowercase hex', () => {
    const key = mapped(
      command({ $case: 'blindKey', blindKey: { handId: HAND, y: raw(1), c: raw(2), s: raw(3) } }, 'k'),
    );
    expect(key).toStrictEqual({
      type: 'blind_key',
      table_id: 't1',
      hand_id: HAND,
      command_id: 'k',
      proof: { Y: hex(1), c: hex(2), s: hex(3) },
    });
    const shuffle = mapped(
      command({
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
      }),
    );
    expect(shuffle).toStrictEqual({
      type: 'blind_shuffle',
      table_id: 't1',
      hand_id: HAND,
      output: [
        { c1: hex(4), c2: hex(5) },
        { c1: hex(6), c2: hex(7) },
      ],
      proof: { openings: [{ seed: hex(8) }, { perm: [1, 0], rand: [hex(9), hex(10)] }] },
    });
    const shares = mapped(
      command({
        $case: 'blindShares',
        blindShares: { handId: HAND, shares: [{ position: 51, d: raw(11), c: raw(12), s: raw(13) }] },
      }),
    );
    expect(shares).toStrictEqual({
      type: 'blind_shares',
      table_id: 't1',
      hand_id: HAND,
      shares: [{ position: 51, D: hex(11), c: hex(12), s: hex(13) }],
    });
    // What the worker applies is a frame the protocol accepts, the same as the client sent.
    for (const frame of [key, shuffle, shares]) {
      expect(clientFrameSchema.parse({ ...(frame as object), table_id: 'b0c1a7c2' })).toBeTruthy();
    }
  });

  it('refuses as unreadable an engine-blind value that is not 32 bytes, or an opening of neither kind', () => {
    const short = raw(1, 31);
    const long = raw(1, 33);
    const key = (y: Buffer) => command({ $case: 'blindKey', blindKey: { handId: HAND, y, c: raw(2), s: raw(3) } });
    expect(mapped(key(short))).toBe('y is 31 bytes, not 32');
    expect(mapped(key(long))).toBe('y is 33 bytes, not 32');
    expect(mapped(key(Buffer.alloc(0)))).toBe('y is 0 bytes, not 32');
    const shuffle = (openings: { opening: unknown }[], c2 = raw(5)) =>
      command({
        $case: 'blindShuffle',
        blindShuffle: {
          handId: HAND,
          output: [
            { c1: raw(4), c2 },
            { c1: raw(6), c2: raw(7) },
          ],
          openings: openings as never,
        },
      });
    expect(mapped(shuffle([{ opening: { $case: 'seed', seed: raw(8) } }], short))).toBe(
      'output[0].c2 is 31 bytes, not 32',
    );
    expect(mapped(shuffle([{ opening: { $case: 'seed', seed: long } }]))).toBe('openings[0].seed is 33 bytes, not 32');
    expect(mapped(shuffle([{ opening: { $case: 'perm', perm: { perm: [1, 0], rand: [raw(9), short] } } }]))).toBe(
      'openings[0].rand[1] is 31 bytes, not 32',
    );
    expect(mapped(shuffle([{ opening: undefined }]))).toBe('openings[0] is neither a seed nor a permutation');
    const shares = command({
      $case: 'blindShares',
      blindShares: { handId: HAND, shares: [{ position: 0, d: raw(11), c: raw(12), s: long }] },
    });
    expect(toTableRequest(shares, 's1')).toEqual({
      unreadable: { requestId: 'r1', tableId: 't1', message: 'shares[0].s is 33 bytes, not 32' },
    });
  });

  it('refuses unread a command it cannot read', () => {
    expect(toTableRequest(act(ProtoActionType.ACTION_TYPE_UNSPECIFIED), 's1')).toEqual({
      unreadable: { requestId: 'r1', tableId: 't1', message: 'unknown action' },
    });
    expect(toTableRequest(act(42 as ProtoActionType), 's1')).toMatchObject({
      unreadable: { message: 'unknown action' },
    });
    expect(toTableRequest(command(undefined), 's1')).toMatchObject({ unreadable: { message: 'not a table command' } });
  });
});
