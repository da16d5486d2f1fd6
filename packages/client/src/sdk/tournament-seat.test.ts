import type { LobbyTournamentDetail, TournamentView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { Emitter } from './emitter.js';
import type { FeltClient } from './felt-client.js';
import type { TableSession } from './table-session.js';
import { latestEntry, TournamentSeat } from './tournament-seat.js';

const ME = '11111111-1111-4111-8111-111111111111';
const T1 = 'a0000000-0000-4000-8000-000000000001';
const T2 = 'a0000000-0000-4000-8000-000000000002';

/** Moves the clock, then lets the lobby's answers (promises) land. */
async function tick(timers: FakeTimers, ms: number): Promise<void> {
  timers.advance(ms);
  await new Promise((r) => setImmediate(r));
}

/** A table session as the seat uses it: its events are raised by the test. */
class FakeSession {
  readonly events = new Emitter<{ moved: { to_table_id: string }; tournament: TournamentView }>();
  status = 'open';
  detached = false;
  constructor(readonly tableId: string) {}
  on(event: 'moved' | 'tournament', fn: (payload: never) => void) {
    return this.events.on(event, fn as never);
  }
  detach() {
    this.detached = true;
  }
}

type Row = LobbyTournamentDetail['players'][number];

function row(entryNo: number, status: Row['status'], tableId: string | null, place: number | null = null): Row {
  return { user_id: ME, name: 'me', entry_no: entryNo, status, place, prize: 0, table_id: tableId };
}

function rig() {
  const timers = new FakeTimers();
  const sessions: FakeSession[] = [];
  const client = {
    join: (tableId: string) => {
      const s = new FakeSession(tableId);
      sessions.push(s);
      return s as unknown as TableSession;
    },
  } as unknown as FeltClient;
  const lobby = {
    detail: { status: 'running', players: [row(1, 'playing', T1)], your_table_id: T1, can_re_enter: false } as Pick<
      LobbyTournamentDetail,
      'status' | 'players' | 'your_table_id' | 'can_re_enter'
    >,
    getTournament() {
      return Promise.resolve(this.detail as LobbyTournamentDetail);
    },
  };
  const seat = new TournamentSeat(client, lobby, 'tid', { userId: ME, pollMs: 100, checkMs: 1_000, timers });
  const events: { kind: string; payload: unknown }[] = [];
  seat.on('seated', (s) => events.push({ kind: 'seated', payload: s.tableId }));
  seat.on('out', (o) => events.push({ kind: 'out', payload: o }));
  seat.on('finished', (f) => events.push({ kind: 'finished', payload: f }));
  return { timers, sessions, lobby, seat, events };
}

function view(placed: TournamentView['placed']): TournamentView {
  return { placed } as TournamentView;
}

describe('TournamentSeat with re-entry', () => {
  it('tells an entry out once, follows the re-entry to its table, and takes only the last entry’s place', async () => {
    const r = rig();
    r.seat.start();
    await tick(r.timers, 0);
    expect(r.events).toEqual([{ kind: 'seated', payload: T1 }]);

    // Out while registration is open: no place yet, a re-entry is taken.
    r.lobby.detail = { ...r.lobby.detail, players: [row(1, 'busted', null)], your_table_id: null, can_re_enter: true };
    await tick(r.timers, 1_000);
    await tick(r.timers, 1_000);
    expect(r.events.slice(1)).toEqual([{ kind: 'out', payload: { entryNo: 1, canReEnter: true } }]);

    // Re-entered, seated at another table.
    r.lobby.detail = {
      ...r.lobby.detail,
      players: [row(1, 'busted', null), row(2, 'playing', T2)],
      your_table_id: T2,
      can_re_enter: false,
    };
    await tick(r.timers, 1_000);
    expect(r.events.at(-1)).toEqual({ kind: 'seated', payload: T2 });
    expect(r.sessions[0]!.detached).toBe(true);

    // Registration closes: the first entry's place is shown at the table; it is not this player's result.
    r.sessions[1]!.events.emit('tournament', view([{ user_id: ME, name: 'me', place: 7, prize: 0, entry_no: 1 }]));
    expect(r.seat.done).toBe(false);
    r.lobby.detail = {
      ...r.lobby.detail,
      players: [row(1, 'finished', null, 7), row(2, 'playing', T2)],
    };
    await tick(r.timers, 1_000);
    expect(r.seat.done).toBe(false);
    // The second entry is out: that is the result.
    r.sessions[1]!.events.emit(
      'tournament',
      view([
        { user_id: ME, name: 'me', place: 3, prize: 50, entry_no: 2 },
        { user_id: ME, name: 'me', place: 7, prize: 0, entry_no: 1 },
      ]),
    );
    expect(r.seat.done).toBe(true);
    expect(r.events.at(-1)).toEqual({ kind: 'finished', payload: { place: 3, prize: 50 } });
    expect(r.events.filter((e) => e.kind === 'out')).toHaveLength(1);
  });
});

describe('TournamentSeat when a table shows an entry’s place before the seat heard of its re-entry', () => {
  /** Out with re-entry open at T1, still watching it; returns the rig. */
  async function outWithReEntryOpen() {
    const r = rig();
    r.seat.start();
    await tick(r.timers, 0);
    r.lobby.detail = { ...r.lobby.detail, players: [row(1, 'busted', T1)], your_table_id: T1, can_re_enter: true };
    await tick(r.timers, 1_000);
    expect(r.events.at(-1)).toEqual({ kind: 'out', payload: { entryNo: 1, canReEnter: true } });
    return r;
  }

  it('does not finish on the first entry’s place when the lobby has a later entry: it follows that one', async () => {
    const r = await outWithReEntryOpen();
    // The player bought in again and was seated at T2; before the seat's next check, registration
    // closes and T1 shows the first entry's place.
    r.lobby.detail = {
      ...r.lobby.detail,
      players: [row(1, 'finished', null, 3), row(2, 'playing', T2)],
      your_table_id: T2,
      can_re_enter: false,
    };
    r.sessions[0]!.events.emit('tournament', view([{ user_id: ME, name: 'me', place: 3, prize: 160, entry_no: 1 }]));
    await tick(r.timers, 0);
    expect(r.seat.done).toBe(false);
    expect(r.events.filter((e) => e.kind === 'finished')).toEqual([]);
    // It follows the new entry at once (not at the next check, a second later), and takes its place only.
    await tick(r.timers, 0);
    expect(r.events.at(-1)).toEqual({ kind: 'seated', payload: T2 });
    r.sessions[1]!.events.emit('tournament', view([{ user_id: ME, name: 'me', place: 1, prize: 400, entry_no: 2 }]));
    expect(r.events.at(-1)).toEqual({ kind: 'finished', payload: { place: 1, prize: 400 } });
    expect(r.seat.done).toBe(true);
  });

  it('finishes on that place when the player did not buy in again, before the lobby has it', async () => {
    const r = await outWithReEntryOpen();
    // The lobby does not show the place yet, and there is no later entry.
    r.sessions[0]!.events.emit('tournament', view([{ user_id: ME, name: 'me', place: 3, prize: 160, entry_no: 1 }]));
    await tick(r.timers, 0);
    expect(r.events.at(-1)).toEqual({ kind: 'finished', payload: { place: 3, prize: 160 } });
    expect(r.seat.done).toBe(true);
  });

  it('asks the lobby once while the table’s views repeat that place', async () => {
    const r = await outWithReEntryOpen();
    let asked = 0;
    const answer = r.lobby.getTournament.bind(r.lobby);
    r.lobby.getTournament = () => {
      asked++;
      return answer();
    };
    const placed = view([{ user_id: ME, name: 'me', place: 3, prize: 160, entry_no: 1 }]);
    for (let i = 0; i < 3; i++) r.sessions[0]!.events.emit('tournament', placed);
    await tick(r.timers, 0);
    expect(asked).toBe(1);
    expect(r.events.filter((e) => e.kind === 'finished')).toEqual([
      { kind: 'finished', payload: { place: 3, prize: 160 } },
    ]);
  });

  it('leaves it to the next check when the lobby does not answer', async () => {
    const r = await outWithReEntryOpen();
    const answer = r.lobby.getTournament.bind(r.lobby);
    r.lobby.getTournament = () => Promise.reject(new Error('lobby away'));
    r.sessions[0]!.events.emit('tournament', view([{ user_id: ME, name: 'me', place: 3, prize: 160, entry_no: 1 }]));
    await tick(r.timers, 0);
    expect(r.seat.done).toBe(false);
    r.lobby.getTournament = answer;
    r.lobby.detail = { ...r.lobby.detail, players: [row(1, 'finished', null, 3)], your_table_id: null };
    await tick(r.timers, 0);
    expect(r.events.at(-1)).toEqual({ kind: 'finished', payload: { place: 3, prize: 0 } });
  });
});

describe('latestEntry', () => {
  const OTHER = '22222222-2222-4222-8222-222222222222';
  const entry = (user_id: string, entry_no: number) => ({ user_id, entry_no });

  it('is the player’s row with the highest entry_no, whatever the rows’ order; none when no row is theirs', () => {
    const players = [entry(ME, 2), entry(OTHER, 5), entry(ME, 3), entry(ME, 1)];
    expect(latestEntry(players, ME)).toBe(players[2]);
    expect(latestEntry(players, OTHER)).toBe(players[1]);
    expect(latestEntry([entry(OTHER, 1)], ME)).toBeUndefined();
    expect(latestEntry(players, null)).toBeUndefined();
    expect(latestEntry([], ME)).toBeUndefined();
  });
});
