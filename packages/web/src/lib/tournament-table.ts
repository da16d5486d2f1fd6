// What a tournament's table says about the tournament (docs/protocol.md, "Tournaments"): the level and
// its blinds, the time to the next level or the end of a break, the field, the player's place by the
// rank of their stack, the place and prize once they are out (or won): their last entry's, as the
// lobby tells which entry that is, and the add-on the lobby sells them during a break. Pure functions
// over the table's `tournament` view and the lobby's tournament detail; the sentences come from the catalog.
import { latestEntry, type LobbyTournamentDetail } from '@felt/client';
import type { TournamentView } from '@felt/protocol';
import { t } from '../i18n/i18n.js';
import { chips, clockText, untilText } from './format.js';
import { addOnOffer, blindsText, type AddOnOffer } from './tournaments.js';

export type TournamentLevel = TournamentView['level'];

/** Where a player finished: their place (1 is the winner) and the prize paid to their wallet. */
export interface TournamentResult {
  readonly place: number;
  readonly prize: number;
}

/** One row of the view's `placed`: an entry out (or the winner), with its place and prize. */
export type PlacedEntry = TournamentView['placed'][number];

/** A tournament table as the page keeps it: the director's last word, your place, your result. */
export interface TournamentSeatState {
  readonly view: TournamentView;
  /**
   * Your place now, by the rank of your stack in the field's stacks; null when you are not seated
   * here (watching, or out). Kept through a hand: the stacks are the director's between hands.
   */
  readonly place: number | null;
  /**
   * Your place and prize once your last entry is out or has won; kept after `placed` has forgotten
   * you. Never an earlier entry's: a player who re-entered plays on after their first entry's place
   * is published.
   */
  readonly result: TournamentResult | null;
  /**
   * A row of yours in `placed` that may be an earlier entry's (the page does not know yet whether you
   * re-entered since): no result until the lobby tells which entry is your latest. Null when none.
   */
  readonly pending: PlacedEntry | null;
}

/** What the lobby said of your entries in a tournament (its detail has one row per entry). */
export interface YourEntries {
  /** Your latest entry's number (1, then 2 and on for re-entries); null when the lobby lists none of yours. */
  readonly latest: number | null;
  /**
   * No entry can follow `latest`: the lobby takes no more (the tournament runs with late registration
   * and re-entry closed, or is over).
   */
  readonly final: boolean;
}

/** Your entries as the lobby's tournament detail lists them: the latest one's number, and whether it is your last. */
export function yourEntries(
  detail: Pick<LobbyTournamentDetail, 'status' | 'late_registration_open' | 're_entry_open' | 'players'>,
  userId: string | null,
): YourEntries {
  const latest = latestEntry(detail.players, userId)?.entry_no ?? null;
  const final =
    detail.status === 'finished' ||
    detail.status === 'cancelled' ||
    (detail.status === 'running' && !detail.late_registration_open && !detail.re_entry_open);
  return { latest, final };
}

/**
 * A row of yours in `placed`, judged by what the lobby said of your entries: your result (your latest
 * entry's, and no entry can follow it), none (an earlier entry's: you re-entered since), or not known
 * yet (pending: the lobby is to be asked). With `known` null (the lobby not read) it is not known.
 */
function judge(
  row: PlacedEntry,
  known: YourEntries | null,
): { readonly result: TournamentResult | null; readonly pending: PlacedEntry | null } {
  if (known === null) return { result: null, pending: row };
  // A later entry of yours exists: this one is over, and it is not your result.
  if (known.latest !== null && row.entry_no < known.latest) return { result: null, pending: null };
  // Another entry may still come: this row's entry may not be your last.
  if (!known.final) return { result: null, pending: row };
  return row.entry_no === known.latest
    ? { result: { place: row.place, prize: row.prize }, pending: null }
    : { result: null, pending: null };
}

/** The hero's chips as the snapshot shows them, and whether a hand of theirs is on. */
export interface HeroChips {
  /** Chips behind. */
  readonly stack: number;
  /** Chips in front of the hero in this betting round (0 between hands). */
  readonly bet: number;
  readonly inHand: boolean;
}

