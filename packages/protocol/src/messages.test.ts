import { describe, expect, it } from 'vitest';
import { ErrorCode } from './error-codes.js';
import {
  CLIENT_FRAME_TYPES,
  clientFrameSchema,
  isTableCommandFrame,
  parseClientFrame,
  resyncResponseSchema,
  serverMessageSchema,
  TABLE_COMMAND_TYPES,
  tableEventSchema,
  tableStateSchema,
  type TableState,
} from './messages.js';
import { stateHash } from './state-hash.js';

const T = 'b0c1a7c2-0f43-4b59-9d0e-3b8e5a2c1f00';
const H = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const TOKEN = 'tok_AbCdEfGhIjKlMnOp';

const FRAMES = [
  { type: 'join_table', table_id: T, command_id: 'c1' },
  { type: 'join_table', table_id: T, spectate: true },
  { type: 'leave_table', table_id: 't1' },
  { type: 'sit_in', table_id: T, command_id: 'c2', post: true },
  { type: 'sit_out', table_id: T },
  { type: 'leave', table_id: T, command_id: 'c3' },
  { type: 'start_hand', table_id: T, command_id: 'c4' },
  { type: 'action', table_id: T, hand_id: H, turn_token: TOKEN, command_id: 'c5', action: 'raise', amount: 40 },
  { type: 'action', table_id: T, hand_id: H, turn_token: TOKEN, command_id: 'c6', action: 'discard', cards: ['2c'] },
  { type: 'client_seed', table_id: T, hand_id: H, seed: 'ab'.repeat(32) },
  { type: 'show_cards', table_id: T, hand_id: H },
  { type: 'resync_request', table_id: 't1', from_table_seq: 4 },
  { type: 'chat', table_id: T, text: 'gl hf', command_id: 'c10' },
  { type: 'blind_key', table_id: T, hand_id: H, proof: { Y: 'ab'.repeat(32), c: 'cd'.repeat(32), s: 'ef'.repeat(32) } },
  {
    type: 'blind_shuffle',
    table_id: T,
    hand_id: H,
    command_id: 'c12',
    output: [
      { c1: 'ab'.repeat(32), c2: 'cd'.repeat(32) },
      { c1: 'ef'.repeat(32), c2: '01'.repeat(32) },
    ],
    proof: { openings: [{ seed: '23'.repeat(32) }, { perm: [1, 0], rand: ['45'.repeat(32), '67'.repeat(32)] }] },
  },
  {
    type: 'blind_shares',
    table_id: T,
    hand_id: H,
    shares: [{ position: 3, D: 'ab'.repeat(32), c: '0'.repeat(64), s: 'f'.repeat(64) }],
  },
  { type: 'ping', nonce: 'n' },
  { type: 'lobby_subscribe' },
  { type: 'lobby_unsubscribe' },
];

