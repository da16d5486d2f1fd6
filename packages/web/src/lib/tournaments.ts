// What the lobby's tournaments tab says (docs/dev/contracts.md, "Tournaments API"): the list's format,
// status, price, field and start; one tournament's structure (its levels, their length and the
// breaks between them, from the resolved config the lobby sends, read with @felt/protocol's own
// parser), its re-entry rule and add-on, its entrants, whether the player may register, unregister or
// re-enter now, and the add-on on sale to them. Pure functions; the sentences come from the catalog.
import { LobbyApiError, type LobbyTournamentDetail, type LobbyTournamentSummary } from '@felt/client';
import { LobbyErrorCode, safeParseTournamentConfig } from '@felt/protocol';
import { t } from '../i18n/i18n.js';
import { errorText } from './error-text.js';
import { chips, dateTimeText, untilText } from './format.js';

/** How often the tab reads the list (and the tournament shown) again while the page is visible. */
export const TOURNAMENTS_POLL_MS = 5_000;

export type TournamentFormat = LobbyTournamentSummary['format'];
export type TournamentStatus = LobbyTournamentSummary['status'];
export type TournamentPlayer = LobbyTournamentDetail['players'][number];

/** "Sit-and-go" or "Scheduled". */
export function formatText(format: TournamentFormat): string {
  return t(`tournaments.format.${format}`);
}

/**
 * "Registering", "Running", "Finished", "Cancelled"; a running tournament that still takes entries
 * says so: "Running, late registration open", or "Running, late registration and re-entry open" when
 * a busted player may also buy in again (re-entry is only ever open within late registration).
 */
export function statusText(status: TournamentStatus, lateRegistrationOpen = false, reEntryOpen = false): string {
  if (status === 'running' && reEntryOpen) return t('tournaments.lateRegistrationReEntry');
  if (status === 'running' && lateRegistrationOpen) return t('tournaments.lateRegistration');
  return t(`tournaments.status.${status}`);
}

/** What one entry costs: "100 + 10" (buy-in to the prize pool, fee to the house), "100", or "Freeroll". */
export function priceText(buyIn: number, fee: number): string {
  if (buyIn === 0 && fee === 0) return t('tournaments.freeroll');
  if (fee === 0) return chips(buyIn);
  return `${chips(buyIn)} + ${chips(fee)}`;
}

/** The field: "3/9" (entrants of the most the tournament takes). */
export function entrantsText(s: Pick<LobbyTournamentSummary, 'entrants' | 'max_entrants'>): string {
  return `${chips(s.entrants)}/${chips(s.max_entrants)}`;
}

/** When it starts: the scheduled time in the page's language, or "When full" for a sit-and-go. */
export function startText(s: Pick<LobbyTournamentSummary, 'starts_at'>): string {
  return s.starts_at === null ? t('tournaments.whenFull') : dateTimeText(s.starts_at);
}

/** One row of the structure table: a level, or a break between two levels. */
export type StructureRow =
  | {
      readonly kind: 'level';
      /** 1 for the first level. */
      readonly level: number;
      readonly smallBlind: number;
      readonly bigBlind: number;
      readonly ante: number;
      readonly bigBlindAnte: number;
    }
  | { readonly kind: 'break'; readonly minutes: number };

export interface StructureView {
  readonly rows: readonly StructureRow[];
  /** Every level's length. */
  readonly length: { readonly unit: 'minutes' | 'hands'; readonly value: number };
  readonly startingStack: number;
  /** How often a busted player may buy in again, and until the end of which level; null: no re-entry. */
  readonly reEntry: { readonly max: number; readonly untilLevel: number } | null;
  /** The add-on sold at the first break: its chips and its cost; null: none. */
  readonly addOn: AddOnTerms | null;
}

/** An add-on: `chips` more tournament chips for `cost` wallet chips (to the prize pool). */
export interface AddOnTerms {
  readonly chips: number;
  readonly cost: number;
}

/**
 * The tournament's levels with a break row after every `everyLevels` levels (none after the last
 * listed level: past it the schedule goes on by doubling, which the tab says in words). Read from the
 * resolved config the lobby sends; null when it does not parse (the tab then says so).
 */
