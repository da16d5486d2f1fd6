// The table controller at an engine-blind table, against the SDK's real TableSession (only the
// connection is fake) and a fake blind seat (state/blind-seat.ts): the hero's cards drawn from the
// seat and again when it says they opened, Show through the seat and Muck as a fold through the
// action path, and no pre-action answering the showdown.
import { CommandRefusedError, TableSession, type FeltClient, type SessionHost } from '@felt/client';
import type { Ack, ErrorMessage, TableEvent, TableState } from '@felt/protocol';
import { describe, expect, it, vi } from 'vitest';
import { blindHand, dealingView, HAND, seat, TABLE, tableState, validActions } from '../test-support/fixtures.js';
import type { BlindAuditFailure, BlindSeat } from './blind-seat.js';
import { TableController } from './table-controller.js';
import { Toasts } from './toasts.js';

/** A blind seat whose cards and audit the test sets, telling its listeners as the SDK's would. */
class FakeBlindSeat implements BlindSeat {
  cards = new Map<string, readonly string[]>();
  failures = new Map<string, BlindAuditFailure>();
  readonly listeners = new Set<() => void>();
  show = vi.fn((_handId: string): Promise<unknown> => Promise.resolve({}));

  holeCards(handId: string): readonly string[] {
    return this.cards.get(handId) ?? [];
  }