describe('parseClientFrame', () => {
  it('accepts every V2 frame', () => {
    for (const f of FRAMES) expect(parseClientFrame(JSON.stringify(f))).toEqual({ ok: true, frame: f });
    expect(new Set(FRAMES.map((f) => f.type))).toEqual(new Set(CLIENT_FRAME_TYPES));
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
    const seat = { type: 'action', table_id: T, hand_id: H, turn_token: TOKEN, command_id: 'c7', action: 'fold' };
    expect(parseClientFrame(JSON.stringify({ ...seat, seat: 3 }))).toMatchObject({ ok: false, command_id: 'c7' });
  });

  it('an action needs hand_id, turn_token and command_id, and a seed is 32 bytes of lowercase hex', () => {
    const action = { type: 'action', table_id: T, hand_id: H, turn_token: TOKEN, command_id: 'c8', action: 'check' };
    expect(parseClientFrame(JSON.stringify(action)).ok).toBe(true);
    for (const k of ['hand_id', 'turn_token', 'command_id'] as const) {
      const { [k]: _drop, ...rest } = action;
      expect(parseClientFrame(JSON.stringify(rest)), k).toMatchObject({ ok: false, code: ErrorCode.INVALID_FRAME });
    }
    expect(parseClientFrame(JSON.stringify({ ...action, hand_id: H.toUpperCase() })).ok).toBe(false);
    expect(parseClientFrame(JSON.stringify({ ...action, action: 'steal_pot' })).ok).toBe(false);
    expect(parseClientFrame(JSON.stringify({ ...action, amount: 2.5 })).ok).toBe(false);
    expect(parseClientFrame(JSON.stringify({ ...action, amount: -1 })).ok).toBe(false);
    const seed = { type: 'client_seed', table_id: T, hand_id: H, seed: 'AB'.repeat(32) };
    expect(parseClientFrame(JSON.stringify(seed)).ok).toBe(false);
    expect(parseClientFrame(JSON.stringify({ ...seed, seed: 'ab'.repeat(31) })).ok).toBe(false);
  });

  it('answers a chat text the rules refuse with its typed code, echoing the frame’s ids', () => {
    const chat = (text: string) => JSON.stringify({ type: 'chat', table_id: T, text, command_id: 'c11' });
    expect(parseClientFrame(chat('x'.repeat(201)))).toMatchObject({
      ok: false,
      code: ErrorCode.MESSAGE_TOO_LONG,
      command_id: 'c11',
      table_id: T,
    });
    expect(parseClientFrame(chat('  '))).toMatchObject({ ok: false, code: ErrorCode.MESSAGE_INVALID });
    expect(parseClientFrame(chat('one\ntwo'))).toMatchObject({ ok: false, code: ErrorCode.MESSAGE_INVALID });
    expect(parseClientFrame(chat('x'.repeat(5_000)))).toMatchObject({ ok: false, code: ErrorCode.MESSAGE_TOO_LONG });
    expect(parseClientFrame(JSON.stringify({ type: 'chat', table_id: T, text: 'hi', seat: 1 }))).toMatchObject({
      ok: false,
      code: ErrorCode.INVALID_FRAME,
    });
  });

  it('splits frames into gateway-handled ones and table commands', () => {
    const commands = FRAMES.map((f) => clientFrameSchema.parse(f)).filter(isTableCommandFrame);
    expect(new Set(commands.map((f) => f.type))).toEqual(new Set(TABLE_COMMAND_TYPES));
  });
});

function snapshot(overrides: Partial<TableState> = {}): TableState {
  const body = {
    type: 'table_state' as const,
    table_id: T,
    table_seq: 7,
    prev_table_seq: 5,
    hand_id: H,
    hand_seq: 12,
    ts: 1,
    game: 'holdem',
    variant: {
      game: 'holdem',
      limit: 'nl' as const,
      stakes: {
        small_blind: 1,
        big_blind: 2,
        ante: 0,
        big_blind_ante: 0,
        button_blind: 0,
        bring_in: 0,
        small_bet: 2,
        big_bet: 4,
      },
    },
    phase: 'betting' as const,
    street: 'flop',
    button: 1,
    small_blind: 1,
    big_blind: 2,
    seats: [
      {
        seat: 1,
        user_id: 'u1',
        name: 'Zoë 中 🂡',
        stack: 96,
        status: 'active' as const,
        in_hand: true,
        folded: false,
        all_in: false,
        bet: 0,
        cards: ['As', 'Kd'],
        up: [false, false],
        time_bank_ms: 60_000,
      },
      {
        seat: 2,
        user_id: 'u2',
        name: 'Bob',
        stack: 96,
        status: 'disconnected' as const,
        in_hand: true,
        folded: false,
        all_in: false,
        bet: 0,
        cards: [null, null],
        up: [false, false],
        time_bank_ms: 60_000,
      },
      { seat: 3, user_id: null, name: null, stack: 0, status: 'empty' as const, in_hand: false, bet: 0 },
    ],
    board: ['2c', '7d', 'Th'],
    pots: [{ amount: 8, eligible: [1, 2] }],
    pot_total: 8,
    current_bet: 0,
    actor: 1,
    deadline: 1_764_400_030_000,
    time_bank_ms: 60_000,
    seed_commit: 'sha256:' + 'ab'.repeat(32),
    hero: {
      seat: 1,
      cards: ['As', 'Kd'],
      turn_token: TOKEN,
      valid_actions: {
        fold: false,
        check: true,
        call: null,
        bet: { min: 2, max: 96 },
        raise: null,
        all_in: 96,
        bring_in: null,
        complete: null,
        discard: null,
        current_bet: 0,
        player_bet: 0,
        stack: 96,
        pot: 8,
      },
    },
    ...overrides,
  };
  const { state_hash: _h, ...rest } = body as typeof body & { state_hash?: string };
  return { ...rest, state_hash: stateHash(rest) };
}

