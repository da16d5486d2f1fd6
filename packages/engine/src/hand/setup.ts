import { initialDeck, isCard, type Card, type DeckKind } from '../cards.js';
import { isBetLimit, validateStakes, type BetLimit, type Stakes } from '../betting/structure.js';
import { SetupError, SetupErrorCode } from '../errors.js';
import type { GameRules } from '../games/types.js';
import { orderFromButton } from './seats.js';

/**
 * Forced bets. Live ones count toward the poster's bet in the first betting round; dead ones are
 * money in the middle that never counts as a bet.
 */
export const ForcedBetKind = {
  /** Ante from every dealt-in player. Collected as its own round, so a short ante caps a pot. */
  ANTE: 'ante',
  /** One ante for the table, posted by the big blind after the blind: dead money in the main pot. */
  BIG_BLIND_ANTE: 'bb_ante',
  SMALL_BLIND: 'small_blind',
  BIG_BLIND: 'big_blind',
  /** Short deck: the button's blind. */
  BUTTON_BLIND: 'button_blind',
  /** A new or returning player's live big blind, posted out of position. */
  LIVE_POST: 'live_post',
  /** A missed small blind paid on return: dead money in the main pot. */
  DEAD_BLIND: 'dead_blind',
} as const;
export type ForcedBetKind = (typeof ForcedBetKind)[keyof typeof ForcedBetKind];

const FORCED_BET_KINDS = new Set<string>(Object.values(ForcedBetKind));
const DEAD_KINDS = new Set<ForcedBetKind>([ForcedBetKind.BIG_BLIND_ANTE, ForcedBetKind.DEAD_BLIND]);

export function isDeadForcedBet(kind: ForcedBetKind): boolean {
  return DEAD_KINDS.has(kind);
}

export interface ForcedBet {
  readonly seat: number;
  readonly kind: ForcedBetKind;
  /** Nominal amount; a shorter stack posts what it has and is all-in. */
  readonly amount: number;
}

export interface HandPlayerSetup {
  readonly seat: number;
  /** Opaque player id (the table's user id). */
  readonly id: string;
  /** Chips in front of the player when the hand starts. */
  readonly stack: number;
  readonly name?: string;
}

/** The rake (docs/engine.md, "Pots, rake, showdown"). Percentages allow two decimals (basis points). */
export interface RakeConfig {
  readonly percent: number;
  /** Maximum rake per hand; 0 means no cap. */
  readonly cap: number;
  /** Replaces `percent` when exactly two players are still in the hand at settlement. */
  readonly headsUpPercent?: number;
  /** No rake unless the hand saw a flop. Default true. */
  readonly noFlopNoDrop?: boolean;
}

/** Who must show, who may muck and who shows first at showdown (docs/engine.md, "Pots, rake, showdown"). */
export interface ShowdownOptions {
  /** When false, every hand at showdown is shown. */
  readonly allowMuck: boolean;
  /** When true, every hand at showdown is shown. */
  readonly showAllHands: boolean;
  /** Losing hands that are not required to show are mucked; when false they are tabled. */
  readonly autoMuck: boolean;
  readonly lastAggressorShowsFirst: boolean;
  readonly allInMustShow: boolean;
  readonly contestedWinnerMustShow: boolean;
}

export const DEFAULT_SHOWDOWN_OPTIONS: ShowdownOptions = {
  allowMuck: true,
  showAllHands: false,
  autoMuck: true,
  lastAggressorShowsFirst: true,
  allInMustShow: true,
  contestedWinnerMustShow: true,
};

/**
 * House rules on which rooms differ (docs/engine.md, "House rules"). Every field has a default, so a
 * hand set up without them (and every hand stored before they existed) plays as it always did.
 */
