import type { Card } from '../cards.js';
import type { BetLimit, Stakes } from '../betting/structure.js';
import type { MixedRotation } from '../games/mixed.js';
import type { ForcedBet, HouseRules, RakeConfig, ShowdownOptions } from '../hand/setup.js';

/** The seating layer's data: its configuration, seats, snapshot and hand plan (see table.ts). */

export interface TableConfig {
  /** A game id, or a mixed format ('horse', '8game') whose rotation is `rotation` or the named default. */
  readonly game: string;
  /** The betting structure; in a mixed game each rotation entry carries its own. */
  readonly limit: BetLimit;
  /** The stakes; in a mixed game, those of every entry that does not override them. */
  readonly stakes: Stakes;
  /** Seats are numbered 1..maxSeats. */
  readonly maxSeats: number;
  readonly rake?: RakeConfig | null;
  readonly showdown?: Partial<ShowdownOptions>;
  /** House rules on which rooms differ (docs/engine.md); absent fields take the defaults. */
  readonly houseRules?: Partial<HouseRules>;
  /** Consecutive timeouts after which a player is sat out (default 3). */
  readonly sitOutAfterTimeouts?: number;
  readonly tableName?: string;
  /** Mixed games: the ordered rotation (defaults to the named format's, six hands per game). */
  readonly rotation?: MixedRotation;
}

/** One game of the rotation as the table plays it: the entry with the table's defaults filled in. */
export interface VariantState {
  /** Position in the rotation. */
  readonly index: number;
  readonly game: string;
  readonly limit: BetLimit;
  readonly stakes: Stakes;
  readonly maxSeats: number;
}

/** Where a mixed table is in its rotation: the game being played and the one that follows it. */
export interface MixedState {
  readonly current: VariantState;
  readonly next: VariantState;
  /** Hands of the current game started and finished so far. */
  readonly handsPlayed: number;
  readonly handsPerVariant: number;
}

export const SeatStatus = {
  ACTIVE: 'active',
  SITTING_OUT: 'sitting_out',
  /** Seated but not dealt in until the big blind reaches the seat. */
  WAITING_FOR_BIG_BLIND: 'waiting_for_big_blind',
} as const;
export type SeatStatus = (typeof SeatStatus)[keyof typeof SeatStatus];

export interface SeatState {
  readonly seat: number;
  readonly playerId: string;
  readonly name?: string;
  stack: number;
  status: SeatStatus;
  /** Will post a live big blind (plus any missed small blind, dead) to be dealt in before the big blind. */
  postToPlay: boolean;
  missedSmallBlind: boolean;
  missedBigBlind: boolean;
  /** Consecutive hands' decisions the clock took for this player. */
  consecutiveTimeouts: number;
  /** Chips added while the seat was in a hand; credited when the hand ends. */
  pendingChips: number;
  sitOutAfterHand: boolean;
  leaveAfterHand: boolean;
}

export interface TableJSON {
  readonly format: 'felt-table/1';
  readonly config: TableConfig;
  readonly seats: readonly SeatState[];
  readonly button: number | null;
  readonly smallBlind: number | null;
  readonly bigBlind: number | null;
  readonly handsStarted: number;
  readonly handInProgress: string | null;
  readonly dealtIn: readonly number[];
  /** Mixed games only (null otherwise): the current and the next game, restored as they were. */
  readonly mixed: MixedState | null;
  /** The stakes of each game, when setStakes changed them from the config's (a tournament's level). */
  readonly stakes?: readonly Stakes[];
}

/** What the table needs from the dealer to start a hand: a known deck, or blind dealing. */
export type NextHandInput = StandardHandInput | BlindHandInput;

/** A hand dealt from a known deck (the deck is fixed before the deal). */
export interface StandardHandInput {
  readonly handId: string;
  /** The shuffled deck of the current game's deck kind. */
  readonly deck: readonly Card[];
  /** Hex deck seed the deck was shuffled from; required by draw games. */
  readonly deckSeed?: string;
  readonly startedAt?: string;
  readonly blind?: never;
}

/**
 * A hand dealt blind (`HandSetup.dealing: 'blind'`): nobody knows the deck, so there is neither a deck
 * nor a deck seed. Only the games in `BLIND_GAMES` can be dealt so.
 */
export interface BlindHandInput {
  readonly handId: string;
  readonly blind: true;
  readonly startedAt?: string;
  readonly deck?: never;
  readonly deckSeed?: never;
}

/** Who plays the next hand and what each posts; a preview that changes nothing. */
export interface HandPlan {
  readonly button: number;
  readonly smallBlind: number | null;
  readonly bigBlind: number | null;
  readonly dealtIn: readonly number[];
  readonly forcedBets: readonly ForcedBet[];
  /** Sitting-out seats the blinds pass this hand, who will owe them on return. */
  readonly missed: readonly { readonly seat: number; readonly small: boolean; readonly big: boolean }[];
}