/**
 * A player's place by the rank of their stack among the field's stacks (largest first): one more than
 * the stacks larger than theirs, so equal stacks share the better place. Null for an empty field.
 */
export function placeFromStacks(stacks: readonly number[], stack: number): number | null {
  if (stacks.length === 0) return null;
  const above = stacks.filter((s) => s > stack).length;
  return Math.min(above + 1, stacks.length);
}

/**
 * The next state of a tournament table from a new view of it (`view` absent: the snapshot said
 * nothing new, the state stays). Your result is your last entry's row in `placed`, and kept: of your
 * rows there (one per entry out), the latest entry's is taken as it comes when `known` (what the
 * lobby said of your entries) says no entry follows it, ignored when `known` names a later entry, and
 * otherwise held as `pending` until the lobby is asked ({@link judgeAgain}). `known` may be given as
 * a function: it is then called only when there is a row of yours to judge. Your place is read again
 * between hands only: during a hand your stack is what is left behind your bets, while the field's
 * stacks are from before the hand. Joined in the middle of a hand, the place is read from your stack
 * and this round's bet (exact before the flop).
 */
export function followTournament(
  prev: TournamentSeatState | null,
  view: TournamentView | null | undefined,
  hero: HeroChips | null,
  userId: string | null,
  known: YourEntries | null | (() => YourEntries | null),
): TournamentSeatState | null {
  if (view === null || view === undefined) return prev;
  const same = prev?.view.tournament_id === view.tournament_id;
  let result = same ? prev.result : null;
  let pending = same ? prev.pending : null;
  if (result === null && userId !== null) {
    // Your latest entry's row, here or held from before.
    let row = pending;
    for (const p of view.placed) {
      if (p.user_id === userId && (row === null || p.entry_no > row.entry_no)) row = p;
    }
    if (row !== null) ({ result, pending } = judge(row, typeof known === 'function' ? known() : known));
  }
  let place: number | null;
  if (hero === null || result !== null) place = null;
  else if (hero.inHand && prev?.place != null) place = prev.place;
  else place = placeFromStacks(view.stacks, hero.stack + hero.bet);
  if (
    prev !== null &&
    prev.view === view &&
    prev.place === place &&
    prev.result === result &&
    prev.pending === pending
  ) {
    return prev;
  }
  return { view, place, result, pending };
}

/**
 * The state once the lobby has said more of your entries: a pending row becomes your result (your
 * last entry's), or is dropped (an earlier entry's), or stays pending. The same state when nothing changes.
 */
export function judgeAgain(state: TournamentSeatState, known: YourEntries): TournamentSeatState {
  if (state.result !== null || state.pending === null) return state;
  const { result, pending } = judge(state.pending, known);
  if (result === null && pending === state.pending) return state;
  return { ...state, result, pending, place: result !== null ? null : state.place };
}

/** What the level clock shows. */
export type LevelClock =
  /** The level ends in `remainingMs`. */
  | { readonly kind: 'level'; readonly remainingMs: number }
  /** The level's time is up: the next level starts with the next hand. */
  | { readonly kind: 'level_due' }
  /** A break: no hand until `endsAt` (server ms). */
  | { readonly kind: 'break'; readonly endsAt: number; readonly remainingMs: number }
  /** Levels measured in hands: there is no clock. */
  | { readonly kind: 'hands' }
  /** One player left: the tournament is over, no level follows. */
  | { readonly kind: 'over' };

/** The level clock at server time `now`. */
export function levelClock(
  view: Pick<TournamentView, 'level_ends_at' | 'break_ends_at' | 'players_left'>,
  now: number,
): LevelClock {
  if (view.players_left <= 1) return { kind: 'over' };
  if (view.break_ends_at !== null) {
    return { kind: 'break', endsAt: view.break_ends_at, remainingMs: Math.max(0, view.break_ends_at - now) };
  }
  if (view.level_ends_at === null) return { kind: 'hands' };
  const remainingMs = view.level_ends_at - now;
  return remainingMs > 0 ? { kind: 'level', remainingMs } : { kind: 'level_due' };
}