export function tournamentStructure(config: LobbyTournamentDetail['config']): StructureView | null {
  const parsed = safeParseTournamentConfig(config);
  if (!parsed.success) return null;
  const { structure, startingStack, reEntry, addOn } = parsed.config;
  const rows: StructureRow[] = [];
  structure.levels.forEach((l, i) => {
    rows.push({
      kind: 'level',
      level: i + 1,
      smallBlind: l.smallBlind,
      bigBlind: l.bigBlind,
      ante: l.ante,
      bigBlindAnte: l.bigBlindAnte,
    });
    const done = i + 1;
    if (structure.breaks !== null && done % structure.breaks.everyLevels === 0 && done < structure.levels.length) {
      rows.push({ kind: 'break', minutes: structure.breaks.minutes });
    }
  });
  return {
    rows,
    length: structure.levelLength,
    startingStack,
    reEntry: reEntry === null ? null : { max: reEntry.max, untilLevel: reEntry.untilLevel },
    addOn: addOn === null ? null : { chips: addOn.chips, cost: addOn.cost },
  };
}

/** "Up to 2 re-entries, until the end of level 3": the config's re-entry rule, or null when it has none. */
export function reEntryText(reEntry: StructureView['reEntry']): string | null {
  if (reEntry === null) return null;
  return t('tournaments.reEntryRule', { count: reEntry.max, level: reEntry.untilLevel });
}

/**
 * "10,000 chips for 100, at the first break": the config's add-on among the facts ("free" when it
 * costs nothing), or null when it has none.
 */
export function addOnRuleText(addOn: AddOnTerms | null): string | null {
  if (addOn === null) return null;
  return addOn.cost > 0
    ? t('tournaments.addOnRule', { chips: chips(addOn.chips), cost: chips(addOn.cost) })
    : t('tournaments.addOnRuleFree', { chips: chips(addOn.chips) });
}

/** "Buy the add-on: 10,000 chips for 100" (or "Take the add-on: 10,000 chips, free"): the button. */
export function addOnBuyText(addOn: AddOnTerms): string {
  return addOn.cost > 0
    ? t('tournaments.addOnBuy', { chips: chips(addOn.chips), cost: chips(addOn.cost) })
    : t('tournaments.addOnBuyFree', { chips: chips(addOn.chips) });
}

/** The add-on on sale to the player now: what it gives and costs, and when its sale ends. */
export interface AddOnOffer extends AddOnTerms {
  /** When the sale ends (ms since the epoch, the lobby's clock); null when the lobby did not say. */
  readonly until: number | null;
}

/**
 * The add-on the lobby's detail offers the player now (`can_add_on`: on sale, and they play an entry
 * that has not bought it), with its terms from the config; null otherwise. The lobby decides: a
 * player who bought it, or is out, is offered nothing (the detail says only that they cannot buy).
 */
export function addOnOffer(
  d: Pick<LobbyTournamentDetail, 'can_add_on' | 'add_on_until' | 'config'>,
): AddOnOffer | null {
  const terms = d.config.addOn;
  if (!d.can_add_on || terms === null || terms === undefined) return null;
  const until = d.add_on_until === null ? Number.NaN : Date.parse(d.add_on_until);
  return { chips: terms.chips, cost: terms.cost, until: Number.isNaN(until) ? null : until };
}

/**
 * "On sale until 18:35 (4:12 left)" at time `now` (the lobby's clock, ms); "On sale during the break"
 * when the lobby gave no end. `offsetMs` (that clock minus this browser's) puts the end in local time.
 */
export function addOnUntilText(until: number | null, now: number, offsetMs = 0): string {
  if (until === null) return t('tournaments.addOnDuringBreak');
  return untilText('tournaments.addOnUntil', until, until - now, offsetMs);
}

/** An add-on's refusal: in words, and whether it means the offer is over. */
export interface AddOnRefusal {
  readonly text: string;
  /** The sale is over, or the player plays no entry: nothing is left to offer them. */
  readonly over: boolean;
}

/**
 * An add-on's refusal. The lobby answers `tournament_closed` when none is on sale, which for a player
 * it was offered to means the sale is over (the break ended); `not_registered` when they no longer
 * play an entry (out meanwhile): both end the offer. Every other refusal (insufficient_funds,
 * rate_limited, …) reads as the catalog's sentence for its code, and leaves the offer as it was.
 */
export function addOnRefusal(err: unknown): AddOnRefusal {
  if (err instanceof LobbyApiError && err.code === LobbyErrorCode.TOURNAMENT_CLOSED) {
    return { text: t('tournaments.addOnClosed'), over: true };
  }
  if (err instanceof LobbyApiError && err.code === LobbyErrorCode.NOT_REGISTERED) {
    return { text: t('tournaments.addOnNotPlaying'), over: true };
  }
  return { text: errorText(err), over: false };
}

