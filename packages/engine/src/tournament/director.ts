/**
 * The tournament director's rules as a pure state machine (shared/design/TOURNAMENTS.md): it seats the
 * field by random draw, hears each table's hand end, places busted players and pays their prizes,
 * breaks and balances tables, holds every table hand-for-hand on the money bubble, and names the
 * winner. It never touches a table: it returns commands (`open_table`, `move`, `add_chips`, `deal`,
 * `close_table`, `award`, `finished`) for the service that owns the tournament to carry out, and its
 * state is plain JSON, so that service can checkpoint it after each step and a successor resumes from
 * the checkpoint. Each op takes the previous state and returns a new one; it never changes its input.
 *
 * Tables deal only when told: after each hand a table reports and waits for `deal`. Players move only
 * out of a table that is waiting (between its hands), so a move never takes a player out of a hand;
 * they may move into a table in the middle of a hand and are dealt in from its next one.
 *
 * Registration may stay open after the start (`startDirector` with `registrationOpen`). While it is,
 * {@link lateEntry} seats new entries and re-entries of busted players (at the smallest table, or at a
 * new one when every table is full), busts are held unplaced (the field, so the places and the prizes,
 * is not known yet), hand-for-hand never starts, and a lone player left waits for company instead of
 * winning. {@link closeRegistration} takes the final prizes, places and pays the held busts as if the
 * field had been known (the earliest bust the worst place), and plays on. The ledger pays entries, not
 * users: every `award` names the entry.
 *
 * A break ({@link setBreak}) holds every deal: tables finish the hand they play and wait, and its end
 * deals them all. {@link addOn} adds chips once per entry to a seated player: at once if their table
 * waits between hands, else when that table reports the hand it plays (the chips cannot reach a stack
 * in the middle of a hand). Add-ons grow the pool after registration closed: {@link raisePrizes} takes
 * the new prizes without changing what was already paid. A checkpoint written before these ops existed
 * is read through {@link upgradeDirectorState}, which every op applies to its input.
 */
import { orderFromButton } from '../hand/seats.js';
import { randomInt, type Rng } from '../rng.js';
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
  /** Which of the player's entries this record is: 1, then 2, 3, … for re-entries. */
  entryNo: number;
  /** Add-ons this entry took (one at most). */
  addOns: number;
}

/** A busted entry not placed yet: busts wait for the field to be known while registration is open. */
export interface UnplacedEntry {
  readonly player: string;
  readonly entryNo: number;
  /** The entry's chips when the hand in which it busted began (the simultaneous bust rule's order). */
  readonly startingStack: number;
}

/**
 * An add-on bought while the player's table played a hand: it counts as taken at once (the entry's
 * `addOns` is 1), and its chips join the stack when that table reports the hand.
 */
export interface QueuedAddOn {
  readonly player: string;
  readonly entryNo: number;
  readonly chips: number;
}

