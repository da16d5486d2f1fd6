import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { randomInt, SeededRng, type Rng } from '../rng.js';
import {
  chipsHeld,
  directorSeating,
  startDirector,
  tableHandEnded,
  type DirectorCommand,
  type DirectorState,
  type HandEndedReport,
} from './director.js';
import { TournamentError } from './errors.js';
import { placePrizes } from './payouts.js';
import { orderFromButton } from '../hand/seats.js';
import { seatForIncoming, seatingIssues, tablesNeeded } from './seating.js';

const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

interface Run {
  readonly state: DirectorState;
  readonly commands: DirectorCommand[];
  readonly hands: number;
  readonly maxOpenTables: number;
  readonly moves: number;
  readonly breaks: number;
  readonly handForHandRounds: number;
}

/**
 * Plays a whole tournament against the director: tables deal when told, hands end in a random order
 * (chips change hands, some players lose everything), and every report's commands are applied.
 * Checks the invariants after every step.
 */
function play(
  n: number,
  maxSeats: number,
  seed: string,
  rule: 'starting_stack' | 'tie' = 'starting_stack',
  /** At most one bust a hand: the field then passes through every size, the bubble included. */
  oneBustAHand = false,
): Run {
  const rng = new SeededRng(seed);
  const pool = n * 100;
  const prizes = placePrizes(pool, n);
  let { state, commands: all } = startDirector(players(n), { maxSeats, startingStack: 1_000, prizes, rule }, rng);
  const inHand = new Map<number, string[]>();
  const handNo = new Map<number, number>();
  let hands = 0;
  let maxOpenTables = state.tables.length;
  let handForHandRounds = 0;
  // The test's own record of the seats and buttons, kept from the commands and reports alone.
  const seats = new Map<string, { table: number; seat: number }>();
  const lastButton = new Map<number, number | null>();
  const handButton = new Map<number, number>();
  const seatsAt = (table: number) =>
    [...seats].filter(([, s]) => s.table === table).map(([player, s]) => ({ player, seat: s.seat }));
  const apply = (commands: readonly DirectorCommand[]) => {
    const dealtNow = new Set<number>();
    const breaking = new Set(commands.flatMap((c) => (c.kind === 'close_table' ? [c.table] : [])));
    for (const c of commands) {
      if (c.kind === 'move') {
        // A balance move into a table in the middle of a hand seats the player by that hand's button.
        if (c.from !== null && inHand.has(c.to.table) && !breaking.has(c.from.table)) {
          const here = { table: c.to.table, button: handButton.get(c.to.table)!, seats: seatsAt(c.to.table) };
          expect(c.to.seat).toBe(seatForIncoming(here, maxSeats));
        }
        seats.set(c.player, c.to);
      }
      if (c.kind === 'deal') {
        const button = orderFromButton(
          seatsAt(c.table).map((s) => s.seat),
          lastButton.get(c.table) ?? 0,
        )[0]!;
        handButton.set(c.table, button);
        expect(state.tables.find((t) => t.table === c.table)!.button).toBe(button);
        expect(inHand.has(c.table), `table ${c.table} dealt twice`).toBe(false);
        const dealt = Object.entries(state.players)
          .filter(([, p]) => p.table === c.table)
          .map(([id]) => id);
        expect(dealt.length).toBeGreaterThanOrEqual(2);
        if (state.handForHand.active) {
          // Hand-for-hand: a round deals only once no table is still playing the last one.
          expect([...inHand.keys()].every((t) => dealtNow.has(t))).toBe(true);
        }
        inHand.set(c.table, dealt);
        dealtNow.add(c.table);
      }
      if (c.kind === 'move' && c.from !== null)
        expect(inHand.has(c.from.table), 'a player moved out of a hand').toBe(false);
      if (c.kind === 'close_table') expect(inHand.has(c.table)).toBe(false);
    }
  };
  apply(all);
  for (let step = 0; !state.finished; step++) {
    expect(step, 'the tournament never ends').toBeLessThan(20_000);
    const open = [...inHand.keys()];
    expect(open.length, 'no table is playing and none will: a deadlock').toBeGreaterThan(0);
    const table = open[randomInt(rng, open.length)]!;
    const dealt = inHand.get(table)!;
    inHand.delete(table);
    const no = (handNo.get(table) ?? 0) + 1;
    handNo.set(table, no);
    const report = randomHand(state, table, no, dealt, rng, oneBustAHand);
    lastButton.set(table, report.button);
    for (const r of report.results) if (r.finalStack === 0) seats.delete(r.player);
    const hfhBefore = state.handForHand.round;
    const step1 = tableHandEnded(state, report, rng);
    state = step1.state;
    if (state.handForHand.round > hfhBefore) handForHandRounds++;
    // The same report again (a failover redelivering it) changes nothing.
    expect(tableHandEnded(state, report, rng)).toEqual({ state, commands: [] });
    apply(step1.commands);
    all = all.concat(step1.commands);
    hands++;
    expect(chipsHeld(state)).toBe(state.chipsInPlay);
    const seating = directorSeating(state);
    expect(seatingIssues(seating, maxSeats)).toEqual([]);
    for (const t of state.tables)
      if (t.closed) expect(Object.values(state.players).some((p) => p.table === t.table)).toBe(false);
    maxOpenTables = Math.max(maxOpenTables, seating.length);
    // Between everyone's hands the tables are as few and as even as they can be.
    if (
      !state.finished &&
      state.tables.every((t) => t.closed || t.waiting || !inHand.has(t.table)) &&
      inHand.size === 0
    ) {
      expect(seating.length).toBe(tablesNeeded(state.remaining, maxSeats));
    }
  }
  return {
    state,
    commands: all,
    hands,
    maxOpenTables,
    moves: all.filter((c) => c.kind === 'move' && c.from !== null).length,
    breaks: all.filter((c) => c.kind === 'close_table').length,
    handForHandRounds,
  };
}

