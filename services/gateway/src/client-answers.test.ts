import type { TableFrame } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { clientAck, clientError, echoOf, internalError } from './client-answers.js';

const HAND = '11111111-1111-4111-8111-111111111111';
const action: TableFrame = {
  type: 'action',
  table_id: 't1',
  hand_id: HAND,
  turn_token: 'AAAAAAAAAAAAAAAAAAAA',
  command_id: 'k1',
  action: 'raise',
  amount: 3,
};

// The client sees these bytes (docs/protocol.md): the key order is part of the wire.
describe('client answers', () => {
  it('acks a command with a command_id at the table_seq the worker gave', () => {
    expect(JSON.stringify(clientAck(action, 42))).toBe(
      '{"type":"ack","table_id":"t1","command_id":"k1","at_table_seq":42}',
    );
    expect(clientAck({ type: 'sit_out', table_id: 't1' }, 42)).toBeNull();
    expect(clientAck({ type: 'resync_request', table_id: 't1', command_id: 'k2' }, 42)).toBeNull();
    expect(clientAck({ type: 'join_table', table_id: 't1', command_id: 'k2' }, 42)).toBeNull();
  });

  it('writes a refusal with the frame’s ids, then its details', () => {
    const refused = clientError(
      { kind: 'error', code: 'invalid_amount', message: 'that amount is not allowed', min: 4, max: 200 },
      echoOf(action),
    );
    expect(JSON.stringify(refused)).toBe(
      '{"type":"error","code":"invalid_amount","message":"that amount is not allowed","table_id":"t1",' +
        '"command_id":"k1","min":4,"max":200}',
    );
    const illegal = clientError(
      { kind: 'error', code: 'illegal_action', message: 'the rules do not allow that now', reason: 'cannot_check' },
      { table_id: 't1' },
    );
    expect(JSON.stringify(illegal)).toBe(
      '{"type":"error","code":"illegal_action","message":"the rules do not allow that now","table_id":"t1",' +
        '"reason":"cannot_check"}',
    );
  });

  it('keeps internals inside and says unavailable when no worker answered', () => {
    expect(clientError({ kind: 'error', code: 'kaboom', message: 'stack trace' }, echoOf(action))).toEqual(
      internalError(echoOf(action)),
    );
    expect(JSON.stringify(internalError({ table_id: 't1' }))).toBe(
      '{"type":"error","code":"internal","message":"internal error","table_id":"t1"}',
    );
    expect(clientError({ kind: 'unavailable', reason: 'timeout' }, echoOf(action))).toEqual({
      type: 'error',
      code: 'unavailable',
      message: 'the table is unavailable; retry shortly',
      table_id: 't1',
      command_id: 'k1',
    });
    expect(clientError({ kind: 'not_owner', ownerId: 'w', ownerAddr: 'a' }, { table_id: 't1' }).code).toBe(
      'unavailable',
    );
  });
});