/** An earlier entry of a player who re-entered: where it finished and what it paid, once known. */
export interface PastEntry {
  readonly player: string;
  readonly entryNo: number;
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
  /**
   * What each paid place wins, best first (placePrizes of the pool and the field). Provisional (maybe
   * empty) while registration is open: {@link closeRegistration} sets the final ones.
   */
  prizes: readonly number[];
  readonly rule: SimultaneousBustRule;
  /** Tournament chips in play: they change only with a late entry or an add-on (once applied). */
  chipsInPlay: number;
  /** The current entry of every player who ever entered, by player. */
  players: Record<string, DirectorPlayer>;
  /** Late entries and re-entries are taken: busts are held in `unplaced`, nobody wins yet. */
  registrationOpen: boolean;
  /** The busts of each hand while registration was open, earliest first, placed when it closes. */
  unplaced: UnplacedEntry[][];
  /** Entries replaced by a re-entry, in the order they were replaced. */
  pastEntries: PastEntry[];
  /** A break: no table is dealt, each waits once it reports, until {@link setBreak} ends the break. */
  onBreak: boolean;
  /** Add-ons waiting for their table to report its hand, in the order they were bought. */
  addOnsQueued: QueuedAddOn[];
  tables: DirectorTable[];
  /** Players still in: seated, or busted in a hand-for-hand round that has not ended yet. */
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
  /** A new table joins the tournament (a late entry found every table full); it waits for `deal`. */
  | { readonly kind: 'open_table'; readonly table: number }
  /** Take the player from one seat to another, carrying `stack` exactly (out of a waiting table). */
  | {
      readonly kind: 'move';
      readonly moveId: string;
      readonly player: string;
      readonly from: SeatRef | null;
      readonly to: SeatRef;
      readonly stack: number;
    }
  /**
   * Add `chips` to the player's stack at `table`, which waits between hands (an add-on; one bought
   * during a hand comes first in the step of that hand's report, before any move or deal).
   */
  | {
      readonly kind: 'add_chips';
      readonly addId: string;
      readonly player: string;
      readonly table: number;
      /** The player's seat there (a player the hand just ended left without chips sits there again). */
      readonly seat: number;
      readonly chips: number;
    }
  /** The table may deal its next hand (at the current level). */
  | { readonly kind: 'deal'; readonly table: number }
  /** The table is broken or the tournament is over: it deals no more. */
  | { readonly kind: 'close_table'; readonly table: number }
  /** The player's entry `entryNo` is out in `place` and is paid `prize` from the prize pool. */
  | {
      readonly kind: 'award';
      readonly player: string;
      readonly entryNo: number;
      readonly place: number;
      readonly prize: number;
    }
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
 * `from: null`), then every table told to deal. With `registrationOpen`, {@link lateEntry} takes more
 * entries until {@link closeRegistration}, and `prizes` may be provisional (even empty) until then.
 */
