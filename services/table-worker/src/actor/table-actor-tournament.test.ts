import { describe, expect, it } from 'vitest';
import {
  parseTournamentConfig,
  tournamentTableConfig,
  type TableMoved,
  type TableState,
  type TournamentView,
} from '@felt/protocol';
import { flush, harness, TABLE, uid, type Harness } from '../../test/support/fakes.js';
import type { MoneySeed } from '../money/ports.js';
import type { TournamentOrder, TournamentReport } from '../tournament/contracts.js';
import { TableActor } from './table-actor.js';
import { TableError } from './table-error.js';

const T = '7a1d2c3b-4a5e-4f60-8a7b-9c8d7e6f5a4b';
const OTHER_TABLE = '8b1d2c3b-4a5e-4f60-8a7b-9c8d7e6f5a4b';
const A = uid(1);
const B = uid(2);
const C = uid(3);

function seed(): MoneySeed {
  const config = tournamentTableConfig(
    parseTournamentConfig({ name: 'Test SNG', format: 'sit_and_go', seats: 6, buyIn: 10, startingStack: 1_000 }),
  );
  return { roomId: TABLE, status: 'open', seatCount: 6, config, members: [], tournament: { tournamentId: T } };
}

function info(level = 1, bigBlind = 20): TournamentView {
  return {
    tournament_id: T,
    name: 'Test SNG',
    level: { number: level, small_blind: bigBlind / 2, big_blind: bigBlind, ante: 0, big_blind_ante: 0 },
    next_level: null,
    level_ends_at: null,
    break_ends_at: null,
    players_left: 3,
    entrants: 3,
    average_stack: 1_000,
    stacks: [1_000, 1_000, 1_000],
    prizes: [30],
    hand_for_hand: false,
    placed: [],
  };
}

interface Rig {
  readonly h: Harness;
  readonly actor: TableActor;
  readonly reports: TournamentReport[];
  order(o: DistributiveOmit<TournamentOrder, 'tournament_id' | 'table_id'>): ReturnType<TableActor['submit']>;
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function rig(
  players: readonly [string, number, number][] = [
    [A, 1, 1_000],
    [B, 3, 1_000],
    [C, 5, 1_000],
  ],
): Promise<Rig> {
  const h = harness();
  const reports: TournamentReport[] = [];
  const s = seed();
  h.seeds.rooms.set(TABLE, s);
  const actor = TableActor.create(TABLE, s, 0, {
    ...h.deps,
    tournamentReports: {
      report: (r) => {
        reports.push(r);
        return Promise.resolve();
      },
    },
  });
  const order: Rig['order'] = (o) =>
    actor.submit({ kind: 'tournament', order: { ...o, tournament_id: T, table_id: TABLE } });
  for (const [userId, seat, stack] of players) {
    await order({ kind: 'seat', order_id: `draw:${userId}`, user_id: userId, name: `P${seat}`, seat, stack });
    await actor.submit({ kind: 'attach', connectionId: `c-${userId}`, streamId: 's', userId });
  }
  return { h, actor, reports, order };
}

function lastState(h: Harness, user: string): TableState {
  return h.publisher
    .toUser(user)
    .filter((m): m is TableState => m.type === 'table_state')
    .at(-1)!;
}

/** Runs the clock until the table reports a hand (the clock folds or checks for everyone). */
async function playOut(r: Rig, reports: number): Promise<void> {
  for (let i = 0; i < 200 && r.reports.length < reports; i++) {
    r.h.time.advance(5_000);
    await flush();
  }
  expect(r.reports).toHaveLength(reports);
}

describe('a tournament table (the director deals, seats and removes)', () => {
  it('never deals without a deal order, deals one hand at the level it is told, and reports its end', async () => {
    const r = await rig();
    r.h.time.advance(60_000);
    await flush();
    expect(r.h.publisher.toUser(A).some((m) => m.type === 'seed_commit')).toBe(false);

    await r.order({ kind: 'deal', order_id: 'deal:1', info: info(3, 100) });
    expect(lastState(r.h, A).tournament).toEqual(info(3, 100));
    await playOut(r, 1);
    const [report] = r.reports;
    expect(report).toMatchObject({ kind: 'hand_ended', tournament_id: T, table_id: TABLE, hand_no: 1 });
    expect(report!.results.map((x) => x.user_id).sort()).toEqual([A, B, C].sort());
    const sum = (k: 'starting_stack' | 'final_stack') => report!.results.reduce((n, x) => n + x[k], 0);
    expect(sum('starting_stack')).toBe(3_000);
    expect(sum('final_stack')).toBe(3_000);
    // The level's blinds were posted: someone lost 50 or 100.
    expect(report!.results.some((x) => x.starting_stack - x.final_stack >= 50)).toBe(true);

    // One hand per deal order: the table waits again.
    r.h.time.advance(60_000);
    await flush();
    expect(r.h.publisher.toUser(A).filter((m) => m.type === 'seed_commit')).toHaveLength(1);
    // The same order again is the same answer and deals nothing more.
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info(3, 100) });
    r.h.time.advance(60_000);
    await flush();
    expect(r.h.publisher.toUser(A).filter((m) => m.type === 'seed_commit')).toHaveLength(1);
  });

