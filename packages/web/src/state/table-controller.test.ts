// The table controller's pre-actions against a fake SDK session: the choice is kept or cleared by
// each snapshot and sent through act() (the clicked actions' path) once the turn's snapshot is in.
import {
  BlindSeat,
  initialTableView,
  reduceTable,
  type Decision,
  type FeltClient,
  type TableSession,
  type TableView,
} from '@felt/client';
import type { TableEvent, TableState } from '@felt/protocol';
import { describe, expect, it, vi } from 'vitest';
import { HAND, seat, TABLE, tableState, validActions } from '../test-support/fixtures.js';
import type { SoundPlayer } from './sound.js';
import { TableController } from './table-controller.js';
import { Toasts } from './toasts.js';

type Listener = (payload: unknown) => void;

/** A tab's sessionStorage, as a map. */
function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

function harness(storage: ReturnType<typeof memoryStorage> | null = null, sound: SoundPlayer | null = null) {
  const listeners = new Map<string, Listener[]>();
  const sent: Decision[] = [];
  let view: TableView = initialTableView(TABLE, 'player');
  const session = {
    get view() {
      return view;
    },
    status: 'joined',
    on(event: string, fn: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return () => undefined;
    },
    act: vi.fn((d: Decision) => {
      sent.push(d);
      return Promise.resolve({});
    }),
    fairness: () => undefined,
    chatLog: () => [],
    detach: () => undefined,
    // The SDK's own blind seat: it sends nothing at a table that deals standard.
    blind: new BlindSeat(TABLE, { send: () => Promise.reject(new Error('no blind hand here')) }),
  };
  const client = {
    join: () => session as unknown as TableSession,
    connection: { state: 'open' },
    on: () => () => undefined,
  } as unknown as FeltClient;
  const controller = new TableController(client, TABLE, false, new Toasts(), storage, sound);
  let seq = 10;
  const feed = (m: TableState | TableEvent): void => {
    view = reduceTable(view, { ...m, table_seq: ++seq }).view;
    for (const fn of listeners.get('view') ?? []) fn(view);
  };
  /** A message as the session passes it on before reducing it (turn_warning is only seen here). */
  const message = (m: TableEvent): void => {
    for (const fn of listeners.get('message') ?? []) fn(m);
  };
  return { controller, sent, feed, message, nextSeq: () => seq + 1 };
}

/** Seat 1 (villain) and seat 2 (hero) in a hold'em hand. */
function snapshot(
  o: { street?: string; currentBet?: number; heroBet?: number; turn?: TableEvent & { type: 'your_turn' } } = {},
): TableState {
  const currentBet = o.currentBet ?? 0;
  const turn = o.turn;
  return tableState({
    phase: 'betting',
    hand_id: HAND,
    hand_seq: 1,
    street: o.street ?? 'flop',
    current_bet: currentBet,
    actor: turn !== undefined ? 2 : 1,
    seats: [
      seat(1, { in_hand: true, folded: false, all_in: false, bet: currentBet }),
      seat(2, { in_hand: true, folded: false, all_in: false, bet: o.heroBet ?? 0 }),
    ],
    // While the hero acts, the snapshot's hero carries the turn's token and valid actions.
    hero: {
      seat: 2,
      cards: ['Ah', 'Kd'],
      ...(turn !== undefined ? { turn_token: turn.turn_token, valid_actions: turn.valid_actions } : {}),
    },
  });
}

function yourTurn(seq: number, va = validActions()): TableEvent & { type: 'your_turn' } {
  return {
    type: 'your_turn',
    table_id: TABLE,
    table_seq: seq,
    hand_id: HAND,
    hand_seq: seq,
    seat: 2,
    turn_token: `tok_${'a'.repeat(16)}${seq}`,
    deadline: 1_764_400_030_000,
    time_bank_ms: 30_000,
    valid_actions: va,
  };
}

describe('TableController pre-actions', () => {
  it('sends Check/Fold as a fold when a bet comes, once the turn’s snapshot is in, and clears it', () => {
    const h = harness();
    h.feed(snapshot());
    h.controller.togglePreAction('check_fold');
    expect(h.controller.state.preAction?.kind).toBe('check_fold');
    // The villain bets: your_turn first, then the batch's snapshot.
    const turn = yourTurn(h.nextSeq(), validActions({ call: 40, current_bet: 40 }));
    h.feed(turn);
    expect(h.sent).toEqual([]);
    h.feed(snapshot({ currentBet: 40, turn }));
    expect(h.sent).toEqual([{ action: 'fold' }]);
    expect(h.controller.state.preAction).toBeNull();
  });

  it('clears Check when a bet appears, so the turn sends nothing', () => {
    const h = harness();
    h.feed(snapshot());
    h.controller.togglePreAction('check');
    h.feed(snapshot({ currentBet: 40 }));
    expect(h.controller.state.preAction).toBeNull();
    const turn = yourTurn(h.nextSeq(), validActions({ call: 40, current_bet: 40 }));
    h.feed(turn);
    h.feed(snapshot({ currentBet: 40, turn }));
    expect(h.sent).toEqual([]);
  });

  it('keeps Call any through a raise and calls', () => {
    const h = harness();
    h.feed(snapshot({ currentBet: 40 }));
    h.controller.togglePreAction('call_any');
    h.feed(snapshot({ currentBet: 120 }));
    const turn = yourTurn(h.nextSeq(), validActions({ call: 120, current_bet: 120 }));
    h.feed(turn);
    h.feed(snapshot({ currentBet: 120, turn }));
    expect(h.sent).toEqual([{ action: 'call' }]);
  });

  it('does not carry a choice into the next street', () => {
    const h = harness();
    h.feed(snapshot());
    h.controller.togglePreAction('call_any');
    const turn = yourTurn(h.nextSeq(), validActions({ fold: false, check: true, call: null, current_bet: 0 }));
    h.feed(turn);
    h.feed(snapshot({ street: 'turn', turn }));
    expect(h.sent).toEqual([]);
    expect(h.controller.state.preAction).toBeNull();
  });

  it('ignores a choice during the hero’s own turn', () => {
    const h = harness();
    const turn = yourTurn(h.nextSeq());
    h.feed(turn);
    h.feed(snapshot({ currentBet: 20, turn }));
    h.controller.togglePreAction('call_any');
    expect(h.controller.state.preAction).toBeNull();
  });
});