describe('server messages', () => {
  it('validate a V2 table_state whose hash is computed by stateHash', () => {
    const msg = snapshot();
    expect(tableStateSchema.parse(msg)).toEqual(msg);
    expect(serverMessageSchema.parse(msg)).toEqual(msg);
    const seat0 = msg.seats[0]!;
    expect(
      tableStateSchema.safeParse({ ...msg, seats: [{ ...seat0, status: 'asleep' }, ...msg.seats.slice(1)] }).success,
    ).toBe(false);
    // Hidden cards are null, never a made-up value.
    expect(tableStateSchema.safeParse({ ...msg, seats: [{ ...seat0, cards: ['??', 'Kd'] }] }).success).toBe(false);
  });

  it('the hash ignores ts, table_seq and hand_seq but covers what the recipient sees', () => {
    const a = snapshot();
    expect(snapshot({ ts: 99, table_seq: 100, hand_seq: 50 }).state_hash).toBe(a.state_hash);
    expect(snapshot({ actor: 2 }).state_hash).not.toBe(a.state_hash);
    expect(snapshot({ hero: undefined }).state_hash).not.toBe(a.state_hash);
  });

  it('every event of the stream is a server message and can be replayed in a resync_response', () => {
    const events = [
      {
        type: 'seed_commit',
        table_id: T,
        table_seq: 3,
        prev_table_seq: 2,
        hand_id: H,
        hand_seq: 0,
        seed_commit: 'sha256:' + '0'.repeat(64),
        window_closes_at: 10,
        seats: [1, 2],
      },
      {
        type: 'player_action',
        table_id: T,
        table_seq: 9,
        hand_id: H,
        hand_seq: 8,
        seat: 2,
        action: 'fold',
        amount: 0,
        all_in: false,
        timeout: true,
      },
      {
        type: 'hole_cards_dealt',
        table_id: T,
        table_seq: 4,
        hand_id: H,
        hand_seq: 5,
        seat: 1,
        street: 'third',
        cards: ['As', 'Kd', '7h'],
        up: [false, false, true],
      },
    ];
    for (const e of events) {
      expect(tableEventSchema.parse(e)).toEqual(e);
      expect(serverMessageSchema.parse(e)).toEqual(e);
    }
    const response = {
      type: 'resync_response',
      table_id: T,
      table_seq: 7,
      role: 'player',
      from_table_seq: 2,
      to_table_seq: 7,
      complete: true,
      replayed_events: events,
      snapshot: snapshot(),
    };
    expect(resyncResponseSchema.parse(response)).toEqual(response);
    expect(
      resyncResponseSchema.safeParse({ ...response, replayed_events: [{ ...snapshot(), type: 'table_state' }] })
        .success,
    ).toBe(false);
  });

  it('hand_voided names its reason and the stacks returned, and a resync replays it', () => {
    const voided = {
      type: 'hand_voided',
      table_id: T,
      table_seq: 12,
      prev_table_seq: 11,
      hand_id: H,
      hand_seq: 0,
      reason: 'checkpoint_lost',
      stacks: [
        { seat: 1, stack: 200 },
        { seat: 3, stack: 180 },
      ],
    };
    expect(serverMessageSchema.parse(voided)).toEqual(voided);
    expect(tableEventSchema.parse(voided)).toEqual(voided);
    expect(serverMessageSchema.safeParse({ ...voided, reason: 'bored' }).success).toBe(false);
    expect(serverMessageSchema.safeParse({ ...voided, stacks: [{ seat: 1, stack: -5 }] }).success).toBe(false);
    const { hand_id: _h, ...noHand } = voided;
    expect(serverMessageSchema.safeParse(noHand).success).toBe(false);
  });

  it('an ack carries no table_seq, so it can never move a receive watermark', () => {
    const ack = { type: 'ack', table_id: T, command_id: 'c5', at_table_seq: 40 };
    expect(serverMessageSchema.parse(ack)).toEqual(ack);
    expect(serverMessageSchema.safeParse({ ...ack, table_seq: 40 }).success).toBe(false);
  });

  it('errors carry the rule and range of a refused action', () => {
    const err = { type: 'error', code: 'invalid_amount', message: 'm', command_id: 'c', min: 4, max: 96 };
    expect(serverMessageSchema.parse(err)).toEqual(err);
    expect(serverMessageSchema.safeParse({ ...err, code: 'oops' }).success).toBe(false);
  });
});