/**
 * "Next level in 4:32", "Next level with the next hand", "Break until 18:35 (4:12 left)", "Levels by
 * hands" or "The tournament is over". `serverOffsetMs` (server time minus this browser's) puts the break's end in local time.
 */
export function levelClockText(clock: LevelClock, serverOffsetMs = 0): string {
  switch (clock.kind) {
    case 'level':
      return t('tournamentTable.nextLevelIn', { time: clockText(clock.remainingMs) });
    case 'level_due':
      return t('tournamentTable.nextLevelDue');
    case 'break':
      return untilText('tournamentTable.breakUntil', clock.endsAt, clock.remainingMs, serverOffsetMs);
    case 'hands':
      return t('tournamentTable.levelsByHands');
    case 'over':
      return t('tournamentTable.over');
  }
}

/** "Level 3". */
export function levelText(level: Pick<TournamentLevel, 'number'>): string {
  return t('tournamentTable.level', { level: level.number });
}

/** The level's blinds and ante: "100/200", "100/200, ante 25", "100/200, big blind ante 200". */
export function levelStakesText(level: TournamentLevel): string {
  const blinds = blindsText({ smallBlind: level.small_blind, bigBlind: level.big_blind });
  if (level.ante > 0) return t('tournamentTable.withAnte', { blinds, amount: chips(level.ante) });
  if (level.big_blind_ante > 0) return t('tournamentTable.withBbAnte', { blinds, amount: chips(level.big_blind_ante) });
  return blinds;
}

/** "Players 5/9": players left of the entrants. */
export function fieldText(view: Pick<TournamentView, 'players_left' | 'entrants'>): string {
  return t('tournamentTable.players', { left: chips(view.players_left), entrants: chips(view.entrants) });
}

/** "Place 2 of 5": your place among the players left. */
export function placeText(place: number, view: Pick<TournamentView, 'players_left'>): string {
  return t('tournamentTable.place', { place: chips(place), left: chips(Math.max(place, view.players_left)) });
}

/** The result panel's title: "You won the tournament!" or "You are out of the tournament". */
export function resultTitle(result: TournamentResult): string {
  return result.place === 1 ? t('tournamentTable.resultWon') : t('tournamentTable.resultOut');
}

/** "You finished in place 3 of 7." */
export function resultPlaceText(result: TournamentResult, entrants: number): string {
  return t('tournamentTable.resultPlace', {
    place: chips(result.place),
    entrants: chips(Math.max(entrants, result.place)),
  });
}

/** "Your prize: 450 chips, paid to your wallet." or "No prize this time." */
export function resultPrizeText(result: TournamentResult): string {
  return result.prize > 0
    ? t('tournamentTable.resultPrize', { amount: chips(result.prize) })
    : t('tournamentTable.resultNoPrize');
}

/** What a tournament table makes of the lobby's detail during a break, about the add-on. */
export type BreakAddOn =
  /** On sale to you now (`can_add_on`): offer it at the table. */
  | { readonly kind: 'offer'; readonly offer: AddOnOffer }
  /**
   * Not on sale yet, in a tournament that has one: its director opens the sale just after the first
   * break starts, so the lobby is asked again (at the tab's pace) while the break lasts.
   */
  | { readonly kind: 'wait' }
  /**
   * Nothing to offer, and nothing will be: no add-on in the config, on sale but not to you (bought, or
   * no entry in play), its sale over, or the tournament over.
   */
  | { readonly kind: 'none' };

/** The add-on at a tournament table during a break, from the lobby's detail (the page's last read, or a fresh one). */
export function breakAddOn(
  d: Pick<LobbyTournamentDetail, 'status' | 'config' | 'add_on_open' | 'add_on_until' | 'can_add_on'>,
): BreakAddOn {
  const offer = addOnOffer(d);
  if (offer !== null) return { kind: 'offer', offer };
  if (d.config.addOn === null || d.config.addOn === undefined) return { kind: 'none' };
  if (d.add_on_open || d.add_on_until !== null) return { kind: 'none' };
  if (d.status === 'finished' || d.status === 'cancelled') return { kind: 'none' };
  return { kind: 'wait' };
}
