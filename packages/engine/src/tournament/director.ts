/**
 * The tournament director's rules as a pure state machine (shared/design/TOURNAMENTS.md): it seats the
 * field by random draw, hears each table's hand end, places busted players and pays their prizes,
 * breaks and balances tables, holds every table hand-for-hand on the money bubble, and names the
 * winner. It never touches a table: it returns commands (`move`, `deal`, `close_table`, `award`,
 * `finished`) for the service that owns the tournament to carry out, and its state is plain JSON, so
 * that service can checkpoint it after each step and a successor resumes from the checkpoint.
 *
 * Tables deal only when told: after each hand a table reports and waits for `deal`. Players move only
 * out of a table that is waiting (between its hands), so a move never takes a player out of a hand;
 * they may move into a table in the middle of a hand and are dealt in from its next one.
 */
import { orderFromButton } from '../hand/seats.js';
import type { Rng } from '../rng.js';
import { TournamentError, TournamentErrorCode } from './errors.js';
import { placeBusts, shareTiedPlaces, type Bust, type SimultaneousBustRule } from './payouts.js';
import {
  dealBrokenTable,
  drawSeats,
  planBalanceMove,
  tableToBreak,
  type SeatMove,
  type SeatRef,
  type TableSeating,
} from './seating.js';

export interface DirectorPlayer {
  chips: number;
  /** Where the player sits; null once out. */
  table: number | null;
  seat: number | null;
  /** Set when the player is out (or has won): their place and what it paid. */
  place: number | null;
  prize: number;
}

export interface DirectorTable {
  readonly table: number;
  /** The button of the hand in progress, or of the last hand while the table waits; null before any. */
  button: number | null;
  /** Between hands, waiting for `deal`. */
  waiting: boolean;
  closed: boolean;
  /** The last hand number this table reported: a report repeated after a failover changes nothing. */
  lastHandNo: number;
}

/** The whole director as JSON: what a checkpoint holds. */
export interface DirectorState {
  readonly maxSeats: number;
  /** What each paid place wins, best first (placePrizes of the pool and the field). */
  readonly prizes: readonly number[];
  readonly rule: SimultaneousBustRule;
  /** Tournament chips in play: constant from the start to the end. */
  readonly chipsInPlay: number;
  players: Record<string, DirectorPlayer>;
  tables: DirectorTable[];
  /** Players still in. */
  remaining: number;
  /**
   * Hand-for-hand on the bubble: the round's number and the busts it made so far. The round is over
   * when every open table waits between hands.
   */
  handForHand: { active: boolean; round: number; busts: Bust<string>[] };
  nextMoveNo: number;
  finished: boolean;
}

export type DirectorCommand =
  /** Take the player from one seat to another, carrying `stack` exactly (out of a waiting table). */
  | {
      readonly kind: 'move';
      readonly moveId: string;
      readonly player: string;
      readonly from: SeatRef | null;
      readonly to: SeatRef;
      readonly stack: number;
    }
  /** The table may deal its next hand (at the current level). */
  | { readonly kind: 'deal'; readonly table: number }
  /** The table is broken or the tournament is over: it deals no more. */
  | { readonly kind: 'close_table'; readonly table: number }
  /** The player is out in `place` and is paid `prize` from the prize pool. */
  | { readonly kind: 'award'; readonly player: string; readonly place: number; readonly prize: number }
  | { readonly kind: 'finished'; readonly winner: string };

export interface HandEndedReport {
  readonly table: number;
  /** The table's own count of its hands: a report of a hand already heard is ignored. */
  readonly handNo: number;
  readonly button: number | null;
  /** Every player dealt into the hand, with their chips at its start and at its end. */
  readonly results: readonly { readonly player: string; readonly startingStack: number; readonly finalStack: number }[];
}

export interface DirectorStep {
  readonly state: DirectorState;
  readonly commands: DirectorCommand[];
}

/**
 * The start: every player drawn to a table and seat with `startingStack` chips (a `move` from nowhere,
 * `from: null`), then every table told to deal.
 */