  it('removes a player between hands with their exact stack, tells them where they go, and answers a repeat the same', async () => {
    const r = await rig();
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info() });
    await playOut(r, 1);
    const stackOfA = r.reports[0]!.results.find((x) => x.user_id === A)!.final_stack;

    const out = await r.order({ kind: 'remove', order_id: 'move:1:out', user_id: A, to_table_id: OTHER_TABLE });
    expect(out.order).toEqual({ stack: stackOfA });
    // Told where to go only once seated there (the director's next order).
    expect(r.h.publisher.toUser(A).some((m) => m.type === 'table_moved')).toBe(false);
    await r.order({ kind: 'told_moved', order_id: 'move:1:told', user_id: A, to_table_id: OTHER_TABLE });
    const moved = r.h.publisher.toUser(A).find((m): m is TableMoved => m.type === 'table_moved');
    expect(moved).toMatchObject({ table_id: TABLE, tournament_id: T, to_table_id: OTHER_TABLE });
    expect(r.h.publisher.toUser(B).some((m) => m.type === 'table_moved')).toBe(false);
    expect(lastState(r.h, B).seats.find((s) => s.user_id === A)).toBeUndefined();
    // A departed player sees what spectators see: no hero.
    expect(lastState(r.h, A).hero).toBeUndefined();

