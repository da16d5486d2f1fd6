import { low27Side } from './sides.js';
import type { GameRules } from './types.js';

/**
 * 2-7 Triple Draw: five cards down, blinds, then three rounds of discarding and replacing, each followed
 * by a betting round; deuce-to-seven lowball. Six seats: five cards each plus three draws already need the
 * discards reshuffled now and then (the fairness reshuffle extension, docs/fairness.md).
 */
export const tripleDraw27: GameRules = {
  id: '27td',
  name: '2-7 Triple Draw',
  deck: 'standard52',
  maxSeats: 6,
  forcedBets: 'blinds',
  streets: [
    {
      name: 'predraw',
      hole: ['down', 'down', 'down', 'down', 'down'],
      board: 0,
      draw: false,
      betUnit: 'small',
      firstToAct: 'after_big_blind',
    },
    { name: 'first_draw', hole: [], board: 0, draw: true, betUnit: 'small', firstToAct: 'after_button' },
    { name: 'second_draw', hole: [], board: 0, draw: true, betUnit: 'big', firstToAct: 'after_button' },
    { name: 'third_draw', hole: [], board: 0, draw: true, betUnit: 'big', firstToAct: 'after_button' },
  ],
  showdown: [low27Side],
  defaultLimit: 'fl',
  // The first draw counts as the flop for no-flop-no-drop.
  rakeFromStreet: 1,
  phhVariant: { fl: 'F2L3D' },
  ohhGameType: 'Draw',
};
