import { highSide } from './sides.js';
import type { GameRules, StreetRules } from './types.js';

export { highSide } from './sides.js';

/** The four streets of the flop games; the variants reuse them with other hole-card counts. */
export function flopStreets(holeCards: number): StreetRules[] {
  return [
    {
      name: 'preflop',
      hole: Array.from({ length: holeCards }, () => 'down' as const),
      board: 0,
      draw: false,
      betUnit: 'small',
      firstToAct: 'after_big_blind',
    },
    { name: 'flop', hole: [], board: 3, draw: false, betUnit: 'small', firstToAct: 'after_button' },
    { name: 'turn', hole: [], board: 1, draw: false, betUnit: 'big', firstToAct: 'after_button' },
    { name: 'river', hole: [], board: 1, draw: false, betUnit: 'big', firstToAct: 'after_button' },
  ];
}

export const holdem: GameRules = {
  id: 'holdem',
  name: "Texas Hold'em",
  deck: 'standard52',
  maxSeats: 10,
  forcedBets: 'blinds',
  streets: flopStreets(2),
  showdown: [highSide],
  defaultLimit: 'nl',
  rakeFromStreet: 1,
  phhVariant: { nl: 'NT', fl: 'FT' },
  ohhGameType: 'Holdem',
};
