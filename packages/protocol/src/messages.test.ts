import { describe, expect, it } from 'vitest';
import { ErrorCode } from './error-codes.js';
import { parseClientFrame, serverMessageSchema, tableStateSchema } from './messages.js';
import { stateHash } from './state-hash.js';

describe('parseClientFrame', () => {
  it('accepts each skeleton frame', () => {
    for (const f of [
      { type: 'join_table', table_id: 'b0c1a7c2-0f43-4b59-9d0e-3b8e5a2c1f00', command_id: 'c1' },
      { type: 'leave_table', table_id: 't1' },
      { type: 'resync_request', table_id: 't1', from_table_seq: 4 },
      { type: 'ping', nonce: 'n' },
    ]) {
      const r = parseClientFrame(JSON.stringify(f));
      expect(r).toEqual({ ok: true, frame: f });
    }
  });

  it('refuses malformed JSON, non-objects, unknown types and bad fields with stable codes', () => {
    expect(parseClientFrame('{"type":')).toMatchObject({ ok: false, code: ErrorCode.BAD_JSON });
    expect(parseClientFrame('[1,2]')).toMatchObject({ ok: false, code: ErrorCode.INVALID_FRAME });
    expect(parseClientFrame('{"table_id":"t"}')).toMatchObject({ ok: false, code: ErrorCode.INVALID_FRAME });
    expect(parseClientFrame('{"type":"deal_me_aces","command_id":"c9"}')).toMatchObject({
      ok: false,
      code: ErrorCode.UNKNOWN_TYPE,
      command_id: 'c9',
    });
    expect(parseClientFrame('{"type":"join_table","table_id":"../etc"}')).toMatchObject({
      ok: false,
      code: ErrorCode.INVALID_FRAME,
    });
  });

  it('refuses smuggled identity fields instead of dropping them', () => {
    const r = parseClientFrame('{"type":"join_table","table_id":"t1","user_id":"someone-else","command_id":"c2"}');
    expect(r).toMatchObject({ ok: false, code: ErrorCode.INVALID_FRAME, command_id: 'c2', table_id: 't1' });
  });
});

describe('server messages', () => {
  it('validate a table_state whose hash is computed by stateHash', () => {
    const body = {
      type: 'table_state' as const,
      table_id: 't1',
      table_seq: 3,
      ts: 1,
      seats: [
        { seat: 0, user_id: 'u1', name: 'Ann', stack: 0, status: 'active' as const },
        { seat: 1, user_id: null, name: null, stack: 0, status: 'empty' as const },
      ],
    };
    const msg = { ...body, state_hash: stateHash(body) };
    expect(tableStateSchema.parse(msg)).toEqual(msg);
    expect(serverMessageSchema.safeParse({ ...msg, seats: [{ ...msg.seats[0], status: 'asleep' }] }).success).toBe(
      false,
    );
  });
});