  auditFailure(handId: string): BlindAuditFailure | null {
    return this.failures.get(handId) ?? null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The cards of `handId` opened on this device. */
  open(handId: string, cards: readonly string[]): void {
    this.cards.set(handId, cards);
    for (const l of this.listeners) l();
  }

  refuse(handId: string, failure: BlindAuditFailure): void {
    this.failures.set(handId, failure);
    for (const l of this.listeners) l();
  }
}

function harness(blindSeat: FakeBlindSeat | null, answer: (frame: Record<string, unknown>) => Promise<Ack> = ack) {
  const frames: Record<string, unknown>[] = [];
  const host: SessionHost = {
    clientSeeds: false,
    isOpen: () => true,
    sendFrame: () => true,
    sendCommand: (_tableId, frame) => {
      frames.push(frame);
      return answer(frame);
    },
    newCommandId: () => `cmd-${frames.length}`,
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
  const session = new TableSession(TABLE, host, false);
  const client = {
    join: () => session,
    connection: { state: 'open' },
    on: () => () => undefined,
  } as unknown as FeltClient;
  const toasts = new Toasts();
  const sessions: TableSession[] = [];
  const controller = new TableController(client, TABLE, false, toasts, null, null, null, (s) => {
    sessions.push(s);
    return blindSeat;
  });
  return { controller, session, frames, toasts, sessions };
}

function ack(frame: Record<string, unknown>): Promise<Ack> {
  return Promise.resolve({ type: 'ack', command_id: frame.command_id as string, table_id: TABLE } as Ack);
}

const heroCards = (c: TableController) => c.state.model!.seats.find((s) => s.isHero)!.cards.map((x) => x.code);

/** An engine-blind hand at seats 1 and 2 (the hero), with no card of the hero's in the snapshot. */
function snapshot(tableSeq: number, over: Partial<TableState> = {}): TableState {
  return tableState({
    table_seq: tableSeq,
    phase: 'betting',
    hand_id: HAND,
    hand_seq: 4,
    street: 'river',
    actor: 1,
    seats: [
      seat(1, { in_hand: true, folded: false, all_in: false, cards: [null, null] }),
      seat(2, { in_hand: true, folded: false, all_in: false, cards: [null, null] }),
    ],
    hero: { seat: 2, cards: [] },
    dealing: dealingView({ blind: blindHand({ phase: 'play', owed: { key: false, shuffle: false, positions: [] } }) }),
    ...over,
  });
}

/** The hero's turn at the blind showdown: show or muck. */
function showTurn(tableSeq: number): Extract<TableEvent, { type: 'your_turn' }> {
  return {
    type: 'your_turn',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: HAND,
    hand_seq: tableSeq,
    seat: 2,
    turn_token: `tok_${'b'.repeat(16)}${tableSeq}`,
    deadline: 1_764_400_030_000,
    time_bank_ms: 0,
    valid_actions: validActions({
      fold: true,
      check: false,
      call: null,
      raise: null,
      all_in: null,
      current_bet: 0,
      show: { cards: 2 },
    }),
  };
}

/** your_turn, then the batch's snapshot that agrees it is the hero's turn. */
function toShowdown(h: ReturnType<typeof harness>, from: number): void {
  const turn = showTurn(from);
  h.session.handle(turn, null);
  h.session.handle(
    snapshot(from + 1, {
      actor: 2,
      hero: { seat: 2, cards: [], turn_token: turn.turn_token, valid_actions: turn.valid_actions },
    }),
    null,
  );
}

describe('TableController at an engine-blind table', () => {
  it('asks the blind seat of its own session, and draws the hero’s cards from it when they open', () => {
    const blind = new FakeBlindSeat();
    const h = harness(blind);
    expect(h.sessions).toEqual([h.session]);
    h.session.handle(snapshot(10), null);
    expect(heroCards(h.controller)).toEqual([null, null]);
    // The cards open on the device between two messages of the table: the page draws them at once.
    blind.open(HAND, ['Qh', 'Jc']);
    expect(heroCards(h.controller)).toEqual(['Qh', 'Jc']);
    // And keeps them through the table's next snapshots.
    h.session.handle(snapshot(11, { actor: 1, street: 'river' }), null);
    expect(heroCards(h.controller)).toEqual(['Qh', 'Jc']);
  });

  it('warns once the device’s audit refuses a step, and stops listening when disposed', () => {
    const blind = new FakeBlindSeat();
    const h = harness(blind);
    h.session.handle(
      snapshot(10, { phase: 'dealing', dealing: dealingView({ blind: blindHand({ phase: 'shuffle', shuffler: 1 }) }) }),
      null,
    );
    expect(h.controller.state.model!.dealing!.audit).toBeNull();
    blind.refuse(HAND, { step: 'shuffle', seat: 1, detail: 'shuffle proof does not verify' });
    expect(h.controller.state.model!.dealing!.audit).toMatch(/^Your device found that the shuffle from Player1/);
    expect(blind.listeners.size).toBe(1);
    h.controller.dispose();
    expect(blind.listeners.size).toBe(0);
  });

  it('Show sends the hero’s shares through the blind seat, for the turn’s hand', async () => {
    const blind = new FakeBlindSeat();
    const h = harness(blind);
    h.session.handle(snapshot(10), null);
    // Not the hero's showdown turn: nothing to show.
    await expect(h.controller.showBlind()).resolves.toBe(false);
    toShowdown(h, 11);
    expect(h.controller.state.model!.turn!.validActions.show).toEqual({ cards: 2 });
    const shown = h.controller.showBlind();
    expect(h.controller.state.busy).toBe(true);
    await expect(shown).resolves.toBe(true);
    expect(blind.show).toHaveBeenCalledWith(HAND);
    expect(h.controller.state.busy).toBe(false);
    // No action frame: showing is the seat's blind_shares, not an action.
    expect(h.frames).toEqual([]);
  });

  it('Show refused: the refusal is told, and nothing else is sent', async () => {
    const blind = new FakeBlindSeat();
    const refusal: ErrorMessage = { type: 'error', code: 'stale_turn_token', message: 'x', table_id: TABLE };
    blind.show.mockImplementation(() => Promise.reject(new CommandRefusedError('c1', 'blind_shares', refusal)));
    const h = harness(blind);
    toShowdown(h, 10);
    await expect(h.controller.showBlind()).resolves.toBe(false);
    expect(h.toasts.store.get()).toHaveLength(1);
    expect(h.frames).toEqual([]);
  });

  it('Muck is a fold through the action path, with the turn’s token', async () => {
    const h = harness(new FakeBlindSeat());
    toShowdown(h, 10);
    await expect(h.controller.act({ action: 'fold' })).resolves.toBe(true);
    expect(h.frames).toEqual([
      expect.objectContaining({ type: 'action', hand_id: HAND, action: 'fold', turn_token: showTurn(10).turn_token }),
    ]);
  });

  it('a Check/Fold chosen on the river does not muck the hand at the showdown', () => {
    const blind = new FakeBlindSeat();
    const h = harness(blind);
    h.session.handle(snapshot(10), null);
    h.controller.togglePreAction('check_fold');
    expect(h.controller.state.preAction?.kind).toBe('check_fold');
    toShowdown(h, 11);
    expect(h.frames).toEqual([]);
    expect(h.controller.state.preAction).toBeNull();
  });

  it('without a blind seat (no SDK seat yet), Show says why and sends nothing', async () => {
    const h = harness(null);
    toShowdown(h, 10);
    expect(heroCards(h.controller)).toEqual([null, null]);
    await expect(h.controller.showBlind()).resolves.toBe(false);
    expect(h.toasts.store.get().map((t) => t.text)).toEqual([
      'This browser is not taking part in the engine-blind deal, so it cannot show your cards.',
    ]);
    expect(h.frames).toEqual([]);
  });
});