export function startDirector(
  players: readonly string[],
  options: {
    readonly maxSeats: number;
    readonly startingStack: number;
    readonly prizes: readonly number[];
    readonly rule: SimultaneousBustRule;
    readonly registrationOpen?: boolean;
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
    registrationOpen: options.registrationOpen ?? false,
    unplaced: [],
    pastEntries: [],
    onBreak: false,
    addOnsQueued: [],
    tables: seating.map((t) => ({ table: t.table, button: null, waiting: false, closed: false, lastHandNo: 0 })),
    remaining: players.length,
    handForHand: { active: false, round: 0, busts: [] },
    nextMoveNo: 1,
    finished: false,
  };
  const commands: DirectorCommand[] = [];
  for (const t of seating) {
    for (const { player, seat } of t.seats) {
      state.players[player] = {
        chips: options.startingStack,
        table: t.table,
        seat,
        place: null,
        prize: 0,
        entryNo: 1,
        addOns: 0,
      };
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
 * with, and each start must be what the director holds for that player), the add-ons its players
 * bought during the hand are added (`add_chips` first, so the table holds the chips before anyone
 * moves or is dealt; a player who lost everything but bought one is not out), busted players are
 * placed and paid, tables are broken and balanced where players can move now, and every waiting table
 * that can deal is told to (none on a break).
 */
export function tableHandEnded(previous: DirectorState, report: HandEndedReport, rng: Rng): DirectorStep {
  const state = upgradeDirectorState(previous);
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
  for (const r of report.results) state.players[r.player]!.chips = r.finalStack;
  commands.push(...applyQueuedAddOns(state, table.table));
  const busts: Bust<string>[] = [];
  for (const r of report.results) {
    const p = state.players[r.player]!;
    if (p.chips === 0) {
      busts.push({ player: r.player, startingStack: r.startingStack });
      p.table = null;
      p.seat = null;
    }
  }

  const hfh = state.handForHand;
  if (state.registrationOpen) {
    holdUnplaced(state, busts);
  } else if (hfh.active) {
    hfh.busts.push(...busts);
  } else {
    commands.push(...place(state, busts));
  }
  if (hfh.active && roundComplete(state)) {
    commands.push(...place(state, hfh.busts));
    hfh.busts = [];
    hfh.round++;
  }
  // While registration is open a lone player waits at their table for late entries.
  if (state.remaining === 1 && !state.registrationOpen) return finish(state, commands);

  commands.push(...rearrange(state, rng));
  updateHandForHand(state);
  commands.push(...deals(state));
  return { state, commands };
}

/**
 * A late entry, or a re-entry of a busted player, while registration is open: `entryNo` is 1 for a
 * player who never entered, else one more than their last entry, which must be out (its record moves
 * to `pastEntries`). The entry takes a random free seat at the open table with the fewest players
 * (ties: the lowest number), or at a new table (`open_table`) when every table is full, with `stack`
 * chips (a `move` from nowhere); then tables are balanced and dealt as after a hand.
 */
export function lateEntry(
  previous: DirectorState,
  player: string,
  entry: { readonly stack: number; readonly entryNo: number },
  rng: Rng,
): DirectorStep {
  const state = upgradeDirectorState(previous);
  const { stack, entryNo } = entry;
  if (!state.registrationOpen || state.finished) {
    throw new TournamentError(TournamentErrorCode.REGISTRATION_CLOSED, 'registration is closed', { player });
  }
  if (!Number.isSafeInteger(stack) || stack <= 0) {
    throw new TournamentError(TournamentErrorCode.AMOUNT_INVALID, `an entry of ${stack} chips`, { player });
  }
  const current = state.players[player];
  if (current !== undefined && current.table !== null) {
    throw new TournamentError(TournamentErrorCode.ALREADY_IN, `${player} is still in`, { player });
  }
  if (entryNo !== (current?.entryNo ?? 0) + 1) {
    throw new TournamentError(
      TournamentErrorCode.ENTRY_INVALID,
      `${player} cannot make entry ${entryNo} after ${current?.entryNo ?? 0}`,
      { player, entryNo },
    );
  }
  if (current !== undefined) {
    state.pastEntries.push({ player, entryNo: current.entryNo, place: current.place, prize: current.prize });
  }
  const commands: DirectorCommand[] = [];
  const to = seatForEntry(state, commands, rng);
  state.players[player] = { chips: stack, table: to.table, seat: to.seat, place: null, prize: 0, entryNo, addOns: 0 };
  state.chipsInPlay += stack;
  state.remaining += 1;
  commands.push({ kind: 'move', moveId: `entry:${player}:${entryNo}`, player, from: null, to, stack });
  commands.push(...rearrange(state, rng));
  updateHandForHand(state);
  commands.push(...deals(state));
  return { state, commands };
}

/** A random free seat at the smallest open table with room, or at a new table when all are full. */
function seatForEntry(state: DirectorState, commands: DirectorCommand[], rng: Rng): SeatRef {
  let pick: TableSeating<string> | null = null;
  for (const t of directorSeating(state)) {
    if (t.seats.length >= state.maxSeats) continue;
    if (
      pick === null ||
      t.seats.length < pick.seats.length ||
      (t.seats.length === pick.seats.length && t.table < pick.table)
    )
      pick = t;
  }
  if (pick === null) {
    const table = Math.max(0, ...state.tables.map((t) => t.table)) + 1;
    state.tables.push({ table, button: null, waiting: true, closed: false, lastHandNo: 0 });
    commands.push({ kind: 'open_table', table });
    return { table, seat: 1 + randomInt(rng, state.maxSeats) };
  }
  const taken = new Set(pick.seats.map((s) => s.seat));
  const free = Array.from({ length: state.maxSeats }, (_, i) => i + 1).filter((s) => !taken.has(s));
  return { table: pick.table, seat: free[randomInt(rng, free.length)]! };
}

/**
 * Registration closes with the final `prizes` (from the final pool and field). The busts held while it
 * was open are placed as if the field had been known from the start: the latest just below the players
 * still in, each earlier one below it, so the earliest bust takes the worst place. They are paid, and
 * play goes on (or ends, if one player is left).
 */
export function closeRegistration(previous: DirectorState, prizes: readonly number[]): DirectorStep {
  const state = upgradeDirectorState(previous);
  if (!state.registrationOpen || state.finished) {
    throw new TournamentError(TournamentErrorCode.REGISTRATION_CLOSED, 'registration is already closed');
  }
  checkPrizes(prizes);
  state.registrationOpen = false;
  state.prizes = [...prizes];
  const commands: DirectorCommand[] = [];
  let above = state.remaining;
  for (let i = state.unplaced.length - 1; i >= 0; i--) {
    const group = state.unplaced[i]!;
    const busts = group.map((e) => ({
      player: { player: e.player, entryNo: e.entryNo },
      startingStack: e.startingStack,
    }));
    commands.push(...pay(state, placeBusts(busts, above, state.rule)));
    above += group.length;
  }
  state.unplaced = [];
  updateHandForHand(state);
  if (state.remaining === 1) return finish(state, commands);
  commands.push(...deals(state));
  return { state, commands };
}

/**
 * An add-on: `chips` more for a seated player, once per entry (the service offers it at a break).
 * If the player's table waits between hands the chips are added now (`add_chips`). If it plays a hand
 * they cannot be: the add-on is queued, taken for the entry at once (a second one is refused), and its
 * chips are added when the table reports that hand ({@link tableHandEnded}); until then the director
 * holds the stack the hand started with, as the table does.
 */
export function addOn(previous: DirectorState, player: string, chips: number): DirectorStep {
  const state = upgradeDirectorState(previous);
  const p = state.players[player];
  const table = state.tables.find((t) => p !== undefined && t.table === p.table);
  if (state.finished || p === undefined || table === undefined || table.closed) {
    throw new TournamentError(TournamentErrorCode.ADD_ON_NOT_NOW, `${player} is not seated at a table`, { player });
  }
  if (p.addOns > 0) {
    throw new TournamentError(TournamentErrorCode.ADD_ON_TAKEN, `${player} took entry ${p.entryNo}'s add-on`, {
      player,
      entryNo: p.entryNo,
    });
  }
  if (!Number.isSafeInteger(chips) || chips <= 0) {
    throw new TournamentError(TournamentErrorCode.AMOUNT_INVALID, `an add-on of ${chips} chips`, { player });
  }
  p.addOns += 1;
  if (!table.waiting) {
    state.addOnsQueued.push({ player, entryNo: p.entryNo, chips });
    return { state, commands: [] };
  }
  return { state, commands: [addChips(state, player, chips)] };
}

/** Adds an add-on's chips to the player's stack (and to the chips in play), at the player's table. */
function addChips(state: DirectorState, player: string, chips: number): DirectorCommand {
  const p = state.players[player]!;
  p.chips += chips;
  state.chipsInPlay += chips;
  return { kind: 'add_chips', addId: `addon:${player}:${p.entryNo}`, player, table: p.table!, seat: p.seat!, chips };
}

/** The add-ons queued for the players of `table`, which has just reported: added now, in order. */
function applyQueuedAddOns(state: DirectorState, table: number): DirectorCommand[] {
  const commands: DirectorCommand[] = [];
  state.addOnsQueued = state.addOnsQueued.filter((q) => {
    const p = state.players[q.player];
    if (p?.entryNo !== q.entryNo || p.table !== table) return true;
    commands.push(addChips(state, q.player, q.chips));
    return false;
  });
  return commands;
}

/**
 * Starts a break (`true`) or ends it (`false`). On a break nothing is dealt: each table finishes the
 * hand it plays, reports, and waits (busts are still placed, tables still broken and balanced, since
 * only waiting tables move). The end of the break deals every waiting table that can deal, as after a
 * report (hand-for-hand still holds a round that is not over). Setting what is already set changes
 * nothing: the same state comes back, with no commands, as for a report heard twice.
 */
export function setBreak(previous: DirectorState, onBreak: boolean): DirectorStep {
  const state = upgradeDirectorState(previous);
  if (state.onBreak === onBreak) return { state: previous, commands: [] };
  state.onBreak = onBreak;
  return { state, commands: onBreak ? [] : deals(state) };
}

/**
 * New prizes, best place first, for a pool that grew (add-ons) after the prizes were set. While
 * registration is open they replace the provisional ones ({@link closeRegistration} sets the final
 * ones). Once it is closed, places `remaining + 1` and below are paid already: each keeps what it was
 * paid (the old prize of the place), and what the new prizes give those places beyond (or short of)
 * that goes to first place. So the prizes paid over the whole tournament add up exactly to the new
 * prizes' total: first gets `prizes[0] + Σ over the paid places p of (prizes[p] − paid[p])`, every place
 * still to be paid gets `prizes[p]`. Each amount, and first place's, must be a safe non-negative
 * integer (AMOUNT_INVALID); once the tournament is over every prize is paid (PRIZES_PAID). No commands:
 * the prizes are paid as the places are.
 */
export function raisePrizes(previous: DirectorState, prizes: readonly number[]): DirectorStep {
  const state = upgradeDirectorState(previous);
  if (state.finished) {
    throw new TournamentError(TournamentErrorCode.PRIZES_PAID, 'the tournament is over: every prize is paid');
  }
  checkPrizes(prizes);
  if (state.registrationOpen) {
    state.prizes = [...prizes];
    return { state, commands: [] };
  }
  const paidFrom = state.remaining;
  const length = Math.max(prizes.length, state.prizes.length);
  const next = Array.from({ length }, (_, i) => (i < paidFrom ? (prizes[i] ?? 0) : (state.prizes[i] ?? 0)));
  let difference = 0;
  for (let i = paidFrom; i < length; i++) difference += (prizes[i] ?? 0) - next[i]!;
  // Places past the new prizes that were paid nothing are not paid places: the bubble stays where the
  // new prizes put it.
  while (next.length > prizes.length && next[next.length - 1] === 0) next.pop();
  if (next.length > 0) next[0]! += difference;
  checkPrizes(next);
  state.prizes = next;
  updateHandForHand(state);
  return { state, commands: [] };
}

/** Every prize a safe non-negative integer. */
function checkPrizes(prizes: readonly number[]): void {
  for (const prize of prizes) {
    if (!Number.isSafeInteger(prize) || prize < 0) {
      throw new TournamentError(TournamentErrorCode.AMOUNT_INVALID, `a prize of ${prize}`, { prize });
    }
  }
}

/**
 * A checkpoint as written before late registration, re-entry, add-ons and breaks: their fields may be
 * absent.
 */
export type StoredDirectorState = Omit<
  DirectorState,
  'players' | 'registrationOpen' | 'unplaced' | 'pastEntries' | 'onBreak' | 'addOnsQueued'
> &
  Partial<Pick<DirectorState, 'registrationOpen' | 'unplaced' | 'pastEntries' | 'onBreak' | 'addOnsQueued'>> & {
    players: Record<
      string,
      Omit<DirectorPlayer, 'entryNo' | 'addOns'> & Partial<Pick<DirectorPlayer, 'entryNo' | 'addOns'>>
    >;
  };

/**
 * A copy of a checkpoint with every field this version holds: an older one had registration closed,
 * nothing unplaced, no past entries, first entries, no add-ons (none queued) and no break. A current
 * state comes back equal.
 */
export function upgradeDirectorState(stored: StoredDirectorState): DirectorState {
  const copy = JSON.parse(JSON.stringify(stored)) as StoredDirectorState;
  const players: Record<string, DirectorPlayer> = {};
  for (const [id, p] of Object.entries(copy.players))
    players[id] = { ...p, entryNo: p.entryNo ?? 1, addOns: p.addOns ?? 0 };
  return {
    ...copy,
    players,
    registrationOpen: copy.registrationOpen ?? false,
    unplaced: copy.unplaced ?? [],
    pastEntries: copy.pastEntries ?? [],
    onBreak: copy.onBreak ?? false,
    addOnsQueued: copy.addOnsQueued ?? [],
  };
}

/** A table reports a hand only while it plays one: not while it waits for `deal`. */
function isPlaying(table: DirectorTable): boolean {
  return !table.waiting;
}

/** Every table is between hands: the hand-for-hand round is over. */
function roundComplete(state: DirectorState): boolean {
  return state.tables.every((t) => t.closed || t.waiting);
}

/**
 * Hand-for-hand while one more bust reaches the money and more than one table plays; never while
 * registration is open, when the prizes and so the bubble are not known.
 */
function updateHandForHand(state: DirectorState): void {
  const open = state.tables.filter((t) => !t.closed).length;
  const onBubble = !state.registrationOpen && state.remaining === state.prizes.length + 1 && open > 1;
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
  const entries = busts.map((b) => ({
    player: { player: b.player, entryNo: state.players[b.player]!.entryNo },
    startingStack: b.startingStack,
  }));
  return pay(state, placeBusts(entries, state.remaining, state.rule));
}

/** One elimination event while registration is open: out of their seats, placed at the close. */
function holdUnplaced(state: DirectorState, busts: readonly Bust<string>[]): void {
  if (busts.length === 0) return;
  state.remaining -= busts.length;
  state.unplaced.push(
    busts.map((b) => ({ player: b.player, entryNo: state.players[b.player]!.entryNo, startingStack: b.startingStack })),
  );
}

interface EntryRef {
  readonly player: string;
  readonly entryNo: number;
}

/** Pays placed groups (ties share their places' prizes) and records each entry's place and prize. */
function pay(state: DirectorState, groups: readonly { place: number; players: EntryRef[] }[]): DirectorCommand[] {
  const commands: DirectorCommand[] = [];
  for (const group of groups) {
    for (const share of shareTiedPlaces(state.prizes, group.place, group.players)) {
      const record = entryRecord(state, share.player);
      record.place = share.place;
      record.prize = share.amount;
      const { player, entryNo } = share.player;
      commands.push({ kind: 'award', player, entryNo, place: share.place, prize: share.amount });
    }
  }
  return commands;
}

/** The record of one entry: the player's current one, or an earlier one they re-entered after. */
function entryRecord(state: DirectorState, entry: EntryRef): { place: number | null; prize: number } {
  const current = state.players[entry.player];
  if (current?.entryNo === entry.entryNo) return current;
  const past = state.pastEntries.find((e) => e.player === entry.player && e.entryNo === entry.entryNo);
  if (past === undefined) {
    throw new TournamentError(TournamentErrorCode.ENTRY_INVALID, `${entry.player} has no entry ${entry.entryNo}`, {
      player: entry.player,
      entryNo: entry.entryNo,
    });
  }
  return past;
}

function finish(state: DirectorState, commands: DirectorCommand[]): DirectorStep {
  const [winner] = Object.entries(state.players).find(([, p]) => p.place === null && p.table !== null) ?? [];
  if (winner === undefined) throw new TournamentError(TournamentErrorCode.FIELD_SIZE, 'nobody is left to win');
  const p = state.players[winner]!;
  p.place = 1;
  p.prize = state.prizes[0] ?? 0;
  p.table = null;
  p.seat = null;
  commands.push({ kind: 'award', player: winner, entryNo: p.entryNo, place: 1, prize: p.prize });
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

/**
 * `deal` to every waiting table with two players or more, unless hand-for-hand holds it for the round
 * or a break holds every table (an empty table still closes).
 */
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
    if (players < 2 || state.onBreak) continue;
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