export interface HouseRules {
  /**
   * A big blind (or Short Deck's button blind) posted all-in for less than its full amount:
   * `full_blind` (default) keeps the full blind as the bet to call and measures the minimum raise from
   * it (the excess of a caller comes back uncalled); `posted` makes the largest amount actually posted
   * the bet to call, as pokerkit does.
   */
  readonly shortAllInBlind: 'full_blind' | 'posted';
  /**
   * Odd chips of a split pot: `one_each` (default) gives one chip to each winner in turn, clockwise
   * from the button; `first_winner` gives all of them to the first winner clockwise from the button.
   */
  readonly oddChips: 'one_each' | 'first_winner';
  /** Stud and Stud Hi-Lo, fixed limit: an open pair on fourth street allows the big bet (default on). */
  readonly studOpenPairBigBet: boolean;
  /**
   * Fixed limit: an all-in raise of at least half a bet counts as a full raise and reopens the betting
   * for players who already acted (Robert's Rules). Off by default: only full raises (or short all-ins
   * adding up to one) reopen, as in no-limit and as pokerkit plays it.
   */
  readonly limitHalfBetReopens: boolean;
}

export const DEFAULT_HOUSE_RULES: HouseRules = {
  shortAllInBlind: 'full_blind',
  oddChips: 'one_each',
  studOpenPairBigBet: true,
  limitHalfBetReopens: false,
};

/** The house rules of a setup, defaults filled in; refuses values it does not know. */
export function resolveHouseRules(input: Partial<HouseRules> | undefined): HouseRules {
  const rules = { ...DEFAULT_HOUSE_RULES, ...(input ?? {}) };
  const bad = (field: keyof HouseRules): never => {
    throw new SetupError(SetupErrorCode.INVALID_HOUSE_RULES, `unknown house rule value for ${field}`, {
      field,
      value: rules[field],
    });
  };
  if (rules.shortAllInBlind !== 'full_blind' && rules.shortAllInBlind !== 'posted') bad('shortAllInBlind');
  if (rules.oddChips !== 'one_each' && rules.oddChips !== 'first_winner') bad('oddChips');
  if (typeof rules.studOpenPairBigBet !== 'boolean') bad('studOpenPairBigBet');
  if (typeof rules.limitHalfBetReopens !== 'boolean') bad('limitHalfBetReopens');
  return rules;
}

/**
 * Everything needed to play one hand; produced by the table layer (or a simulator) and kept verbatim in
 * the hand's snapshot, so that a hand is exactly `setup` plus its operation log.
 */
export interface HandSetup {
  readonly handId: string;
  /** Id of the {@link GameRules} (e.g. "holdem"). */
  readonly game: string;
  readonly limit: BetLimit;
  readonly stakes: Stakes;
  /** The button seat. It may be empty (a dead button). */
  readonly button: number;
  /** The dealt-in players. */
  readonly players: readonly HandPlayerSetup[];
  /** Posted in this order before any card is dealt. */
  readonly forcedBets: readonly ForcedBet[];
  /**
   * How the cards are dealt. `standard` (the default when absent): the engine deals `deck`. `blind`
   * (engine-blind dealing, mental poker): nobody knows the cards; the engine hands out deck indices
   * only, takes each street's board as input once the players decrypted it (`Hand.revealBoard`) and
   * the hole cards as the players show them at the showdown (`Hand.showBlind`). A blind setup has an
   * empty `deck` and no `deckSeed`, and only the games in {@link BLIND_GAMES}.
   */
  readonly dealing?: 'standard' | 'blind';
  /**
   * The shuffled deck, dealt from index 0 upward with no burns (docs/fairness.md, derivation step 10).
   * Empty with blind dealing.
   */
  readonly deck: readonly Card[];
  /**
   * The hand's deck seed (hex), from which `deck` was shuffled. Draw games need it to reshuffle the
   * discards inside the same derivation (docs/fairness.md); when present it must derive `deck` exactly.
   */
  readonly deckSeed?: string;
  readonly rake?: RakeConfig | null;
  readonly showdown?: Partial<ShowdownOptions>;
  /** House rules on which rooms differ; absent fields take {@link DEFAULT_HOUSE_RULES}. */
  readonly houseRules?: Partial<HouseRules>;
  /** Hand start time from the injected clock (ISO 8601, UTC), for exports only. */
  readonly startedAt?: string;
  readonly tableName?: string;
  /** Number of seats at the table, for exports (defaults to the game's maximum). */
  readonly tableSize?: number;
}