/** The hand's result: seat 2 (the hero) takes `won` from the pot and nets `net`. */
function handResult(seq: number, handId: string, won: number, net: number): TableEvent {
  return {
    type: 'hand_result',
    table_id: TABLE,
    table_seq: seq,
    hand_id: handId,
    hand_seq: seq,
    pots: [
      {
        index: 0,
        amount: Math.max(won, 40),
        rake: 0,
        eligible: [1, 2],
        winners: won > 0 ? [{ seat: 2, amount: won, side: 'high' }] : [{ seat: 1, amount: 40, side: 'high' }],
      },
    ],
    uncalled: [],
    rake: 0,
    players: [
      { seat: 1, net: -net, stack: 1_000 - net },
      { seat: 2, net, stack: 1_000 + net },
    ],
    hands: [],
  };
}

describe('TableController session summary', () => {
  it('adds each settled hand once, and keeps the summary in the tab for the next time the table opens', () => {
    const storage = memoryStorage();
    const h = harness(storage);
    h.feed(snapshot());
    h.feed(handResult(h.nextSeq(), HAND, 200, 100));
    // Later snapshots of the same finished hand change nothing.
    h.feed(snapshot());
    expect(h.controller.state.summary).toMatchObject({ hands: 1, net: 100, biggestPot: 200 });
    h.feed(snapshot());
    h.feed(handResult(h.nextSeq(), 'hand-2', 0, -20));
    expect(h.controller.state.summary).toMatchObject({ hands: 2, net: 80, biggestPot: 200 });

    const again = harness(storage);
    expect(again.controller.state.summary).toMatchObject({ hands: 2, net: 80, biggestPot: 200 });
    // The same result seen again after the reload is not counted twice.
    again.feed(snapshot());
    again.feed(handResult(again.nextSeq(), 'hand-2', 0, -20));
    expect(again.controller.state.summary.hands).toBe(2);
  });

  it('starts empty, and works without storage', () => {
    const h = harness(null);
    expect(h.controller.state.summary).toMatchObject({ hands: 0, net: 0, biggestPot: 0 });
    h.feed(snapshot());
    h.feed(handResult(h.nextSeq(), HAND, 60, 30));
    expect(h.controller.state.summary).toMatchObject({ hands: 1, net: 30, biggestPot: 60 });
  });
});

describe('TableController sound cues', () => {
  const recorder = () => {
    const played: string[] = [];
    return { played, play: (cue: string) => void played.push(cue) } as SoundPlayer & { played: string[] };
  };
  const warning = (seat: number, expiresAt: number): TableEvent => ({
    type: 'turn_warning',
    table_id: TABLE,
    table_seq: 0,
    hand_id: HAND,
    hand_seq: 1,
    seat,
    expires_at: expiresAt,
  });

  it('sounds once when the turn’s snapshot is in, not for the turn’s later snapshots', () => {
    const sound = recorder();
    const h = harness(null, sound);
    h.feed(snapshot());
    expect(sound.played).toEqual([]);
    const turn = yourTurn(h.nextSeq(), validActions({ call: 40, current_bet: 40 }));
    h.feed(turn);
    // your_turn comes before its batch's snapshot: the cue waits for the snapshot that agrees.
    expect(sound.played).toEqual([]);
    h.feed(snapshot({ currentBet: 40, turn }));
    h.feed(snapshot({ currentBet: 40, turn }));
    expect(sound.played).toEqual(['turn']);
  });

  it('stays quiet for a turn a pre-action answers', () => {
    const sound = recorder();
    const h = harness(null, sound);
    h.feed(snapshot());
    h.controller.togglePreAction('check_fold');
    const turn = yourTurn(h.nextSeq(), validActions({ call: 40, current_bet: 40 }));
    h.feed(turn);
    h.feed(snapshot({ currentBet: 40, turn }));
    expect(h.sent).toEqual([{ action: 'fold' }]);
    expect(sound.played).toEqual([]);
  });

  it('sounds the warning for the hero’s seat only, once per warning', () => {
    const sound = recorder();
    const h = harness(null, sound);
    h.feed(snapshot());
    h.message(warning(1, 1_764_400_020_000));
    expect(sound.played).toEqual([]);
    h.message(warning(2, 1_764_400_030_000));
    h.message(warning(2, 1_764_400_030_000));
    expect(sound.played).toEqual(['warning']);
  });
});
