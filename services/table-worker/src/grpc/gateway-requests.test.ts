import { ActionType as ProtoActionType, type ClientCommand, type GatewayFrame } from '@felt/proto';
import { ACTION_TYPES } from '@felt/protocol';
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