const BLIND_GAME_KINDS = new Set<ForcedBetKind>([
  ForcedBetKind.ANTE,
  ForcedBetKind.BIG_BLIND_ANTE,
  ForcedBetKind.SMALL_BLIND,
  ForcedBetKind.BIG_BLIND,
  ForcedBetKind.LIVE_POST,
  ForcedBetKind.DEAD_BLIND,
]);
const BUTTON_BLIND_KINDS = new Set<ForcedBetKind>([ForcedBetKind.ANTE, ForcedBetKind.BUTTON_BLIND]);
// The bring-in is the bring-in player's first decision, not a forced bet posted before the deal.
const BRING_IN_KINDS = new Set<ForcedBetKind>([ForcedBetKind.ANTE]);

function allowedKinds(rules: GameRules): ReadonlySet<ForcedBetKind> {
  switch (rules.forcedBets) {
    case 'blinds':
      return BLIND_GAME_KINDS;
    case 'button_blind':
      return BUTTON_BLIND_KINDS;
    case 'bring_in':
      return BRING_IN_KINDS;
  }
}

/** Array check without narrowing, for data that the types promise but JSON might not deliver. */
function isList(v: unknown): boolean {
  return Array.isArray(v);
}

function isChips(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function toBasisPoints(percent: unknown, field: string): number {
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new SetupError(SetupErrorCode.INVALID_RAKE, `${field} must be a number in 0..100`, { field, percent });
  }
  const bps = Math.round(percent * 100);
  if (Math.abs(bps - percent * 100) > 1e-6) {
    throw new SetupError(SetupErrorCode.INVALID_RAKE, `${field} allows at most two decimals`, { field, percent });
  }
  return bps;
}

/** Rake settings in integer form, so that rake arithmetic never touches floating point. */
export interface ResolvedRake {
  readonly bps: number;
  readonly headsUpBps: number | null;
  readonly cap: number;
  readonly noFlopNoDrop: boolean;
}

export function resolveRake(rake: RakeConfig | null | undefined): ResolvedRake | null {
  if (rake === null || rake === undefined) return null;
  if (!isChips(rake.cap)) {
    throw new SetupError(SetupErrorCode.INVALID_RAKE, 'rake cap must be a non-negative integer', { cap: rake.cap });
  }
  return {
    bps: toBasisPoints(rake.percent, 'percent'),
    headsUpBps: rake.headsUpPercent === undefined ? null : toBasisPoints(rake.headsUpPercent, 'headsUpPercent'),
    cap: rake.cap,
    noFlopNoDrop: rake.noFlopNoDrop ?? true,
  };
}

