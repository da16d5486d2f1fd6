import type { BetLimit, Stakes } from '../betting/structure.js';

/**
 * One game of a mixed rotation, with the overrides it may carry: its own betting structure, its own stakes
 * (blinds, antes, bring-in and completion, bet sizes) and a tighter seat cap.
 */
export interface RotationEntry {
  readonly game: string;
  readonly limit: BetLimit;
  /** Stakes for this game; the table's stakes when absent. */
  readonly stakes?: Stakes;
  /** A seat cap tighter than the game's own. */
  readonly maxSeats?: number;
}

/** An ordered rotation that moves on only at hand boundaries, after `handsPerVariant` hands. */
export interface MixedRotation {
  readonly order: readonly RotationEntry[];
  readonly handsPerVariant: number;
}

export const MixedFormat = { HORSE: 'horse', EIGHT_GAME: '8game' } as const;
export type MixedFormat = (typeof MixedFormat)[keyof typeof MixedFormat];

/**
 * The named formats, HORSE and 8-Game, with their default rotations. The room config
 * (@felt/protocol) uses these same rotations; `as const` keeps each game id literal so that it can
 * check them against the games a room may name.
 */
export const MIXED_FORMATS = {
  horse: [
    { game: 'holdem', limit: 'fl' },
    { game: 'omaha8', limit: 'fl' },
    { game: 'razz', limit: 'fl' },
    { game: 'stud', limit: 'fl' },
    { game: 'stud8', limit: 'fl' },
  ],
  '8game': [
    { game: '27td', limit: 'fl' },
    { game: 'holdem', limit: 'fl' },
    { game: 'omaha8', limit: 'fl' },
    { game: 'razz', limit: 'fl' },
    { game: 'stud', limit: 'fl' },
    { game: 'stud8', limit: 'fl' },
    { game: 'holdem', limit: 'nl' },
    { game: 'omaha', limit: 'pl' },
  ],
} as const satisfies Readonly<Record<MixedFormat, readonly RotationEntry[]>>;

export function isMixedFormat(id: string): id is MixedFormat {
  return id === MixedFormat.HORSE || id === MixedFormat.EIGHT_GAME;
}

/** Hands per game when a format does not say (the room config's default). */
export const DEFAULT_HANDS_PER_VARIANT = 6;
