/**
 * Seating a tournament's players over its tables (TDA practice, see shared/design/TOURNAMENTS.md):
 * the random draw at the start, which player moves when the tables fall out of balance and where to,
 * which table breaks when the others can absorb it, and where its players go. Pure functions over a
 * plain description of the tables; the director applies what they return through the tables' own
 * seat and leave paths. Seats are numbered 1..maxSeats, as at a table.
 */
import { orderFromButton } from '../hand/seats.js';
import { randomInt, shuffleInPlace, type Rng } from '../rng.js';
import { TournamentError, TournamentErrorCode } from './errors.js';

export interface SeatedPlayer<P> {
  readonly player: P;
  readonly seat: number;
}

export interface TableSeating<P> {
  /** The table's number in the tournament, as players see it (1, 2, …). */
  readonly table: number;
  readonly seats: readonly SeatedPlayer<P>[];
  /** The button of the hand in progress or of the last hand; null before the table's first hand. */
  readonly button: number | null;
}

/** A player's seat: which table, which seat. */
export interface SeatRef {
  readonly table: number;
  readonly seat: number;
}

export interface SeatMove<P> {
  readonly player: P;
  readonly from: SeatRef;
  readonly to: SeatRef;
}

/** The fewest tables that seat `players` at `maxSeats` a table. */
export function tablesNeeded(players: number, maxSeats: number): number {
  return Math.ceil(players / maxSeats);
}

/**
 * The start's random draw: ⌈n / maxSeats⌉ tables numbered from 1, as even as possible (sizes differ
 * by at most one), each player at a uniformly drawn table and seat.
 */
export function drawSeats<P>(players: readonly P[], maxSeats: number, rng: Rng): TableSeating<P>[] {
  checkMaxSeats(maxSeats);
  if (players.length < 2) {
    throw new TournamentError(TournamentErrorCode.FIELD_SIZE, 'a tournament seats at least two players', {
      players: players.length,
    });
  }
  const order = shuffleInPlace(rng, [...players]);
  const count = tablesNeeded(order.length, maxSeats);
  const base = Math.floor(order.length / count);
  const larger = order.length % count;
  // Which tables get the extra players is drawn too, so table 1 is not always the fuller one.
  const sizes = shuffleInPlace(
    rng,
    Array.from({ length: count }, (_, i) => base + (i < larger ? 1 : 0)),
  );
  let next = 0;
  return sizes.map((size, i) => {
    const seatNumbers = shuffleInPlace(rng, allSeats(maxSeats)).slice(0, size);
    const seats = seatNumbers.map((seat) => ({ player: order[next++]!, seat })).sort((a, b) => a.seat - b.seat);
    return { table: i + 1, seats, button: null };
  });
}

/**
 * How many hands from now the player in `seat` posts the big blind, with the button moving to the next
 * occupied seat each hand as it does at a Felt table (the first hand's button is the lowest seat): 1
 * means the next hand. `occupied` includes `seat`.
 */
export function handsUntilBigBlind(occupied: readonly number[], button: number | null, seat: number): number {
  const order = orderFromButton(occupied, button ?? 0);
  const n = order.length;
  const i = order.indexOf(seat);
  if (i < 0 || n < 2) {
    throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `seat ${seat} is not among two or more occupied`, {
      seat,
    });
  }
  // Hand k's button is order[k - 1]; heads-up the button posts the small blind, so the big blind is
  // the seat after the button, else the second seat after it.
  for (let k = 1; k <= n; k++) if ((n === 2 ? k % n : (k + 1) % n) === i) return k;
  /* c8 ignore next */
  throw new Error('unreachable: every seat posts the big blind within an orbit');
}

/** The seat that posts the next hand's big blind, or null with fewer than two players. */
export function nextBigBlindSeat(occupied: readonly number[], button: number | null): number | null {
  if (occupied.length < 2) return null;
  return occupied.find((s) => handsUntilBigBlind(occupied, button, s) === 1) ?? null;
}

/**
 * The empty seat of `table` where an incoming player posts the big blind soonest: never a seat that
 * would let them play a free orbit before their blind. Ties go to the first seat clockwise after the
 * button. Null when the table is full.
 */
export function seatForIncoming<P>(table: TableSeating<P>, maxSeats: number): number | null {
  const occupied = table.seats.map((s) => s.seat);
  const free = allSeats(maxSeats).filter((s) => !occupied.includes(s));
  if (free.length === 0) return null;
  if (occupied.length === 0) return free[0]!;
  const clockwise = orderFromButton(allSeats(maxSeats), table.button ?? 0);
  let best: { seat: number; hands: number; rank: number } | null = null;
  for (const seat of free) {
    const hands = handsUntilBigBlind([...occupied, seat], table.button, seat);
    const rank = clockwise.indexOf(seat);
    if (best === null || hands < best.hands || (hands === best.hands && rank < best.rank)) best = { seat, hands, rank };
  }
  return best!.seat;
}

/**
 * The one move that brings the tables closer to balance, or null when no two tables differ by two
 * players or more: the player who would post the next big blind at the largest table goes to the
 * smallest, in the seat {@link seatForIncoming} picks. Ties between tables go to the lowest number.
 * Applied one at a time until it returns null, the sizes end at most one apart.
 *
 * With `from`, only a move out of that table (one between hands, whose players can move now), and
 * only when it is one of the largest: the others give their players at their own hand's end.
 */