export function validateSetup(setup: HandSetup, rules: GameRules): void {
  if (typeof setup.handId !== 'string' || setup.handId.length === 0) {
    throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'handId must be a non-empty string');
  }
  if (!isBetLimit(setup.limit)) {
    throw new SetupError(SetupErrorCode.UNSUPPORTED_LIMIT, `unknown limit ${String(setup.limit)}`);
  }
  validateStakes(setup.stakes, rules.forcedBets);
  const players: readonly HandPlayerSetup[] = setup.players;
  if (!isList(players) || players.length < 2 || players.length > rules.maxSeats) {
    throw new SetupError(SetupErrorCode.INVALID_PLAYERS, `a hand needs 2..${rules.maxSeats} players`, {
      count: isList(players) ? players.length : null,
    });
  }
  const seats = new Set<number>();
  const ids = new Set<string>();
  for (const p of players) {
    if (!Number.isSafeInteger(p.seat) || p.seat < 0) {
      throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'seat must be a non-negative integer', { seat: p.seat });
    }
    if (seats.has(p.seat)) throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'duplicate seat', { seat: p.seat });
    seats.add(p.seat);
    if (typeof p.id !== 'string' || p.id.length === 0 || ids.has(p.id)) {
      throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'player ids must be unique non-empty strings', {
        seat: p.seat,
      });
    }
    ids.add(p.id);
    if (!isChips(p.stack) || p.stack === 0) {
      throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'a dealt-in player needs a positive integer stack', {
        seat: p.seat,
        stack: p.stack,
      });
    }
  }
  if (!Number.isSafeInteger(setup.button) || setup.button < 0) {
    throw new SetupError(SetupErrorCode.INVALID_PLAYERS, 'button must be a non-negative integer seat', {
      button: setup.button,
    });
  }
  let anteAmount: number | null = null;
  const deadOwed = new Map<number, number>();
  const liveOwed = new Map<number, number>();
  for (const fb of setup.forcedBets) {
    if (!seats.has(fb.seat)) {
      throw new SetupError(SetupErrorCode.INVALID_FORCED_BET, 'forced bet from a seat not dealt in', { seat: fb.seat });
    }
    if (!FORCED_BET_KINDS.has(fb.kind)) {
      throw new SetupError(SetupErrorCode.INVALID_FORCED_BET, `unknown forced bet kind ${String(fb.kind)}`);
    }
    if (!allowedKinds(rules).has(fb.kind)) {
      throw new SetupError(SetupErrorCode.INVALID_FORCED_BET, `${rules.name} has no ${fb.kind}`, {
        seat: fb.seat,
        kind: fb.kind,
      });
    }
    if (!isChips(fb.amount) || fb.amount === 0) {
      throw new SetupError(SetupErrorCode.INVALID_FORCED_BET, 'forced bet amounts must be positive integers', {
        seat: fb.seat,
        amount: fb.amount,
      });
    }
    if (fb.kind === ForcedBetKind.ANTE) {
      if (anteAmount !== null && anteAmount !== fb.amount) {
        throw new SetupError(SetupErrorCode.INVALID_FORCED_BET, 'antes must be uniform (use bb_ante for one ante)');
      }
      anteAmount = fb.amount;
    }
    const map = isDeadForcedBet(fb.kind) ? deadOwed : liveOwed;
    map.set(fb.seat, (map.get(fb.seat) ?? 0) + fb.amount);
  }
  // A player whose stack only covers dead money would contest a pot without a live chip in it.
  for (const [seat, dead] of deadOwed) {
    const p = players.find((x) => x.seat === seat)!;
    const live = liveOwed.get(seat) ?? 0;
    if (live === 0 && p.stack <= dead) {
      throw new SetupError(
        SetupErrorCode.INVALID_FORCED_BET,
        'a stack must cover its dead blinds with chips to spare',
        {
          seat,
        },
      );
    }
  }
  validateDealing(setup, rules);
  resolveRake(setup.rake);
  resolveHouseRules(setup.houseRules);
}

/**
 * The games blind dealing can play: every card is dealt face down and only before the first betting
 * round, and nothing is drawn. Stud's up cards would need a public decryption at the deal (and its
 * bring-in reads them), draws re-deal from the discards, and the mixed formats contain both.
 */
export const BLIND_GAMES: ReadonlySet<string> = new Set(['holdem', 'omaha', 'omaha5', 'omaha8', 'shortdeck']);

/** Throws unless `rules` can be played with blind dealing (see {@link BLIND_GAMES}). */
export function verifyBlindGame(rules: GameRules): void {
  const shape = rules.streets.every(
    (st, i) => !st.draw && (i === 0 || st.hole.length === 0) && st.hole.every((v) => v === 'down'),
  );
  if (!BLIND_GAMES.has(rules.id) || !shape) {
    throw new SetupError(SetupErrorCode.UNSUPPORTED_DEALING, `${rules.name} cannot be dealt blind`, {
      game: rules.id,
    });
  }
}