/** "10 min" or "12 hands": a level's length. */
export function levelLengthText(length: StructureView['length']): string {
  return length.unit === 'minutes'
    ? t('tournaments.minutes', { count: length.value })
    : t('tournaments.hands', { count: length.value });
}

/** "25/50". */
export function blindsText(row: { readonly smallBlind: number; readonly bigBlind: number }): string {
  return `${chips(row.smallBlind)}/${chips(row.bigBlind)}`;
}

/** The level's ante: every player's ("10"), the big blind's for the table ("50 (big blind)"), or a dash. */
export function anteText(row: { readonly ante: number; readonly bigBlindAnte: number }): string {
  if (row.ante > 0) return chips(row.ante);
  if (row.bigBlindAnte > 0) return t('tournaments.bbAnte', { amount: chips(row.bigBlindAnte) });
  return '\u2014';
}

/** What the player may do about their entry now. */
export const Registration = {
  /** Registering, not registered, a place free: Register. */
  REGISTER: 'register',
  /** Registering and registered: Unregister (buy-in and fee back). */
  UNREGISTER: 'unregister',
  /** Running, your last entry out, and the lobby takes another (`can_re_enter`): Re-enter (buy-in and fee again). */
  RE_ENTER: 're_enter',
  /** Registering, not registered, every place taken. */
  FULL: 'full',
  /** Started (late registration over, already in, or out with no re-entry), finished or cancelled: nothing to do. */
  CLOSED: 'closed',
} as const;
export type Registration = (typeof Registration)[keyof typeof Registration];

/**
 * Register, Unregister, Re-enter, full or closed, from the tournament as last read. The lobby still
 * decides (a start time that has just passed, a place taken meanwhile, re-entry closing at the end of
 * its level): its refusal is shown as it comes.
 */
export function registration(
  d: Pick<
    LobbyTournamentDetail,
    'status' | 'registered' | 'entrants' | 'max_entrants' | 'late_registration_open' | 'can_re_enter' | 'players'
  >,
  meId?: string,
): Registration {
  // Re-entry: the lobby says whether this player may buy in again now (their last entry out, re-entry
  // open, re-entries left); the rule is not worked out again here.
  if (d.can_re_enter) return Registration.RE_ENTER;
  // Late registration: a running tournament still takes entries, which cannot be taken back; a player
  // already out of it enters again only by re-entry, which the lobby offers above.
  const late = d.status === 'running' && d.late_registration_open;
  if (d.status !== 'registering' && !late) return Registration.CLOSED;
  if (d.registered) return late ? Registration.CLOSED : Registration.UNREGISTER;
  if (late && d.players.some((p) => p.user_id === meId)) return Registration.CLOSED;
  return d.entrants >= d.max_entrants ? Registration.FULL : Registration.REGISTER;
}

/**
 * A re-entry's refusal in words. The lobby refuses one as it refuses any registration; its
 * `tournament_closed` then means re-entry is over for this player (closed at the end of its level,
 * late registration closed, or no re-entry left), which the general sentence (started, ended or
 * cancelled) would not say. Every other refusal reads as the catalog's sentence for its code.
 */
export function reEntryErrorText(err: unknown): string {
  if (err instanceof LobbyApiError && err.code === LobbyErrorCode.TOURNAMENT_CLOSED) {
    return t('tournaments.reEntryClosed');
  }
  return errorText(err);
}

/**
 * A player's line in the entrants list: "Registered", "Playing", "Out, placed when registration
 * closes" (busted while late registration is open), "Place 3", "Place 1, won 450".
 */
export function playerStatusText(p: Pick<TournamentPlayer, 'status' | 'place' | 'prize'>): string {
  if (p.place === null) return t(`tournaments.playerStatus.${p.status}`);
  return p.prize > 0
    ? t('tournaments.placeWon', { place: p.place, amount: chips(p.prize) })
    : t('tournaments.place', { place: p.place });
}

/**
 * "Entry 2": the mark of a re-entry on its row of the entrants list (one row per entry, numbered by
 * the lobby's `entry_no`: 1 for a first entry, 2 and on for re-entries). Null for a first entry.
 */
export function entryMarkText(p: Pick<TournamentPlayer, 'entry_no'>): string | null {
  return p.entry_no > 1 ? t('tournaments.entryMark', { number: p.entry_no }) : null;
}