export function startDirector(
  players: readonly string[],
  options: {
    readonly maxSeats: number;
    readonly startingStack: number;
    readonly prizes: readonly number[];
    readonly rule: SimultaneousBustRule;
  },
  rng: Rng,
): DirectorStep {
  if (new Set(players).size !== players.length) {
    throw new TournamentError(TournamentErrorCode.SEATING_INVALID, 'a player entered twice');
  }
  const seating = drawSeats(players, options.maxSeats, rng);
  const state: DirectorState = {
    maxSeats: options.maxSeats,
    prizes: [...options.prizes],
    rule: options.rule,
    chipsInPlay: players.length * options.startingStack,
    players: {},
    tables: seating.map((t) => ({ table: t.table, button: null, waiting: false, closed: false, lastHandNo: 0 })),
    remaining: players.length,
    handForHand: { active: false, round: 0, busts: [] },
    nextMoveNo: 1,
    finished: false,
  };
  const commands: DirectorCommand[] = [];
  for (const t of seating) {
    for (const { player, seat } of t.seats) {
      state.players[player] = { chips: options.startingStack, table: t.table, seat, place: null, prize: 0 };
      commands.push({
        kind: 'move',
        moveId: `draw:${player}`,
        player,
        from: null,
        to: { table: t.table, seat },
        stack: options.startingStack,
      });
    }
  }
  // A table the draw left with one player (tables of two, an odd field) waits for a second.
  for (const t of seating) {
    const table = state.tables.find((d) => d.table === t.table)!;
    if (t.seats.length >= 2) {
      table.button = nextButton(state, table);
      commands.push({ kind: 'deal', table: t.table });
    } else table.waiting = true;
  }
  updateHandForHand(state);
  return { state, commands };
}

/**
 * A table's hand ended. Its chips are taken as reported (they must add up to what the hand started
 * with, and each start must be what the director holds for that player), busted players are placed
 * and paid, tables are broken and balanced where players can move now, and every waiting table that
 * can deal is told to.
 */
export function tableHandEnded(previous: DirectorState, report: HandEndedReport, rng: Rng): DirectorStep {
  const state = JSON.parse(JSON.stringify(previous)) as DirectorState;
  const commands: DirectorCommand[] = [];
  const table = state.tables.find((t) => t.table === report.table);
  // A hand already heard (a report sent again after a failover) changes nothing, even once it ended.
  if (table !== undefined && report.handNo <= table.lastHandNo) return { state: previous, commands: [] };
  if (table === undefined || table.closed || state.finished || !isPlaying(table)) {
    throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `table ${report.table} is not in play`, {
      table: report.table,
    });
  }
  checkReport(state, report);

  table.lastHandNo = report.handNo;
  table.button = report.button;
  table.waiting = true;
  const busts: Bust<string>[] = [];
  for (const r of report.results) {
    const p = state.players[r.player]!;
    p.chips = r.finalStack;
    if (r.finalStack === 0) {
      busts.push({ player: r.player, startingStack: r.startingStack });
      p.table = null;
      p.seat = null;
    }
  }

  const hfh = state.handForHand;
  if (hfh.active) {
    hfh.busts.push(...busts);
  } else {
    commands.push(...place(state, busts));
  }
  if (hfh.active && roundComplete(state)) {
    commands.push(...place(state, hfh.busts));
    hfh.busts = [];
    hfh.round++;
  }
  if (state.remaining === 1) return finish(state, commands);

  commands.push(...rearrange(state, rng));
  updateHandForHand(state);
  commands.push(...deals(state));
  return { state, commands };
}

/** A table reports a hand only while it plays one: not while it waits for `deal`. */
function isPlaying(table: DirectorTable): boolean {
  return !table.waiting;
}

/** Every table is between hands: the hand-for-hand round is over. */
function roundComplete(state: DirectorState): boolean {
  return state.tables.every((t) => t.closed || t.waiting);
}

/** Hand-for-hand while one more bust reaches the money and more than one table plays. */
function updateHandForHand(state: DirectorState): void {
  const open = state.tables.filter((t) => !t.closed).length;
  const onBubble = state.remaining === state.prizes.length + 1 && open > 1;
  const hfh = state.handForHand;
  if (onBubble && !hfh.active) {
    hfh.active = true;
    hfh.busts = [];
  } else if (!onBubble && hfh.active && hfh.busts.length === 0) {
    hfh.active = false;
  }
}

/** Places one elimination event's busts below the players still in, and pays them. */
function place(state: DirectorState, busts: readonly Bust<string>[]): DirectorCommand[] {
  if (busts.length === 0) return [];
  state.remaining -= busts.length;
  const commands: DirectorCommand[] = [];
  for (const group of placeBusts(busts, state.remaining, state.rule)) {
    for (const share of shareTiedPlaces(state.prizes, group.place, group.players)) {
      const p = state.players[share.player]!;
      p.place = share.place;
      p.prize = share.amount;
      commands.push({ kind: 'award', player: share.player, place: share.place, prize: share.amount });
    }
  }
  return commands;
}

function finish(state: DirectorState, commands: DirectorCommand[]): DirectorStep {
  const [winner] = Object.entries(state.players).find(([, p]) => p.place === null) ?? [];
  if (winner === undefined) throw new TournamentError(TournamentErrorCode.FIELD_SIZE, 'nobody is left to win');
  const p = state.players[winner]!;
  p.place = 1;
  p.prize = state.prizes[0] ?? 0;
  p.table = null;
  p.seat = null;
  commands.push({ kind: 'award', player: winner, place: 1, prize: p.prize });
  for (const t of state.tables) {
    if (!t.closed) commands.push({ kind: 'close_table', table: t.table });
    t.closed = true;
  }
  state.finished = true;
  state.handForHand.active = false;
  commands.push({ kind: 'finished', winner });
  return { state, commands };
}

