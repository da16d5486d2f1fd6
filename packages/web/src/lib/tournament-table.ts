// What a tournament's table says about the tournament (docs/protocol.md, "Tournaments"): the level and
// its blinds, the time to the next level or the end of a break, the field, the player's place by the
// rank of their stack, and the place and prize once they are out (or won). Pure functions over the
// table's `tournament` view; the sentences come from the catalog.
import type { TournamentView } from '@felt/protocol';
import { formatTime, t } from '../i18n/i18n.js';
import { chips, clockText } from './format.js';
import { blindsText } from './tournaments.js';

export type TournamentLevel = TournamentView['level'];

/** Where a player finished: their place (1 is the winner) and the prize paid to their wallet. */
export interface TournamentResult {
  readonly place: number;
  readonly prize: number;
}

/** A tournament table as the page keeps it: the director's last word, your place, your result. */
export interface TournamentSeatState {
  readonly view: TournamentView;
  /**
   * Your place now, by the rank of your stack in the field's stacks; null when you are not seated
   * here (watching, or out). Kept through a hand: the stacks are the director's between hands.
   */
  readonly place: number | null;
  /** Your place and prize once you are out or have won; kept after `placed` has forgotten you. */
  readonly result: TournamentResult | null;
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
 * nothing new, the state stays). Your result is taken from `placed` the first time you appear there,
 * and kept. Your place is read again between hands only: during a hand your stack is what is left
 * behind your bets, while the field's stacks are from before the hand. Joined in the middle of a
 * hand, the place is read from your stack and this round's bet (exact before the flop).
 */
export function followTournament(
  prev: TournamentSeatState | null,
  view: TournamentView | null | undefined,
  hero: HeroChips | null,
  userId: string | null,
): TournamentSeatState | null {
  if (view === null || view === undefined) return prev;
  const mine = userId === null ? undefined : view.placed.find((p) => p.user_id === userId);
  const result =
    prev?.view.tournament_id === view.tournament_id && prev.result !== null
      ? prev.result
      : mine !== undefined
        ? { place: mine.place, prize: mine.prize }
        : null;
  let place: number | null;
  if (hero === null || result !== null) place = null;
  else if (hero.inHand && prev?.place != null) place = prev.place;
  else place = placeFromStacks(view.stacks, hero.stack + hero.bet);
  if (prev !== null && prev.view === view && prev.place === place && prev.result === result) return prev;
  return { view, place, result };
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
      return t('tournamentTable.breakUntil', {
        time: formatTime(new Date(clock.endsAt - serverOffsetMs)),
        left: clockText(clock.remainingMs),
      });
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