export function planBalanceMove<P>(
  tables: readonly TableSeating<P>[],
  maxSeats: number,
  from?: number,
): SeatMove<P> | null {
  if (tables.length < 2) return null;
  let largest = tables[0]!;
  let smallest = tables[0]!;
  for (const t of tables) {
    if (t.seats.length > largest.seats.length || (t.seats.length === largest.seats.length && t.table < largest.table)) {
      largest = t;
    }
    if (
      t.seats.length < smallest.seats.length ||
      (t.seats.length === smallest.seats.length && t.table < smallest.table)
    ) {
      smallest = t;
    }
  }
  if (from !== undefined) {
    const source = tables.find((t) => t.table === from);
    if (source === undefined || source.seats.length < largest.seats.length) return null;
    largest = source;
  }
  if (largest.seats.length - smallest.seats.length < 2) return null;
  const occupied = largest.seats.map((s) => s.seat);
  const fromSeat = nextBigBlindSeat(occupied, largest.button)!;
  const player = largest.seats.find((s) => s.seat === fromSeat)!.player;
  const toSeat = seatForIncoming(smallest, maxSeats)!;
  return { player, from: { table: largest.table, seat: fromSeat }, to: { table: smallest.table, seat: toSeat } };
}

/**
 * The table to break, or null: when the players left fit at one table fewer, the table with the fewest
 * players (ties: the highest number) breaks.
 */
export function tableToBreak<P>(tables: readonly TableSeating<P>[], maxSeats: number): number | null {
  if (tables.length < 2) return null;
  const players = tables.reduce((n, t) => n + t.seats.length, 0);
  if (players > (tables.length - 1) * maxSeats) return null;
  let pick = tables[0]!;
  for (const t of tables) {
    if (t.seats.length < pick.seats.length || (t.seats.length === pick.seats.length && t.table > pick.table)) pick = t;
  }
  return pick.table;
}

/**
 * Where the players of a breaking table go: each, in a random order, to one of the tables with the
 * fewest players at that moment (drawn among them) and a random open seat there, so the remaining
 * tables stay as even as they can be.
 */
export function dealBrokenTable<P>(
  tables: readonly TableSeating<P>[],
  breaking: number,
  maxSeats: number,
  rng: Rng,
): SeatMove<P>[] {
  const broken = tables.find((t) => t.table === breaking);
  if (broken === undefined) {
    throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `no table ${breaking}`, { table: breaking });
  }
  const others = tables
    .filter((t) => t.table !== breaking)
    .map((t) => ({ table: t.table, taken: new Set(t.seats.map((s) => s.seat)) }));
  const room = others.reduce((n, t) => n + maxSeats - t.taken.size, 0);
  if (room < broken.seats.length) {
    throw new TournamentError(
      TournamentErrorCode.SEATING_INVALID,
      `${broken.seats.length} players, ${room} open seats`,
      {
        table: breaking,
      },
    );
  }
  const moves: SeatMove<P>[] = [];
  for (const { player, seat } of shuffleInPlace(rng, [...broken.seats])) {
    const fewest = Math.min(...others.map((t) => t.taken.size));
    const candidates = others.filter((t) => t.taken.size === fewest);
    const dest = candidates[randomInt(rng, candidates.length)]!;
    const open = allSeats(maxSeats).filter((s) => !dest.taken.has(s));
    const to = open[randomInt(rng, open.length)]!;
    dest.taken.add(to);
    moves.push({ player, from: { table: breaking, seat }, to: { table: dest.table, seat: to } });
  }
  return moves;
}

/**
 * The tables after `moves`: each player leaves their seat and takes the new one, in order; a table
 * left with nobody is dropped. Refuses a move from a seat the player does not hold or to a taken seat.
 */
export function applySeatMoves<P>(
  tables: readonly TableSeating<P>[],
  moves: readonly SeatMove<P>[],
): TableSeating<P>[] {
  const byTable = new Map(tables.map((t) => [t.table, { ...t, seats: [...t.seats] }]));
  for (const move of moves) {
    const from = byTable.get(move.from.table);
    const at = from?.seats.findIndex((s) => s.seat === move.from.seat && s.player === move.player) ?? -1;
    const to = byTable.get(move.to.table);
    if (from === undefined || at < 0 || to === undefined || to.seats.some((s) => s.seat === move.to.seat)) {
      throw new TournamentError(TournamentErrorCode.SEATING_INVALID, 'a move from a seat not held or to a taken seat', {
        table: move.to.table,
        seat: move.to.seat,
      });
    }
    from.seats.splice(at, 1);
    to.seats.push({ player: move.player, seat: move.to.seat });
    to.seats.sort((a, b) => a.seat - b.seat);
  }
  return [...byTable.values()].filter((t) => t.seats.length > 0);
}

/** Every contradiction in a seating, as messages; [] when it is consistent. */
export function seatingIssues<P>(tables: readonly TableSeating<P>[], maxSeats: number): string[] {
  const issues: string[] = [];
  const numbers = new Set<number>();
  const where = new Map<P, number>();
  for (const t of tables) {
    if (numbers.has(t.table)) issues.push(`table ${t.table} listed twice`);
    numbers.add(t.table);
    const taken = new Set<number>();
    for (const { player, seat } of t.seats) {
      if (!Number.isInteger(seat) || seat < 1 || seat > maxSeats)
        issues.push(`table ${t.table}: seat ${seat} out of range`);
      if (taken.has(seat)) issues.push(`table ${t.table}: seat ${seat} taken twice`);
      taken.add(seat);
      const other = where.get(player);
      if (other !== undefined) issues.push(`player ${String(player)} at tables ${other} and ${t.table}`);
      where.set(player, t.table);
    }
  }
  return issues;
}

function checkMaxSeats(maxSeats: number): void {
  if (!Number.isInteger(maxSeats) || maxSeats < 2 || maxSeats > 10) {
    throw new TournamentError(TournamentErrorCode.SEATING_INVALID, `tables of ${maxSeats} seats`, { maxSeats });
  }
}

function allSeats(maxSeats: number): number[] {
  return Array.from({ length: maxSeats }, (_, i) => i + 1);
}