/** The open tables as seating, from the players' seats. */
export function directorSeating(state: DirectorState): TableSeating<string>[] {
  return state.tables
    .filter((t) => !t.closed)
    .map((t) => ({
      table: t.table,
      button: t.button,
      seats: Object.entries(state.players)
        .filter(([, p]) => p.table === t.table)
        .map(([player, p]) => ({ player, seat: p.seat! }))
        .sort((a, b) => a.seat - b.seat),
    }));
}

/** Breaks and balances, moving only players of waiting tables. */
function rearrange(state: DirectorState, rng: Rng): DirectorCommand[] {
  const commands: DirectorCommand[] = [];
  const waiting = (n: number) => state.tables.some((t) => t.table === n && t.waiting && !t.closed);
  for (;;) {
    const breaking = tableToBreak(directorSeating(state), state.maxSeats);
    if (breaking === null || !waiting(breaking)) break;
    for (const move of dealBrokenTable(directorSeating(state), breaking, state.maxSeats, rng))
      commands.push(apply(state, move));
    state.tables.find((t) => t.table === breaking)!.closed = true;
    commands.push({ kind: 'close_table', table: breaking });
  }
  for (const t of state.tables) {
    if (!t.waiting || t.closed) continue;
    for (let move = planBalanceMove(directorSeating(state), state.maxSeats, t.table); move !== null;) {
      commands.push(apply(state, move));
      move = planBalanceMove(directorSeating(state), state.maxSeats, t.table);
    }
  }
  return commands;
}

function apply(state: DirectorState, move: SeatMove<string>): DirectorCommand {
  const p = state.players[move.player]!;
  p.table = move.to.table;
  p.seat = move.to.seat;
  return {
    kind: 'move',
    moveId: `move:${state.nextMoveNo++}`,
    player: move.player,
    from: move.from,
    to: move.to,
    stack: p.chips,
  };
}

/** `deal` to every waiting table with two players or more, unless hand-for-hand holds it for the round. */
function deals(state: DirectorState): DirectorCommand[] {
  const hfh = state.handForHand;
  // The round is still being played: the tables that finished it wait for the others.
  if (hfh.active && !roundComplete(state)) return [];
  const commands: DirectorCommand[] = [];
  for (const t of state.tables) {
    if (t.closed || !t.waiting) continue;
    const players = Object.values(state.players).filter((p) => p.table === t.table).length;
    if (players === 0) {
      t.closed = true;
      commands.push({ kind: 'close_table', table: t.table });
      continue;
    }
    if (players < 2) continue;
    t.waiting = false;
    // The hand about to be dealt moves the button on: players moved in during it take their seats by it.
    t.button = nextButton(state, t);
    commands.push({ kind: 'deal', table: t.table });
  }
  return commands;
}

/** The button of the table's next hand: the first occupied seat after the last one (the lowest at first). */
function nextButton(state: DirectorState, t: DirectorTable): number {
  const occupied = Object.values(state.players)
    .filter((p) => p.table === t.table)
    .map((p) => p.seat!);
  return orderFromButton(occupied, t.button ?? 0)[0]!;
}

function checkReport(state: DirectorState, report: HandEndedReport): void {
  let before = 0;
  let after = 0;
  const seen = new Set<string>();
  for (const r of report.results) {
    if (seen.has(r.player)) {
      throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `${r.player} is reported twice`, {
        table: report.table,
      });
    }
    seen.add(r.player);
    const p = state.players[r.player];
    if (p === undefined || p.table !== report.table) {
      throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `${r.player} is not at table ${report.table}`, {
        table: report.table,
      });
    }
    if (r.startingStack !== p.chips || !Number.isSafeInteger(r.finalStack) || r.finalStack < 0) {
      throw new TournamentError(
        TournamentErrorCode.AMOUNT_INVALID,
        `${r.player} started with ${r.startingStack}, the director holds ${p.chips}; ended with ${r.finalStack}`,
        { table: report.table },
      );
    }
    before += r.startingStack;
    after += r.finalStack;
  }
  if (before !== after) {
    throw new TournamentError(
      TournamentErrorCode.AMOUNT_INVALID,
      `table ${report.table}'s hand turned ${before} chips into ${after}`,
      {
        table: report.table,
      },
    );
  }
}

/** Every chip the director holds, for the invariant chipsInPlay = this, always. */
export function chipsHeld(state: DirectorState): number {
  return Object.values(state.players).reduce((n, p) => n + p.chips, 0);
}
