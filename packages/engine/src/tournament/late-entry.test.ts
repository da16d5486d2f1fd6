import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomInt, SeededRng, type Rng } from '../rng.js';
import {
  addOn,
  chipsHeld,
  closeRegistration,
  directorSeating,
  lateEntry,
  raisePrizes,
  setBreak,
  startDirector,
  tableHandEnded,
  upgradeDirectorState,
  type DirectorCommand,
  type DirectorState,
  type DirectorStep,
  type HandEndedReport,
  type StoredDirectorState,
} from './director.js';
import { TournamentErrorCode } from './errors.js';
import { placePrizes, type SimultaneousBustRule } from './payouts.js';
import { seatingIssues } from './seating.js';

const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

function open(n: number, maxSeats: number, seed = 'late', rule: SimultaneousBustRule = 'starting_stack'): DirectorStep {
  return startDirector(
    players(n),
    { maxSeats, startingStack: 1_000, prizes: [], rule, registrationOpen: true },
    new SeededRng(seed),
  );
}

const seatedAt = (state: DirectorState, table: number) =>
  Object.entries(state.players)
    .filter(([, p]) => p.table === table)
    .map(([id]) => id);

/** The next hand at `table`, everyone seated there dealt in, stacks as in `finals` (else unchanged). */
function hand(state: DirectorState, table: number, finals: Record<string, number> = {}): HandEndedReport {
  const t = state.tables.find((x) => x.table === table)!;
  return {
    table,
    handNo: t.lastHandNo + 1,
    button: t.button,
    results: seatedAt(state, table).map((player) => {
      const startingStack = state.players[player]!.chips;
      return { player, startingStack, finalStack: finals[player] ?? startingStack };
    }),
  };
}

/** A hand at the table of `losers` in which they lose everything to `winner`. */
function bust(state: DirectorState, winner: string, ...losers: string[]): DirectorStep {
  const table = state.players[winner]!.table!;
  const won = losers.reduce((n, l) => n + state.players[l]!.chips, state.players[winner]!.chips);
  const finals: Record<string, number> = { [winner]: won };
  for (const l of losers) finals[l] = 0;
  return tableHandEnded(state, hand(state, table, finals), new SeededRng(`bust:${winner}`));
}

type Award = Extract<DirectorCommand, { kind: 'award' }>;
const isAward = (c: DirectorCommand): c is Award => c.kind === 'award';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

