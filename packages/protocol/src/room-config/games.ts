/** The games a room can play, their betting structures and the profile that decides their stakes. */
import { BetLimit, MIXED_FORMATS as ENGINE_MIXED_FORMATS, MixedFormat } from '@felt/engine';

export const GameType = {
  HOLDEM: 'holdem',
  OMAHA: 'omaha',
  OMAHA5: 'omaha5',
  OMAHA8: 'omaha8',
  SHORT_DECK: 'shortdeck',
  STUD: 'stud',
  STUD8: 'stud8',
  RAZZ: 'razz',
  TRIPLE_DRAW_27: '27td',
  HORSE: MixedFormat.HORSE,
  EIGHT_GAME: MixedFormat.EIGHT_GAME,
} as const;
export type GameType = (typeof GameType)[keyof typeof GameType];
export const GAME_TYPES = Object.values(GameType) as [GameType, ...GameType[]];

/** The games a mixed rotation is made of (a rotation can't contain another rotation). */
export type SingleGameType = Exclude<GameType, MixedFormat>;
export const SINGLE_GAME_TYPES = GAME_TYPES.filter((g) => !isMixedGame(g)) as [SingleGameType, ...SingleGameType[]];

/** The engine's betting structures, under the name the room config has always used. */
export const BettingLimit = BetLimit;
export type BettingLimit = BetLimit;
export const BETTING_LIMITS = Object.values(BettingLimit) as [BettingLimit, ...BettingLimit[]];

/** How a game opens the action, which decides the stakes it needs. */
export type ForcedBets = 'blinds' | 'button_blind' | 'bring_in';

export interface GameProfile {
  readonly forcedBets: ForcedBets;
  /** NL for Hold'em and Short Deck, PL for the Omahas, FL for Stud, Razz and 2-7 (docs/engine.md, "The games"). */
  readonly defaultLimit: BettingLimit;
  readonly maxSeats: number;
}

export const SINGLE_GAMES: Readonly<Record<SingleGameType, GameProfile>> = {
  holdem: { forcedBets: 'blinds', defaultLimit: 'nl', maxSeats: 10 },
  omaha: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 10 },
  // Five hole cards each: eight players already take 40 of the 52 cards.
  omaha5: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 8 },
  omaha8: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 10 },
  shortdeck: { forcedBets: 'button_blind', defaultLimit: 'nl', maxSeats: 10 },
  // Seven cards each from one deck: the usual Stud cap of eight, the most the community-card rule
  // covers (docs/engine.md, "Stud, Stud Hi-Lo, Razz").
  stud: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  stud8: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  razz: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  // Five cards each plus three draws: the usual six-handed cap keeps reshuffles of the discards
  // rare. Raising a cap later is compatible with stored rooms; lowering one would not be.
  '27td': { forcedBets: 'blinds', defaultLimit: 'fl', maxSeats: 6 },
};

export interface RotationEntryDefault {
  readonly game: SingleGameType;
  readonly limit: BettingLimit;
}

/**
 * The named mixed formats and their default rotations: the engine's, typed for the room config (the
 * assignment checks that every game in them is one a room can name).
 */
export const MIXED_FORMATS: Readonly<Record<MixedFormat, readonly RotationEntryDefault[]>> = ENGINE_MIXED_FORMATS;

export function isMixedGame(game: GameType): game is MixedFormat {
  return game === MixedFormat.HORSE || game === MixedFormat.EIGHT_GAME;
}

/** The most seats a game allows; for a mixed game, the tightest cap in its default rotation. */
export function maxSeatsFor(game: GameType): number {
  if (isMixedGame(game)) return Math.min(...MIXED_FORMATS[game].map((e) => SINGLE_GAMES[e.game].maxSeats));
  return SINGLE_GAMES[game].maxSeats;
}

export function defaultLimitFor(game: GameType): BettingLimit {
  // Both named mixed formats open with fixed limit; each rotation entry carries its own limit.
  return isMixedGame(game) ? 'fl' : SINGLE_GAMES[game].defaultLimit;
}
