import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommandRefusedError, TableSession, type SessionHost } from '@felt/client';
import type { Ack, TableState, ValidActionsView } from '@felt/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoadBot, actionErrorKind, type AckedAction } from './load-bot.js';

// The bot against a real SDK TableSession fed with recorded table_state snapshots (the protocol's
// holdem fixture), through a host that captures the commands instead of a socket.

const fixture = JSON.parse(
  readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '../../packages/protocol/fixtures/holdem-nl.json'),
    'utf8',
  ),
) as { recipients: { role: string; messages: Record<string, unknown>[] }[] };

/** A snapshot in which it is the hero's turn. */
const turnState = fixture.recipients
  .filter((r) => r.role === 'player')
  .flatMap((r) => r.messages)
  .find(
    (m) => m.type === 'table_state' && (m.hero as { turn_token?: string } | undefined)?.turn_token !== undefined,
  ) as TableState | undefined;
if (!turnState) throw new Error('the fixture has no turn');
const tableId = turnState.table_id;
const heroSeat = turnState.hero!.seat;

/** The snapshot after it, with the hero's own seat changed and no turn. */
function laterState(seq: number, seat: Partial<TableState['seats'][number]>): TableState {
  const { turn_token: _t, valid_actions: _v, ...hero } = turnState!.hero!;
  return {
    ...turnState!,
    table_seq: seq,
    actor: null,
    hero,
    seats: turnState!.seats.map((s) => (s.seat === heroSeat ? { ...s, ...seat } : s)),
  };
}

interface Sent {
  readonly frame: Record<string, unknown>;
  settle(outcome: Ack | Error): void;
}

function harness(): { host: SessionHost; sent: Sent[] } {
  const sent: Sent[] = [];
  const host: SessionHost = {
    clientSeeds: false,
    isOpen: () => true,
    sendFrame: () => true,
    sendCommand: (_table, frame) =>
      new Promise<Ack>((resolve, reject) => {
        sent.push({ frame, settle: (o) => (o instanceof Error ? reject(o) : resolve(o)) });
      }),
    newCommandId: () => 'c',
    randomBytes: (n) => new Uint8Array(n),
    noteResync: () => undefined,
    noteAnomaly: () => undefined,
    noteLoss: () => undefined,
    noteFairness: () => undefined,
    noteClientSeed: () => undefined,
    later: () => () => undefined,
    now: () => 0,
    silenceMs: 0,
  };
  return { host, sent };
}

const ack = (seq: number): Ack => ({ type: 'ack', table_id: tableId, command_id: 'c', at_table_seq: seq });

function bot(
  session: TableSession,
  overrides: Partial<ConstructorParameters<typeof LoadBot>[1]> = {},
): { bot: LoadBot; acked: AckedAction[]; errors: string[]; rebuys: number[] } {
  const acked: AckedAction[] = [];
  const errors: string[] = [];
  const rebuys: number[] = [];
  let clock = 0;
  const b = new LoadBot(session, {
    random: () => 0.5,
    think: { minMs: 0, maxMs: 0 },
    now: () => (clock += 5),
    measuring: () => true,
    onAck: (a) => acked.push(a),
    onError: (kind) => errors.push(kind),
    rebuy: () => {
      rebuys.push(rebuys.length);
      return Promise.resolve();
    },
    ...overrides,
  });
  return { bot: b, acked, errors, rebuys };
}

function joined(host: SessionHost): TableSession {
  const session = new TableSession(tableId, host, false);
  session.attach(false);
  return session;
}

describe('LoadBot', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the turn with a legal action for its hand and token, and reports the ack with its send time', async () => {
    const { host, sent } = harness();
    const session = joined(host);
    const { acked } = bot(session);
    session.handle(turnState, null);
    expect(sent).toHaveLength(1);
    const frame = sent[0]!.frame;
    expect(frame).toMatchObject({ type: 'action', hand_id: turnState.hand_id, turn_token: turnState.hero!.turn_token });
    const valid = turnState.hero!.valid_actions as ValidActionsView;
    expect(['fold', 'check', 'call', 'bet', 'raise', 'all_in']).toContain(frame.action);
    if (frame.action === 'call') expect(valid.call).not.toBeNull();
    if (frame.action === 'check') expect(valid.check).toBe(true);
    sent[0]!.settle(ack(turnState.table_seq + 3));
    await vi.runAllTimersAsync();
    expect(acked).toEqual([{ ack: ack(turnState.table_seq + 3), sentAt: 5, ackedAt: 10, measured: true }]);
  });

  it('thinks for a time within the range first, and skips a turn that ended meanwhile', async () => {
    const { host, sent } = harness();
    const session = joined(host);
    bot(session, { think: { minMs: 1000, maxMs: 3000 } });
    session.handle(turnState, null);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2001);
    expect(sent).toHaveLength(1);

    // A second session: the turn is over (the next snapshot has none) before the think ends.
    const other = harness();
    const s2 = joined(other.host);
    bot(s2, { think: { minMs: 1000, maxMs: 3000 } });
    s2.handle(turnState, null);
    s2.handle(laterState(turnState.table_seq + 1, {}), null);
    await vi.advanceTimersByTimeAsync(3000);
    expect(other.sent).toHaveLength(0);
  });

  it('reports a refused action under its code', async () => {
    const { host, sent } = harness();
    const session = joined(host);
    const { errors, acked } = bot(session);
    session.handle(turnState, null);
    sent[0]!.settle(
      new CommandRefusedError('c', 'action', { type: 'error', code: 'not_your_turn', message: 'no', command_id: 'c' }),
    );
    await vi.runAllTimersAsync();
    expect(errors).toEqual(['action_refused_not_your_turn']);
    expect(acked).toEqual([]);
  });

  it('rebuys once when busted between hands, then sits back in when the chips are there', () => {
    const { host, sent } = harness();
    const session = joined(host);
    const { rebuys } = bot(session);
    const bare = { in_hand: false, folded: undefined, all_in: undefined, cards: undefined, up: undefined };
    session.handle(laterState(100, { ...bare, stack: 0, status: 'sitting_out' }), null);
    session.handle(laterState(101, { ...bare, stack: 0, status: 'sitting_out' }), null);
    expect(rebuys).toHaveLength(1);
    expect(sent).toHaveLength(0);
    session.handle(laterState(102, { ...bare, stack: 100, status: 'sitting_out' }), null);
    expect(sent.map((s) => s.frame)).toEqual([{ type: 'sit_in', post: true }]);
    // All-in in a hand (no chips behind, but dealt in) is not busted.
    const other = harness();
    const s2 = joined(other.host);
    const b2 = bot(s2);
    s2.handle(laterState(100, { stack: 0, in_hand: true, all_in: true }), null);
    expect(b2.rebuys).toHaveLength(0);
  });

  it('stop() waits for the actions in flight, and no new turn is answered', async () => {
    const { host, sent } = harness();
    const session = joined(host);
    const { bot: b } = bot(session);
    session.handle(turnState, null);
    expect(b.pending).toBe(1);
    let stopped = false;
    const done = b.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    sent[0]!.settle(ack(turnState.table_seq + 1));
    await done;
    expect(b.pending).toBe(0);
    const nextTurn: TableState = {
      ...turnState,
      table_seq: turnState.table_seq + 10,
      hero: { ...turnState.hero!, turn_token: 'another_turn_token_0001' },
    };
    session.handle(nextTurn, null);
    expect(session.turn?.turnToken).toBe('another_turn_token_0001');
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
  });

  it('labels what ended an action without an ack', () => {
    expect(actionErrorKind(new Error('x'))).toBe('action_unexpected');
  });
});