describe('late registration, re-entry and add-ons', () => {
  it('seats a late entry at the open table with the fewest players, from nowhere with its stack', () => {
    // 5 players at tables of 3: one table of 3 and one of 2.
    const { state } = open(5, 3);
    const smaller = state.tables.find((t) => seatedAt(state, t.table).length === 2)!.table;
    const step = lateEntry(state, 'late', { stack: 1_500, entryNo: 1 }, new SeededRng('e'));
    const move = step.commands.find((c) => c.kind === 'move')!;
    expect(move).toMatchObject({ moveId: 'entry:late:1', player: 'late', from: null, stack: 1_500 });
    expect(move.kind === 'move' && move.to.table).toBe(smaller);
    expect(step.state.players.late).toMatchObject({ table: smaller, chips: 1_500, entryNo: 1, place: null });
    expect(step.state.chipsInPlay).toBe(5 * 1_000 + 1_500);
    expect(step.state.remaining).toBe(6);
    expect(chipsHeld(step.state)).toBe(step.state.chipsInPlay);
    expect(seatingIssues(directorSeating(step.state), 3)).toEqual([]);
    // Both tables are in a hand: nothing is dealt, nobody moves.
    expect(step.commands).toHaveLength(1);
    expect(state.players.late).toBeUndefined();
  });

  it('opens a new table when every table is full, and deals it once a second entry joins', () => {
    const { state } = open(4, 2);
    const first = lateEntry(state, 'x', { stack: 1_000, entryNo: 1 }, new SeededRng('x'));
    expect(first.commands[0]).toEqual({ kind: 'open_table', table: 3 });
    expect(first.commands[1]).toMatchObject({ kind: 'move', player: 'x', to: { table: 3 } });
    expect(first.commands).toHaveLength(2);
    expect(first.state.tables.find((t) => t.table === 3)).toEqual({
      table: 3,
      button: null,
      waiting: true,
      closed: false,
      lastHandNo: 0,
    });
    const second = lateEntry(first.state, 'y', { stack: 1_000, entryNo: 1 }, new SeededRng('y'));
    expect(second.commands.map((c) => c.kind)).toEqual(['move', 'deal']);
    expect(second.commands[0]).toMatchObject({ to: { table: 3 } });
    expect(second.commands[1]).toEqual({ kind: 'deal', table: 3 });
    expect(second.state.tables.find((t) => t.table === 3)!.waiting).toBe(false);
  });

  it('holds busts unplaced while registration is open, and takes a re-entry only of a busted entry, in order', () => {
    let { state } = open(4, 9);
    ({ state } = bust(state, 'p2', 'p1'));
    expect(state.players.p1).toMatchObject({ table: null, seat: null, place: null, chips: 0, entryNo: 1 });
    expect(state.unplaced).toEqual([[{ player: 'p1', entryNo: 1, startingStack: 1_000 }]]);
    expect(state.remaining).toBe(3);
    const rng = new SeededRng('re');
    expect(codeOf(() => lateEntry(state, 'p2', { stack: 1_000, entryNo: 2 }, rng))).toBe(
      TournamentErrorCode.ALREADY_IN,
    );
    expect(codeOf(() => lateEntry(state, 'p1', { stack: 1_000, entryNo: 1 }, rng))).toBe(
      TournamentErrorCode.ENTRY_INVALID,
    );
    expect(codeOf(() => lateEntry(state, 'p1', { stack: 1_000, entryNo: 3 }, rng))).toBe(
      TournamentErrorCode.ENTRY_INVALID,
    );
    expect(codeOf(() => lateEntry(state, 'new', { stack: 1_000, entryNo: 2 }, rng))).toBe(
      TournamentErrorCode.ENTRY_INVALID,
    );
    expect(codeOf(() => lateEntry(state, 'new', { stack: 0, entryNo: 1 }, rng))).toBe(
      TournamentErrorCode.AMOUNT_INVALID,
    );
    const step = lateEntry(state, 'p1', { stack: 1_000, entryNo: 2 }, rng);
    expect(step.commands[0]).toMatchObject({ kind: 'move', moveId: 'entry:p1:2', player: 'p1', from: null });
    expect(step.state.pastEntries).toEqual([{ player: 'p1', entryNo: 1, place: null, prize: 0 }]);
    expect(step.state.players.p1).toMatchObject({ entryNo: 2, chips: 1_000, place: null, addOns: 0 });
    expect(step.state.players.p1!.table).not.toBeNull();
    expect(codeOf(() => lateEntry(step.state, 'p1', { stack: 1_000, entryNo: 3 }, rng))).toBe(
      TournamentErrorCode.ALREADY_IN,
    );
  });

  it('refuses entries once registration is closed, and a second close', () => {
    const { state } = open(4, 9);
    const closed = closeRegistration(state, [400]).state;
    expect(closed.registrationOpen).toBe(false);
    expect(closed.prizes).toEqual([400]);
    const rng = new SeededRng('closed');
    expect(codeOf(() => lateEntry(closed, 'late', { stack: 1_000, entryNo: 1 }, rng))).toBe(
      TournamentErrorCode.REGISTRATION_CLOSED,
    );
    expect(codeOf(() => closeRegistration(closed, [400]))).toBe(TournamentErrorCode.REGISTRATION_CLOSED);
    expect(codeOf(() => closeRegistration(state, [400, -1]))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    // A field started without late registration behaves as before: no entries.
    const fixed = startDirector(players(4), { maxSeats: 9, startingStack: 1_000, prizes: [400], rule: 'tie' }, rng);
    expect(fixed.state.registrationOpen).toBe(false);
    expect(codeOf(() => lateEntry(fixed.state, 'late', { stack: 1_000, entryNo: 1 }, rng))).toBe(
      TournamentErrorCode.REGISTRATION_CLOSED,
    );
  });

  it('adds on once per entry, at once for a player whose table waits between hands', () => {
    const { state } = open(4, 2);
    // Tables 1 and 2 are in a hand; x waits alone at a new table 3.
    const { state: waiting } = lateEntry(state, 'x', { stack: 1_000, entryNo: 1 }, new SeededRng('x'));
    expect(codeOf(() => addOn(waiting, 'nobody', 500))).toBe(TournamentErrorCode.ADD_ON_NOT_NOW);
    expect(codeOf(() => addOn(waiting, 'x', 0))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    expect(codeOf(() => addOn(waiting, 'x', 1.5))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    const step = addOn(waiting, 'x', 500);
    expect(step.commands).toEqual([
      { kind: 'add_chips', addId: 'addon:x:1', player: 'x', table: 3, seat: step.state.players.x!.seat, chips: 500 },
    ]);
    expect(step.state.players.x).toMatchObject({ chips: 1_500, addOns: 1 });
    expect(step.state.chipsInPlay).toBe(5_500);
    expect(chipsHeld(step.state)).toBe(step.state.chipsInPlay);
    expect(waiting.players.x!.chips).toBe(1_000);
    expect(codeOf(() => addOn(step.state, 'x', 500))).toBe(TournamentErrorCode.ADD_ON_TAKEN);
  });

  it('does not finish with one player left while registration is open; the close then names the winner', () => {
    let { state } = open(2, 9);
    const step = bust(state, 'p2', 'p1');
    state = step.state;
    expect(step.commands).toEqual([]);
    expect(state.finished).toBe(false);
    expect(state.remaining).toBe(1);
    expect(state.tables).toMatchObject([{ table: 1, waiting: true, closed: false }]);
    // A re-entry brings company: the table deals again.
    const again = lateEntry(state, 'p1', { stack: 1_000, entryNo: 2 }, new SeededRng('again'));
    expect(again.commands.map((c) => c.kind)).toEqual(['move', 'deal']);

    const close = closeRegistration(state, [150, 50]);
    expect(close.commands).toEqual([
      { kind: 'award', player: 'p1', entryNo: 1, place: 2, prize: 50 },
      { kind: 'award', player: 'p2', entryNo: 1, place: 1, prize: 150 },
      { kind: 'close_table', table: 1 },
      { kind: 'finished', winner: 'p2' },
    ]);
    expect(close.state.finished).toBe(true);
    expect(close.state.unplaced).toEqual([]);
  });

  it('places the busts held during registration below everyone who entered, the earliest the worst', () => {
    let { state } = open(6, 9);
    ({ state } = bust(state, 'p2', 'p1'));
    ({ state } = bust(state, 'p4', 'p3'));
    ({ state } = lateEntry(state, 'late', { stack: 1_000, entryNo: 1 }, new SeededRng('l')));
    ({ state } = lateEntry(state, 'p1', { stack: 1_000, entryNo: 2 }, new SeededRng('r')));
    expect(state.remaining).toBe(6);
    const prizes = [100, 70, 50, 40, 30, 20, 10, 5];
    const close = closeRegistration(state, prizes);
    expect(close.commands.filter((c) => c.kind === 'award')).toEqual([
      { kind: 'award', player: 'p3', entryNo: 1, place: 7, prize: 10 },
      { kind: 'award', player: 'p1', entryNo: 1, place: 8, prize: 5 },
    ]);
    expect(close.state.players.p3).toMatchObject({ place: 7, prize: 10 });
    expect(close.state.pastEntries).toEqual([{ player: 'p1', entryNo: 1, place: 8, prize: 5 }]);
    expect(close.state.players.p1).toMatchObject({ entryNo: 2, place: null, prize: 0 });
    // The next bust, after the close, takes the place just above them.
    const after = bust(close.state, 'p2', 'p6');
    expect(after.commands.find((c) => c.kind === 'award')).toEqual({
      kind: 'award',
      player: 'p6',
      entryNo: 1,
      place: 6,
      prize: 20,
    });
  });

  it('places the busts of one hand held during registration by the room rule', () => {
    for (const rule of ['tie', 'starting_stack'] as const) {
      let { state } = open(5, 9, 'rule', rule);
      // p1 is short: 400 of its chips go to p2 first.
      ({ state } = tableHandEnded(state, hand(state, 1, { p1: 600, p2: 1_400 }), new SeededRng('h')));
      ({ state } = bust(state, 'p5', 'p1', 'p3'));
      const awards = closeRegistration(state, [300, 100, 50, 30, 20]).commands.filter(isAward);
      if (rule === 'tie') {
        // Tied: the award order follows the seats, so compare by player.
        expect(awards.sort((a, b) => a.player.localeCompare(b.player))).toEqual([
          { kind: 'award', player: 'p1', entryNo: 1, place: 4, prize: 25 },
          { kind: 'award', player: 'p3', entryNo: 1, place: 4, prize: 25 },
        ]);
      } else {
        expect(awards).toEqual([
          { kind: 'award', player: 'p3', entryNo: 1, place: 4, prize: 30 },
          { kind: 'award', player: 'p1', entryNo: 1, place: 5, prize: 20 },
        ]);
      }
    }
  });

  it('reads a checkpoint written before late registration existed, and plays on from it', () => {
    const rng = new SeededRng('old');
    const { state } = startDirector(
      players(4),
      { maxSeats: 9, startingStack: 1_000, prizes: [300, 100], rule: 'tie' },
      rng,
    );
    const old = JSON.parse(JSON.stringify(state)) as Record<string, unknown> & {
      players: Record<string, Record<string, unknown>>;
    };
    delete old.registrationOpen;
    delete old.unplaced;
    delete old.pastEntries;
    delete old.onBreak;
    delete old.addOnsQueued;
    for (const p of Object.values(old.players)) {
      delete p.entryNo;
      delete p.addOns;
    }
    const upgraded = upgradeDirectorState(old as unknown as StoredDirectorState);
    expect(upgraded).toEqual(state);
    expect(upgraded).toMatchObject({ onBreak: false, addOnsQueued: [] });
    expect(upgradeDirectorState(upgraded)).toEqual(upgraded);
    // Every op reads the old shape too.
    const oldState = old as unknown as DirectorState;
    const step = bust(oldState, 'p2', 'p1');
    expect(step.commands.find((c) => c.kind === 'award')).toEqual({
      kind: 'award',
      player: 'p1',
      entryNo: 1,
      place: 4,
      prize: 0,
    });
    expect(codeOf(() => lateEntry(oldState, 'late', { stack: 1, entryNo: 1 }, rng))).toBe(
      TournamentErrorCode.REGISTRATION_CLOSED,
    );
    // Not on a break: the same value changes nothing, the old shape included.
    const same = setBreak(oldState, false);
    expect(same.state).toBe(oldState);
    expect(same.commands).toEqual([]);
    expect(setBreak(oldState, true).state.onBreak).toBe(true);
    // p1's table plays a hand: the add-on is queued in the upgraded state.
    expect(addOn(oldState, 'p1', 1).state.addOnsQueued).toEqual([{ player: 'p1', entryNo: 1, chips: 1 }]);
    expect(codeOf(() => addOn(oldState, 'nobody', 1))).toBe(TournamentErrorCode.ADD_ON_NOT_NOW);
    expect(raisePrizes(oldState, [350, 150]).state.prizes).toEqual([350, 150]);
  });
});

/** A field with registration closed from the start. */
function closedField(n: number, maxSeats: number, prizes: readonly number[], seed = 'closed'): DirectorStep {
  return startDirector(players(n), { maxSeats, startingStack: 1_000, prizes, rule: 'tie' }, new SeededRng(seed));
}

const kinds = (step: DirectorStep) => step.commands.map((c) => c.kind);

describe('breaks, add-ons bought during a hand, and prizes raised by add-ons', () => {
  it('deals nothing on a break: reporting tables wait, and the end of the break deals them', () => {
    const start = closedField(4, 2, [400]);
    const input = JSON.stringify(start.state);
    const onBreak = setBreak(start.state, true);
    expect(onBreak.commands).toEqual([]);
    expect(onBreak.state.onBreak).toBe(true);
    expect(JSON.stringify(start.state)).toBe(input);
    // Again: the same state object, nothing to do (as for a report heard twice).
    const again = setBreak(onBreak.state, true);
    expect(again.state).toBe(onBreak.state);
    expect(again.commands).toEqual([]);

    let { state } = onBreak;
    for (const table of [1, 2]) {
      const step = tableHandEnded(state, hand(state, table), new SeededRng('h'));
      expect(step.commands).toEqual([]);
      state = step.state;
      expect(state.tables.find((t) => t.table === table)).toMatchObject({ waiting: true, lastHandNo: 1 });
    }
    const buttons = state.tables.map((t) => t.button);
    const end = setBreak(state, false);
    expect(end.commands).toEqual([
      { kind: 'deal', table: 1 },
      { kind: 'deal', table: 2 },
    ]);
    expect(end.state.onBreak).toBe(false);
    expect(end.state.tables.every((t) => !t.waiting)).toBe(true);
    expect(end.state.tables.map((t) => t.button)).not.toEqual(buttons);
    expect(state.onBreak).toBe(true);
    const twice = setBreak(end.state, false);
    expect(twice.state).toBe(end.state);
    expect(twice.commands).toEqual([]);
  });

  it('still places busts and breaks tables on a break, and deals only at its end', () => {
    // Two tables of two; a bust at table 1 leaves three players, who fit at one table.
    const start = closedField(4, 3, [400]);
    expect(start.state.tables.map((t) => seatedAt(start.state, t.table).length)).toEqual([2, 2]);
    let { state } = setBreak(start.state, true);
    const [winner, loser] = seatedAt(state, 1) as [string, string];
    const step = bust(state, winner, loser);
    expect(kinds(step)).toEqual(['award', 'move', 'close_table']);
    expect(step.commands[1]).toMatchObject({ player: winner, from: { table: 1 }, to: { table: 2 }, stack: 2_000 });
    state = step.state;
    const report = tableHandEnded(state, hand(state, 2), new SeededRng('h'));
    expect(report.commands).toEqual([]);
    const end = setBreak(report.state, false);
    expect(end.commands).toEqual([{ kind: 'deal', table: 2 }]);
    expect(seatedAt(end.state, 2)).toHaveLength(3);
  });

  it('holds a hand-for-hand round on a break like any other deal, and deals the next round at its end', () => {
    // 6 players at tables of 3 and 4 places paid: the bubble is 5 left, so one bust starts hand-for-hand.
    const start = closedField(6, 3, [300, 200, 100, 50]);
    let { state } = start;
    ({ state } = bust(state, seatedAt(state, 1)[0]!, seatedAt(state, 1)[1]!));
    expect(state.handForHand.active).toBe(true);
    // Table 1 waits for the round; the break starts while table 2 plays.
    ({ state } = setBreak(state, true));
    const step = tableHandEnded(state, hand(state, 2), new SeededRng('h'));
    expect(step.commands).toEqual([]);
    expect(step.state.handForHand.round).toBe(1);
    const end = setBreak(step.state, false);
    expect(kinds(end)).toEqual(['deal', 'deal']);
  });

  it('queues an add-on bought during a hand and adds it at the report, before the bust is decided', () => {
    const start = closedField(4, 3, [400]);
    const [winner, loser] = seatedAt(start.state, 1) as [string, string];
    const input = JSON.stringify(start.state);
    const bought = addOn(start.state, loser, 500);
    expect(JSON.stringify(start.state)).toBe(input);
    expect(bought.commands).toEqual([]);
    expect(bought.state.addOnsQueued).toEqual([{ player: loser, entryNo: 1, chips: 500 }]);
    expect(bought.state.players[loser]).toMatchObject({ chips: 1_000, addOns: 1 });
    expect(bought.state.chipsInPlay).toBe(4_000);
    expect(chipsHeld(bought.state)).toBe(bought.state.chipsInPlay);
    // A queued add-on is taken: the entry has no second one, now or after it is added.
    expect(codeOf(() => addOn(bought.state, loser, 500))).toBe(TournamentErrorCode.ADD_ON_TAKEN);

    // The loser loses all 1 000 the hand started with (the report knows nothing of the add-on).
    const report = hand(bought.state, 1, { [winner]: 2_000, [loser]: 0 });
    expect(report.results.find((r) => r.player === loser)!.startingStack).toBe(1_000);
    const step = tableHandEnded(bought.state, report, new SeededRng('h'));
    expect(step.commands).toEqual([
      expect.objectContaining({ kind: 'add_chips', addId: `addon:${loser}:1`, player: loser, table: 1, chips: 500 }),
      { kind: 'deal', table: 1 },
    ]);
    expect(step.state.players[loser]).toMatchObject({ chips: 500, table: 1, place: null, addOns: 1 });
    expect(step.state.remaining).toBe(4);
    expect(step.state.addOnsQueued).toEqual([]);
    expect(step.state.chipsInPlay).toBe(4_500);
    expect(chipsHeld(step.state)).toBe(step.state.chipsInPlay);
    expect(codeOf(() => addOn(step.state, loser, 500))).toBe(TournamentErrorCode.ADD_ON_TAKEN);
    // Another table's report leaves the queue alone.
    const other = addOn(step.state, seatedAt(step.state, 2)[0]!, 300).state;
    const elsewhere = tableHandEnded(other, hand(other, 1), new SeededRng('h'));
    expect(elsewhere.state.addOnsQueued).toEqual(other.addOnsQueued);
    expect(elsewhere.commands).toEqual([{ kind: 'deal', table: 1 }]);
  });

  it('sends a queued add-on before the moves and deals of the report that adds it', () => {
    // Two tables of two: the loser at table 1 busts, table 1 breaks, the winner moves with the add-on.
    const start = closedField(4, 3, [400]);
    const [winner, loser] = seatedAt(start.state, 1) as [string, string];
    const { state } = addOn(start.state, winner, 500);
    const step = bust(state, winner, loser);
    expect(kinds(step)).toEqual(['add_chips', 'award', 'move', 'close_table']);
    // At the seat the player had there, before the move.
    expect(step.commands[0]).toEqual({
      kind: 'add_chips',
      addId: `addon:${winner}:1`,
      player: winner,
      table: 1,
      seat: state.players[winner]!.seat,
      chips: 500,
    });
    expect(step.commands[2]).toMatchObject({ kind: 'move', player: winner, from: { table: 1 }, stack: 2_500 });
    expect(step.state.players[winner]).toMatchObject({ chips: 2_500, table: 2 });
    expect(chipsHeld(step.state)).toBe(4_500);
    expect(step.state.chipsInPlay).toBe(4_500);
  });

  it('queues the add-on of a player who joined a table during its hand, and adds it when that hand ends', () => {
    const start = closedField(4, 3, [400]);
    const [winner, loser] = seatedAt(start.state, 1) as [string, string];
    // Table 1 breaks: the winner joins table 2 in the middle of its hand.
    let { state } = bust(start.state, winner, loser);
    expect(state.players[winner]!.table).toBe(2);
    ({ state } = addOn(state, winner, 500));
    expect(state.addOnsQueued).toEqual([{ player: winner, entryNo: 1, chips: 500 }]);
    // The hand was dealt before the winner came: its report does not name them.
    const dealtIn = hand(state, 2);
    const report = { ...dealtIn, results: dealtIn.results.filter((r) => r.player !== winner) };
    const step = tableHandEnded(state, report, new SeededRng('h'));
    expect(step.commands).toEqual([
      expect.objectContaining({ kind: 'add_chips', addId: `addon:${winner}:1`, player: winner, table: 2, chips: 500 }),
      { kind: 'deal', table: 2 },
    ]);
    expect(step.state.players[winner]!.chips).toBe(2_500);
    expect(chipsHeld(step.state)).toBe(step.state.chipsInPlay);
  });

  it('adds on at once at a waiting table on a break, and refuses a player who is out', () => {
    let { state } = closedField(4, 3, [400]);
    ({ state } = setBreak(state, true));
    const [winner, loser] = seatedAt(state, 1) as [string, string];
    ({ state } = bust(state, seatedAt(state, 2)[0]!, seatedAt(state, 2)[1]!));
    ({ state } = tableHandEnded(state, hand(state, 1), new SeededRng('h')));
    expect(state.tables.every((t) => t.closed || t.waiting)).toBe(true);
    const out = Object.entries(state.players).find(([, p]) => p.table === null)![0];
    expect(codeOf(() => addOn(state, out, 500))).toBe(TournamentErrorCode.ADD_ON_NOT_NOW);
    const step = addOn(state, loser, 500);
    expect(step.commands).toEqual([
      expect.objectContaining({ kind: 'add_chips', addId: `addon:${loser}:1`, player: loser, table: 1, chips: 500 }),
    ]);
    expect(step.state.addOnsQueued).toEqual([]);
    expect(step.state.players[loser]!.chips).toBe(1_500);
    expect(setBreak(step.state, false).commands).toEqual([{ kind: 'deal', table: 1 }]);
    // Table 2 broke on the break: its player joined table 1 during its hand.
    expect(seatedAt(step.state, 1)).toHaveLength(3);
    expect(seatedAt(step.state, 1)).toEqual(expect.arrayContaining([winner, loser]));
  });

  it('raises the prizes: places paid keep what they were paid, the difference goes to first', () => {
    let { state } = closedField(4, 9, [500, 300, 200]);
    ({ state } = bust(state, 'p4', 'p1'));
    const third = bust(state, 'p4', 'p2');
    expect(third.commands.find(isAward)).toMatchObject({ player: 'p2', place: 3, prize: 200 });
    state = third.state;
    // Add-ons grew the pool from 1 000 to 1 200: the new table gives third 240, but 200 was paid.
    const input = JSON.stringify(state);
    const raised = raisePrizes(state, [600, 360, 240]);
    expect(JSON.stringify(state)).toBe(input);
    expect(raised.commands).toEqual([]);
    expect(raised.state.prizes).toEqual([640, 360, 200]);
    // Places 4 and 3 were paid 0 and 200: a table paying 150 and 250 for them gives first 150 + 50 more.
    expect(raisePrizes(state, [500, 300, 250, 150]).state.prizes).toEqual([700, 300, 200, 0]);
    // The rest of the tournament pays the new table's total exactly.
    const second = bust(raised.state, 'p4', 'p3');
    const awards = [...third.commands, ...second.commands].filter(isAward);
    expect(awards.map((a) => [a.player, a.place, a.prize])).toEqual([
      ['p2', 3, 200],
      ['p3', 2, 360],
      ['p4', 1, 640],
    ]);
    expect(awards.reduce((n, a) => n + a.prize, 0)).toBe(1_200);
    // Refusals: amounts that are not whole chips, a first place that would go below 0, a finished field.
    expect(codeOf(() => raisePrizes(state, [600, -1]))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    expect(codeOf(() => raisePrizes(state, [600.5]))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    expect(codeOf(() => raisePrizes(state, [100, 100, 0]))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    expect(second.state.finished).toBe(true);
    expect(codeOf(() => raisePrizes(second.state, [1_200]))).toBe(TournamentErrorCode.PRIZES_PAID);
  });

  it('replaces the provisional prizes while registration is open, and moves the bubble once closed', () => {
    const { state } = bust(open(4, 9).state, 'p2', 'p1');
    // Nothing is paid yet: every place takes the new prize, the fourth (held unplaced) too.
    expect(raisePrizes(state, [300, 100, 50, 25]).state.prizes).toEqual([300, 100, 50, 25]);
    expect(codeOf(() => raisePrizes(state, [Number.MAX_SAFE_INTEGER + 1]))).toBe(TournamentErrorCode.AMOUNT_INVALID);
    // Closed, with two tables of three and 6 left: paying 5 places puts the field on the bubble.
    const closed = closedField(6, 3, [600]).state;
    expect(closed.handForHand.active).toBe(false);
    const raised = raisePrizes(closed, [300, 150, 100, 50, 50]).state;
    expect(raised.prizes).toEqual([300, 150, 100, 50, 50]);
    expect(raised.handForHand.active).toBe(true);
    // Back to one paid place: the places it no longer pays are gone, and so is the bubble.
    const fewer = raisePrizes(raised, [650]).state;
    expect(fewer.prizes).toEqual([650]);
    expect(fewer.handForHand.active).toBe(false);
  });
});

/** A hand at `table`: each dealt-in player busts now and then, the chips go to one of the others. */
function randomHand(state: DirectorState, table: number, dealt: readonly string[], rng: Rng): HandEndedReport {
  const start = dealt.map((player) => ({ player, startingStack: state.players[player]!.chips }));
  const winner = randomInt(rng, dealt.length);
  const final = start.map((s) => s.startingStack);
  for (let i = 0; i < dealt.length; i++) {
    if (i === winner) continue;
    const lost = randomInt(rng, 4) === 0 ? final[i]! : Math.floor((final[i]! * randomInt(rng, 40)) / 100);
    final[i]! -= lost;
    final[winner]! += lost;
  }
  const t = state.tables.find((x) => x.table === table)!;
  return {
    table,
    handNo: t.lastHandNo + 1,
    button: t.button,
    results: start.map((s, i) => ({ ...s, finalStack: final[i]! })),
  };
}

/** One add-on in the random tournaments: its chips, and its cost, which goes to the prize pool. */
const ADD_ON = { chips: 500, cost: 50 };

/**
 * Plays a tournament with registration open from the start: random hands, late entries and re-entries
 * (up to `maxEntries` in all), breaks that start and end at random (a break always ends: once no table
 * plays, nothing else would deal again), add-ons bought at random (at once at a waiting table, queued
 * during a hand) and refusals where they are due, the close at a random moment, the prizes raised
 * whenever add-ons grew the pool (always before the next hand ends, so before any finish), and on to
 * the winner. Checks the invariants after every step.
 */
function playLate(n: number, maxSeats: number, seed: string, rule: SimultaneousBustRule, maxEntries: number) {
  const rng = new SeededRng(seed);
  const first = open(n, maxSeats, seed, rule);
  let state = first.state;
  const all: DirectorCommand[] = [];
  const inHand = new Map<number, string[]>();
  let entries = n;
  let addOnsTaken = 0;
  /** The chips of the add-ons sent to the tables (`add_chips`); a queued one counts once it is sent. */
  let addOnChips = 0;
  const addIds = new Set<string>();
  let newcomers = 0;
  const closeAfter = randomInt(rng, 120);
  let closeAwards = 0;
  let loneWaits = 0;
  const seen = { queued: 0, immediate: 0, saved: 0, breaks: 0, breakReports: 0, raises: 0 };
  const pool = () => entries * 100 + addOnsTaken * ADD_ON.cost;
  /** The pool the prizes were last set for, by the close or a raise. */
  let prizedPool = 0;
  /** Each entry's starting stack in the hand it busted in, by `player:entryNo`. */
  const bustStacks = new Map<string, number>();
  let checkpoint = '';
  const take = (step: DirectorStep) => {
    // The op left its input alone (a refused op too, since every refusal was tried on this state).
    if (checkpoint !== '') expect(JSON.stringify(state)).toBe(checkpoint);
    const firstMoveOrDeal = step.commands.findIndex((c) => c.kind === 'move' || c.kind === 'deal');
    step.commands.forEach((c, i) => {
      if (c.kind === 'move' && c.from !== null)
        expect(inHand.has(c.from.table), 'a player moved out of a hand').toBe(false);
      if (c.kind === 'close_table') expect(inHand.has(c.table), 'a table closed in a hand').toBe(false);
      if (c.kind === 'open_table') expect(state.tables.some((t) => t.table === c.table)).toBe(false);
      if (c.kind === 'award')
        expect(state.registrationOpen && !step.state.finished && step.state.registrationOpen).toBe(false);
      if (c.kind === 'deal') expect(step.state.onBreak, 'a table dealt on a break').toBe(false);
      if (c.kind === 'add_chips') {
        expect(inHand.has(c.table), 'chips added in the middle of a hand').toBe(false);
        if (firstMoveOrDeal >= 0) expect(i, 'chips added after a move or a deal').toBeLessThan(firstMoveOrDeal);
        expect(c.addId).toBe(`addon:${c.player}:${step.state.players[c.player]!.entryNo}`);
        expect(addIds.has(c.addId), 'an add-on sent twice').toBe(false);
        addIds.add(c.addId);
        addOnChips += c.chips;
      }
    });
    state = step.state;
    for (const c of step.commands) {
      if (c.kind !== 'deal') continue;
      expect(inHand.has(c.table), `table ${c.table} dealt twice`).toBe(false);
      const dealt = seatedAt(state, c.table);
      expect(dealt.length).toBeGreaterThanOrEqual(2);
      inHand.set(c.table, dealt);
    }
    all.push(...step.commands);
    if (state.registrationOpen && state.remaining === 1) loneWaits++;
    check();
    checkpoint = JSON.stringify(state);
    expect(JSON.parse(checkpoint)).toStrictEqual(state);
  };
  const check = () => {
    expect(chipsHeld(state)).toBe(state.chipsInPlay);
    expect(state.chipsInPlay).toBe(entries * 1_000 + addOnChips);
    const queued = state.addOnsQueued.reduce((s, q) => s + q.chips, 0);
    expect(addOnChips + queued).toBe(addOnsTaken * ADD_ON.chips);
    for (const q of state.addOnsQueued) {
      // Queued only while the player's table plays a hand; that entry has taken its add-on.
      const p = state.players[q.player]!;
      expect(p).toMatchObject({ entryNo: q.entryNo, addOns: 1 });
      expect(p.table !== null && inHand.has(p.table), 'an add-on queued at a table that waits').toBe(true);
    }
    expect(seatingIssues(directorSeating(state), maxSeats)).toEqual([]);
    const seated = Object.values(state.players).filter((p) => p.table !== null);
    // (The winner leaves their seat at the finish; a hand-for-hand round's busts count until it ends.)
    expect(seated).toHaveLength(state.finished ? 0 : state.remaining - state.handForHand.busts.length);
    for (const p of seated) {
      expect(state.tables.find((t) => t.table === p.table)?.closed).toBe(false);
      expect(p.chips).toBeGreaterThan(0);
    }
    expect(Object.keys(state.players).length + state.pastEntries.length).toBe(entries);
    if (state.registrationOpen) {
      expect(state.handForHand.active).toBe(false);
      expect(state.finished).toBe(false);
    }
  };
  const raise = () => {
    const prizes = placePrizes(pool(), entries);
    if (!state.registrationOpen) seen.raises++;
    take(raisePrizes(state, prizes));
    prizedPool = pool();
    // While registration is open the new prizes are the provisional ones; once closed, they add up.
    if (state.registrationOpen) expect(state.prizes).toEqual(prizes);
    expect(state.prizes.reduce((s, x) => s + x, 0)).toBe(pool());
  };
  take(first);

  for (let step = 0; !state.finished; step++) {
    expect(step, 'the tournament never ends').toBeLessThan(20_000);
    const roll = randomInt(rng, 10);
    // Every table waits for the end of the break: only add-ons, entries and the close can happen.
    const stalled = state.onBreak && inHand.size === 0;
    if (state.onBreak && (stalled ? randomInt(rng, 3) === 0 : roll === 3)) {
      take(setBreak(state, false));
      continue;
    }
    if (!state.onBreak && roll === 3 && randomInt(rng, 3) === 0) {
      const same = setBreak(state, false);
      expect(same.state).toBe(state);
      expect(same.commands).toEqual([]);
      seen.breaks++;
      take(setBreak(state, true));
      continue;
    }
    if (roll === 4 && (state.registrationOpen || pool() !== prizedPool)) {
      raise();
      continue;
    }
    if (state.registrationOpen && (step >= closeAfter || (inHand.size === 0 && entries >= maxEntries))) {
      const close = closeRegistration(state, placePrizes(pool(), entries));
      closeAwards += close.commands.filter(isAward).length;
      prizedPool = pool();
      take(close);
      continue;
    }
    if (roll === 2 || (stalled && randomInt(rng, 2) === 0)) {
      if (randomInt(rng, 8) === 0) {
        const out = Object.entries(state.players).filter(([, p]) => p.table === null);
        const id = out.length > 0 ? out[randomInt(rng, out.length)]![0] : 'nobody';
        expect(codeOf(() => addOn(state, id, ADD_ON.chips))).toBe(TournamentErrorCode.ADD_ON_NOT_NOW);
        continue;
      }
      const seated = Object.entries(state.players).filter(([, p]) => p.table !== null);
      const [id, p] = seated[randomInt(rng, seated.length)]!;
      if (p.addOns > 0) {
        expect(codeOf(() => addOn(state, id, ADD_ON.chips))).toBe(TournamentErrorCode.ADD_ON_TAKEN);
        continue;
      }
      const waits = state.tables.find((t) => t.table === p.table)!.waiting;
      const bought = addOn(state, id, ADD_ON.chips);
      expect(bought.commands).toHaveLength(waits ? 1 : 0);
      seen[waits ? 'immediate' : 'queued']++;
      addOnsTaken++;
      take(bought);
      continue;
    }
    if (state.registrationOpen && entries < maxEntries && (roll < 2 || inHand.size === 0)) {
      const out = Object.entries(state.players).filter(([, p]) => p.table === null);
      const seated = Object.entries(state.players).filter(([, p]) => p.table !== null);
      if (seated.length > 0 && randomInt(rng, 4) === 0) {
        const [id, p] = seated[randomInt(rng, seated.length)]!;
        expect(codeOf(() => lateEntry(state, id, { stack: 1_000, entryNo: p.entryNo + 1 }, rng))).toBe(
          TournamentErrorCode.ALREADY_IN,
        );
      }
      let player: string;
      if (out.length > 0 && randomInt(rng, 2) === 0) player = out[randomInt(rng, out.length)]![0];
      else player = `late${++newcomers}`;
      const entryNo = (state.players[player]?.entryNo ?? 0) + 1;
      entries++;
      take(lateEntry(state, player, { stack: 1_000, entryNo }, rng));
      continue;
    }
    if (stalled) continue;
    // Add-ons grew the pool since the close: the prizes follow before another hand can end the tournament.
    if (!state.registrationOpen && pool() !== prizedPool) {
      raise();
      continue;
    }
    const tables = [...inHand.keys()];
    expect(tables.length, 'no table is playing and none will: a deadlock').toBeGreaterThan(0);
    const table = tables[randomInt(rng, tables.length)]!;
    const report = randomHand(state, table, inHand.get(table)!, rng);
    inHand.delete(table);
    const queuedFor = new Set(state.addOnsQueued.map((q) => q.player));
    if (state.onBreak) seen.breakReports++;
    const entryNos = new Map(report.results.map((r) => [r.player, state.players[r.player]!.entryNo]));
    take(tableHandEnded(state, report, rng));
    for (const r of report.results) {
      if (r.finalStack !== 0) continue;
      // Lost everything: out, unless an add-on bought during the hand came in at its end.
      const stillIn = state.players[r.player]!.table !== null;
      expect(stillIn).toBe(queuedFor.has(r.player));
      if (stillIn) seen.saved++;
      else bustStacks.set(`${r.player}:${entryNos.get(r.player)!}`, r.startingStack);
    }
  }
  expect(state.addOnsQueued).toEqual([]);
  expect(state.chipsInPlay).toBe(entries * 1_000 + addOnsTaken * ADD_ON.chips);
  return { state, commands: all, entries, pool: pool(), bustStacks, closeAwards, loneWaits, seen };
}

describe('a tournament with late registration, re-entries, breaks and add-ons', () => {
  it('conserves chips, seats everyone once, places every entry once and pays the pool with the add-ons', () => {
    // How often the runs reach each case, so that the property is known to cover them.
    const seen = {
      reEntries: 0,
      openTables: 0,
      addOns: 0,
      closeAwards: 0,
      loneWaits: 0,
      handForHand: 0,
      queued: 0,
      immediate: 0,
      saved: 0,
      breaks: 0,
      breakReports: 0,
      raises: 0,
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 24 }),
        fc.integer({ min: 2, max: 9 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.constantFrom('starting_stack' as const, 'tie' as const),
        fc.integer({ min: 0, max: 30 }),
        (n, maxSeats, seed, rule, extra) => {
          const run = playLate(n, maxSeats, seed, rule, n + extra);
          const { state, commands, entries, pool, bustStacks } = run;
          seen.reEntries += commands.filter((c) => c.kind === 'move' && /^entry:.*:[2-9]\d*$/.test(c.moveId)).length;
          seen.openTables += commands.filter((c) => c.kind === 'open_table').length;
          seen.addOns += commands.filter((c) => c.kind === 'add_chips').length;
          seen.closeAwards += run.closeAwards;
          seen.loneWaits += run.loneWaits;
          seen.handForHand += state.handForHand.round > 0 ? 1 : 0;
          for (const key of Object.keys(run.seen) as (keyof typeof run.seen)[]) seen[key] += run.seen[key];
          // What each place was paid: a raise keeps the places paid before it, and first takes the rest.
          const prizes = state.prizes;
          expect(prizes.reduce((s, x) => s + x, 0)).toBe(pool);
          const records = [
            ...Object.entries(state.players).map(([player, p]) => ({ ...p, player })),
            ...state.pastEntries,
          ];
          expect(records).toHaveLength(entries);
          // One award per entry, as recorded.
          const awards = commands.filter(isAward);
          expect(awards).toHaveLength(entries);
          expect(new Set(awards.map((a) => `${a.player}:${a.entryNo}`)).size).toBe(entries);
          for (const a of awards) {
            expect(records.find((r) => r.player === a.player && r.entryNo === a.entryNo)).toMatchObject({
              place: a.place,
              prize: a.prize,
            });
          }
          // Places 1..N: a tie at place q of k entries covers q..q+k-1 and shares their prizes.
          const byPlace = new Map<number, typeof records>();
          for (const r of records) {
            expect(r.place).not.toBeNull();
            byPlace.set(r.place!, [...(byPlace.get(r.place!) ?? []), r]);
          }
          let next = 1;
          for (const place of [...byPlace.keys()].sort((a, b) => a - b)) {
            const tied = byPlace.get(place)!;
            expect(place).toBe(next);
            const shared = prizes.slice(place - 1, place - 1 + tied.length).reduce((s, x) => s + x, 0);
            expect(tied.reduce((s, r) => s + r.prize, 0)).toBe(shared);
            for (const r of tied) expect(Math.abs(r.prize - Math.floor(shared / tied.length))).toBeLessThanOrEqual(1);
            if (rule === 'starting_stack' && tied.length > 1) {
              // Only entries that busted together with equal stacks tie under this rule.
              expect(new Set(tied.map((r) => bustStacks.get(`${r.player}:${r.entryNo}`))).size).toBe(1);
            }
            next += tied.length;
          }
          expect(next).toBe(entries + 1);
          expect(records.reduce((s, r) => s + r.prize, 0)).toBe(pool);
          expect(awards.reduce((s, a) => s + a.prize, 0)).toBe(pool);
          expect(commands.filter((c) => c.kind === 'finished')).toHaveLength(1);
        },
      ),
      { seed: 2026, numRuns: 120 },
    );
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
  });
});