    const again = await r.order({ kind: 'remove', order_id: 'move:1:out', user_id: A, to_table_id: OTHER_TABLE });
    expect(again.order).toEqual({ stack: stackOfA });
    expect(r.actor.snapshot().engine.seats.some((s) => s.playerId === A)).toBe(false);
  });

  it('adds an add-on’s chips between hands only, to a seated player, once per order id', async () => {
    const r = await rig();
    const stackOf = (user: string) => r.actor.snapshot().engine.seats.find((s) => s.playerId === user)?.stack;
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info() });
    for (let i = 0; i < 100 && lastState(r.h, A).hand_id === undefined; i++) {
      r.h.time.advance(100);
      await flush();
    }
    expect(lastState(r.h, A).hand_id).toBeDefined();
    // In the middle of the hand: refused, nothing changes (the director tries again after the report).
    await expect(
      r.order({ kind: 'add_chips', order_id: `addon:${A}:1`, user_id: A, name: 'P1', seat: 1, chips: 500 }),
    ).rejects.toBeInstanceOf(TableError);
    await playOut(r, 1);
    const after = r.reports[0]!.results.find((x) => x.user_id === A)!.final_stack;
    expect(stackOf(A)).toBe(after);
    await r.order({ kind: 'add_chips', order_id: `addon:${A}:1`, user_id: A, name: 'P1', seat: 1, chips: 500 });
    await r.order({ kind: 'add_chips', order_id: `addon:${A}:1`, user_id: A, name: 'P1', seat: 1, chips: 500 });
    expect(stackOf(A)).toBe(after + 500);
    expect(lastState(r.h, B).seats.find((s) => s.user_id === A)?.stack).toBe(after + 500);
    // Another player's seat: refused.
    await expect(
      r.order({ kind: 'add_chips', order_id: `addon:${uid(9)}:1`, user_id: uid(9), name: 'P9', seat: 3, chips: 500 }),
    ).rejects.toBeInstanceOf(TableError);
    // The next hand starts from the larger stack.
    await r.order({ kind: 'deal', order_id: 'deal:2', info: info() });
    await playOut(r, 2);
    expect(r.reports[1]!.results.find((x) => x.user_id === A)!.starting_stack).toBe(after + 500);
  });

  it('applies an order only with its checkpoint: a failed save answers an error, changes nothing and publishes nothing', async () => {
    const r = await rig();
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info() });
    await playOut(r, 1);
    const stackOfA = r.reports[0]!.results.find((x) => x.user_id === A)!.final_stack;
    const seats = () => r.actor.snapshot().engine.seats.map((s) => [s.seat, s.playerId, s.stack]);
    const before = seats();
    const published = r.h.publisher.all.length;
    const saves = r.h.checkpoints.saves;

    // Redis is down: the remove is not acknowledged (the director retries it), and nobody hears of it.
    r.h.checkpoints.fail = true;
    await expect(
      r.order({ kind: 'remove', order_id: 'move:1:out', user_id: A, to_table_id: OTHER_TABLE }),
    ).rejects.toThrow();
    await expect(r.order({ kind: 'deal', order_id: 'deal:2', info: info() })).rejects.toThrow();
    expect(seats()).toEqual(before);
    expect(r.h.publisher.all.length).toBe(published);
    expect(r.h.checkpoints.saves).toBe(saves);

    // Back: the director's retry of the same order applies it once, with the stack it had.
    r.h.checkpoints.fail = false;
    expect(
      (await r.order({ kind: 'remove', order_id: 'move:1:out', user_id: A, to_table_id: OTHER_TABLE })).order,
    ).toEqual({
      stack: stackOfA,
    });
    expect(seats()).toEqual(before.filter(([, id]) => id !== A));
    expect(
      (await r.order({ kind: 'remove', order_id: 'move:1:out', user_id: A, to_table_id: OTHER_TABLE })).order,
    ).toEqual({
      stack: stackOfA,
    });
    // The table the checkpoint holds is the one the director knows: restored, A is not there either.
    const saved = (await r.h.checkpoints.load(TABLE))!;
    const restored = TableActor.restore(
      saved.checkpoint.state as Parameters<typeof TableActor.restore>[0],
      saved.events,
      r.h.seeds.rooms.get(TABLE)!,
      r.h.deps,
    );
    expect(restored.snapshot().engine.seats.map((s) => [s.seat, s.playerId, s.stack])).toEqual(seats());
  });

  it('refuses what the director may not ask and what a tournament player may not do, changing nothing', async () => {
    const r = await rig();
    const before = r.actor.snapshot();
    await expect(
      r.order({ kind: 'seat', order_id: 'x1', user_id: uid(9), name: 'Late', seat: 3, stack: 500 }),
    ).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(
      r.order({ kind: 'seat', order_id: 'x2', user_id: A, name: 'Twice', seat: 2, stack: 500 }),
    ).rejects.toBeInstanceOf(TableError);
    await expect(
      r.actor.submit({
        kind: 'tournament',
        order: { kind: 'info', order_id: 'x3', tournament_id: uid(7), table_id: TABLE, info: info() },
      }),
    ).rejects.toMatchObject({ code: 'not_allowed' });
    expect(r.actor.snapshot().engine).toEqual(before.engine);

    for (const frame of [{ type: 'sit_out' }, { type: 'leave' }, { type: 'start_hand' }] as const) {
      const out = await r.actor.submit({
        kind: 'client',
        connectionId: `c-${B}`,
        userId: B,
        frame: { ...frame, table_id: TABLE, command_id: `cmd-${frame.type}` },
      });
      expect(out.result).toMatchObject({ ok: false, code: 'not_allowed', reason: 'tournament' });
    }
    expect(r.actor.snapshot().engine).toEqual(before.engine);

    // A hand in progress: nobody is removed and no other deal is taken.
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info() });
    r.h.time.advance(1_000);
    await flush();
    await expect(r.order({ kind: 'remove', order_id: 'x4', user_id: B, to_table_id: null })).rejects.toMatchObject({
      code: 'not_allowed',
    });
  });

  it('deals again by itself when the hand it was told to deal is voided (the director still waits for a report)', async () => {
    const r = await rig();
    await r.order({ kind: 'deal', order_id: 'deal:1', info: info() });
    // After the pause and the seed window: the hand is dealt.
    r.h.time.advance(1_000);
    await flush();
    r.h.time.advance(2_000);
    await flush();
    const state = r.actor.snapshot();
    expect(state.hand).not.toBeNull();
    await r.actor.stop();
    // The next owner finds the hand unreadable: it is voided, stacks stay, and the table deals anew,
    // with nobody connected yet (a tournament never waits for its players).
    const reports: TournamentReport[] = [];
    const next = TableActor.restore({ ...state, hand: { broken: true } as never }, [], seed(), {
      ...r.h.deps,
      tournamentReports: {
        report: (x) => {
          reports.push(x);
          return Promise.resolve();
        },
      },
    });
    for (let i = 0; i < 200 && reports.length === 0; i++) {
      r.h.time.advance(5_000);
      await flush();
    }
    expect(reports).toHaveLength(1);
    expect(reports[0]!.results.reduce((n, x) => n + x.final_stack, 0)).toBe(3_000);
    await next.stop();
  });

  it('takes a busted player out of their seat after the hand, and keeps the chip total', async () => {
    // A stack short of the blinds is all-in on them every hand until it doubles past them: out soon.
    const r = await rig([
      [A, 1, 10],
      [B, 2, 2_990],
    ]);
    let hands = 0;
    while (r.actor.snapshot().engine.seats.length === 2 && hands < 40) {
      await r.order({ kind: 'deal', order_id: `deal:${++hands}`, info: info(1, 100) });
      await playOut(r, hands);
      const last = r.reports.at(-1)!;
      expect(last.results.reduce((n, x) => n + x.final_stack, 0)).toBe(3_000);
    }
    const seats = r.actor.snapshot().engine.seats;
    expect(seats).toHaveLength(1);
    const out = r.reports.at(-1)!.results.find((x) => x.final_stack === 0)!;
    expect(seats[0]!.playerId).not.toBe(out.user_id);
    expect(seats[0]!.stack).toBe(3_000);
    // The player had bought the add-on before that hand ended: it seats them again, with its chips.
    const seat = out.user_id === A ? 1 : 2;
    await r.order({ kind: 'add_chips', order_id: 'addon:x:1', user_id: out.user_id, name: 'Back', seat, chips: 700 });
    expect(r.actor.snapshot().engine.seats.find((s) => s.playerId === out.user_id)).toMatchObject({ seat, stack: 700 });
    await r.order({ kind: 'deal', order_id: `deal:${++hands}`, info: info(1, 100) });
    await playOut(r, hands);
    expect(r.reports.at(-1)!.results.find((x) => x.user_id === out.user_id)!.starting_stack).toBe(700);
  });
});