function validateDealing(setup: HandSetup, rules: GameRules): void {
  const dealing: unknown = setup.dealing;
  if (dealing === undefined || dealing === 'standard') {
    validateDeck(setup.deck, rules);
    return;
  }
  if (dealing !== 'blind') {
    throw new SetupError(SetupErrorCode.UNSUPPORTED_DEALING, 'dealing must be standard or blind', { dealing });
  }
  verifyBlindGame(rules);
  // The type keeps `deck` (an empty list) so that every reader of a setup still finds one; a blind
  // snapshot written without it is accepted too.
  const deck: unknown = setup.deck;
  if ((deck !== undefined && (!Array.isArray(deck) || deck.length > 0)) || setup.deckSeed !== undefined) {
    throw new SetupError(SetupErrorCode.UNSUPPORTED_DEALING, 'a blind hand has no deck and no deck seed', {
      handId: setup.handId,
    });
  }
}

const DECK_CARDS = new Map<string, ReadonlySet<string>>();

/** The cards of a deck kind, as a set. */
export function deckCards(kind: DeckKind): ReadonlySet<string> {
  let allowed = DECK_CARDS.get(kind);
  if (allowed === undefined) {
    allowed = new Set<string>(initialDeck(kind));
    DECK_CARDS.set(kind, allowed);
  }
  return allowed;
}

export function validateDeck(deck: readonly Card[], rules: GameRules): void {
  const allowed = deckCards(rules.deck);
  if (!Array.isArray(deck) || deck.length !== allowed.size) {
    throw new SetupError(SetupErrorCode.INVALID_DECK, `the deck must hold ${allowed.size} cards`, {
      length: Array.isArray(deck) ? deck.length : null,
    });
  }
  const seen = new Set<string>();
  for (const c of deck) {
    if (!isCard(c) || !allowed.has(c) || seen.has(c)) {
      throw new SetupError(SetupErrorCode.INVALID_DECK, 'the deck must be a permutation of the game deck', { card: c });
    }
    seen.add(c);
  }
}

/** Blind positions of a hand: small blind, big blind (null when the game has no blinds). */
export interface BlindPositions {
  readonly smallBlind: number | null;
  readonly bigBlind: number | null;
}

/**
 * Standard blind positions for seats that are all dealt in: heads-up the button posts the small blind;
 * otherwise the two seats after the button.
 */
export function standardBlindPositions(seats: readonly number[], button: number): BlindPositions {
  const order = orderFromButton(seats, button);
  if (order.length < 2) return { smallBlind: null, bigBlind: null };
  if (order.length === 2) {
    const bb = order[0]!;
    const sb = order[1]!;
    return { smallBlind: sb, bigBlind: bb };
  }
  return { smallBlind: order[0]!, bigBlind: order[1]! };
}

/**
 * The forced bets of a hand where every player is simply dealt in (no posts, no missed blinds), as a
 * simulator or a tournament table would have them. Posting order: antes, blinds, then the big-blind ante
 * (the blind takes priority over the ante when the stack is short).
 */
export function standardForcedBets(
  rules: GameRules,
  stakes: Stakes,
  seats: readonly number[],
  button: number,
): ForcedBet[] {
  const out: ForcedBet[] = [];
  const order = orderFromButton(seats, button);
  const ante = stakes.ante ?? 0;
  if (ante > 0) for (const seat of order) out.push({ seat, kind: ForcedBetKind.ANTE, amount: ante });
  if (rules.forcedBets === 'blinds') {
    const { smallBlind, bigBlind } = standardBlindPositions(seats, button);
    if (smallBlind !== null && stakes.smallBlind > 0) {
      out.push({ seat: smallBlind, kind: ForcedBetKind.SMALL_BLIND, amount: stakes.smallBlind });
    }
    if (bigBlind !== null) out.push({ seat: bigBlind, kind: ForcedBetKind.BIG_BLIND, amount: stakes.bigBlind });
    const bba = stakes.bigBlindAnte ?? 0;
    if (bigBlind !== null && bba > 0) out.push({ seat: bigBlind, kind: ForcedBetKind.BIG_BLIND_ANTE, amount: bba });
  } else if (rules.forcedBets === 'button_blind') {
    const amount = stakes.buttonBlind ?? stakes.bigBlind;
    if (seats.includes(button)) out.push({ seat: button, kind: ForcedBetKind.BUTTON_BLIND, amount });
  }
  return out;
}