/** A hand at `table`: each dealt-in player busts now and then, the chips go to one of the others. */
function randomHand(
  state: DirectorState,
  table: number,
  handNo: number,
  dealt: string[],
  rng: Rng,
  oneBust = false,
): HandEndedReport {
  const start = dealt.map((player) => ({ player, startingStack: state.players[player]!.chips }));
  const winner = randomInt(rng, dealt.length);
  const final = start.map((s) => s.startingStack);
  let busts = 0;
  for (let i = 0; i < dealt.length; i++) {
    if (i === winner) continue;
    const bust = randomInt(rng, 5) === 0 && !(oneBust && busts > 0);
    if (bust) busts++;
    const lost = bust ? final[i]! : Math.floor((final[i]! * randomInt(rng, 40)) / 100);
    final[i]! -= lost;
    final[winner]! += lost;
  }
  // The hand's button is the one the director moved on when it dealt (the table's engine does the same).
  const button = state.tables.find((t) => t.table === table)!.button;
  return {
    table,
    handNo,
    button,
    results: start.map((s, i) => ({ ...s, finalStack: final[i]! })),
  };
}

describe('the tournament director', () => {
  it('runs a 60-player tournament to one winner: every place paid once, the pool exactly, chips constant', () => {
    const run = play(60, 9, 'mtt-60', 'starting_stack', true);
    const awards = run.commands.filter((c) => c.kind === 'award');
    expect(awards).toHaveLength(60);
    expect(new Set(awards.map((a) => a.player)).size).toBe(60);
    expect(awards.reduce((n, a) => n + a.prize, 0)).toBe(60 * 100);
    expect(run.commands.filter((c) => c.kind === 'finished')).toHaveLength(1);
    const winner = run.commands.find((c) => c.kind === 'finished')!;
    expect(awards.find((a) => a.place === 1)?.player).toBe(winner.kind === 'finished' && winner.winner);
    expect(run.state.players[(winner as { winner: string }).winner]!.chips).toBe(60 * 1_000);
    expect(run.maxOpenTables).toBe(7);
    expect(run.moves).toBeGreaterThan(0);
    expect(run.breaks).toBe(7);
    expect(run.handForHandRounds).toBeGreaterThan(0);
  });

  it('any field, any table size, any order of hands: conserved, seated once, no deadlock, the pool paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 90 }),
        fc.integer({ min: 2, max: 10 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.constantFrom('starting_stack' as const, 'tie' as const),
        fc.boolean(),
        (n, maxSeats, seed, rule, oneBust) => {
          const run = play(n, maxSeats, seed, rule, oneBust);
          const awards = run.commands.filter((c) => c.kind === 'award');
          expect(awards).toHaveLength(n);
          expect(awards.reduce((s, a) => s + a.prize, 0)).toBe(n * 100);
          // Places: each bust event takes the places below those still in; ties share one.
          const places = awards.map((a) => a.place).sort((a, b) => a - b);
          expect(places[0]).toBe(1);
          for (const p of places) expect(p).toBeGreaterThanOrEqual(1);
          expect(Math.max(...places)).toBeLessThanOrEqual(n);
        },
      ),
      { seed: 2026, numRuns: 150 },
    );
  });

  it('holds every table hand-for-hand on the bubble, placing that round’s busts together', () => {
    // 20 players at tables of 3: the chart pays 4, so the bubble (5 left) is still on two tables.
    for (const seed of ['b1', 'b2', 'b3', 'b4']) {
      const run = play(20, 3, seed, 'tie', true);
      expect(run.handForHandRounds).toBeGreaterThan(0);
      // (play() checks that no table was dealt a hand-for-hand round while another still played.)
      const awards = run.commands.filter((c) => c.kind === 'award') as { place: number; prize: number }[];
      expect(awards.reduce((n, a) => n + a.prize, 0)).toBe(2_000);
    }
  });

  it('refuses a report that creates chips, names a player elsewhere, or disagrees with the stacks it holds', () => {
    const rng = new SeededRng('refuse');
    const { state, commands } = startDirector(
      players(4),
      { maxSeats: 2, startingStack: 100, prizes: [300, 100], rule: 'starting_stack' },
      rng,
    );
    const table = (commands.find((c) => c.kind === 'deal') as { table: number }).table;
    const here = Object.entries(state.players)
      .filter(([, p]) => p.table === table)
      .map(([id]) => id);
    const elsewhere = Object.entries(state.players).find(([, p]) => p.table !== table)![0];
    const report = (results: HandEndedReport['results']): HandEndedReport => ({ table, handNo: 1, button: 1, results });
    expect(() =>
      tableHandEnded(state, report([{ player: here[0]!, startingStack: 100, finalStack: 150 }]), rng),
    ).toThrow(TournamentError);
    expect(() =>
      tableHandEnded(state, report([{ player: elsewhere, startingStack: 100, finalStack: 100 }]), rng),
    ).toThrow(TournamentError);
    expect(() =>
      tableHandEnded(state, report(here.map((player) => ({ player, startingStack: 90, finalStack: 90 }))), rng),
    ).toThrow(TournamentError);
    expect(() => tableHandEnded(state, { ...report([]), table: 99 }, rng)).toThrow(TournamentError);
    // One player reported twice: 100 → 0 twice and another 100 → 300 adds up, but would create chips.
    expect(() =>
      tableHandEnded(
        state,
        report([
          { player: here[0]!, startingStack: 100, finalStack: 0 },
          { player: here[0]!, startingStack: 100, finalStack: 0 },
          { player: here[1]!, startingStack: 100, finalStack: 300 },
        ]),
        rng,
      ),
    ).toThrow(TournamentError);
    expect(() => startDirector(['a', 'a'], { maxSeats: 2, startingStack: 1, prizes: [2], rule: 'tie' }, rng)).toThrow(
      TournamentError,
    );
  });

  it('keeps its whole state as JSON: a successor resumes from a checkpoint and decides the same', () => {
    const rng = new SeededRng('resume');
    let { state } = startDirector(
      players(12),
      { maxSeats: 6, startingStack: 500, prizes: placePrizes(1200, 12), rule: 'starting_stack' },
      rng,
    );
    const dealt = Object.entries(state.players)
      .filter(([, p]) => p.table === 1)
      .map(([id]) => id);
    const report = randomHand(state, 1, 1, dealt, new SeededRng('hand'));
    const restored = JSON.parse(JSON.stringify(state)) as DirectorState;
    const a = tableHandEnded(state, report, new SeededRng('same'));
    const b = tableHandEnded(restored, report, new SeededRng('same'));
    expect(b).toEqual(a);
    state = a.state;
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
