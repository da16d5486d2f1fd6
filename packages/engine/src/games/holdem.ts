import type { Card } from '../cards.js';
import { describeHigh, evaluateHigh } from '../eval/index.js';
import type { GameRules, ShowdownSide, StreetRules } from './types.js';

/** Best five of the hole cards and the board, high only (Hold'em, Stud). */
export const highSide: ShowdownSide = {
  kind: 'high',
  evaluate: (hole: readonly Card[], board: readonly Card[]) => evaluateHigh([...hole, ...board]),
  describe: (hole: readonly Card[], board: readonly Card[]) => {
    const d = describeHigh([...hole, ...board]);
    return { name: d.name, best: d.best };
  },
};

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
