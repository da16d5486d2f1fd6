import { highSide, low8Side, lowA5Side } from './sides.js';
import type { FirstToAct, GameRules, StreetRules } from './types.js';

/**
 * The Stud streets: two down and one up on third street, one up on fourth to sixth, one down on seventh.
 * Small bets on third and fourth street (where an open pair allows the big bet), big bets from fifth.
 */
function studStreets(laterStreets: FirstToAct, openPairBigBet: boolean): StreetRules[] {
  return [
    { name: 'third', hole: ['down', 'down', 'up'], board: 0, draw: false, betUnit: 'small', firstToAct: 'bring_in' },
    {
      name: 'fourth',
      hole: ['up'],
      board: 0,
      draw: false,
      betUnit: 'small',
      firstToAct: laterStreets,
      ...(openPairBigBet ? { openPairBigBet: true } : {}),
    },
    { name: 'fifth', hole: ['up'], board: 0, draw: false, betUnit: 'big', firstToAct: laterStreets },
    { name: 'sixth', hole: ['up'], board: 0, draw: false, betUnit: 'big', firstToAct: laterStreets },
    { name: 'seventh', hole: ['down'], board: 0, draw: false, betUnit: 'big', firstToAct: laterStreets },
  ];
}

/**
 * Seven-Card Stud. Eight seats: 56 cards would be needed if all eight reach seventh street, so the
 * community-card rule deals that street's card face up in the middle when the stub cannot go round.
 */
export const stud: GameRules = {
  id: 'stud',
  name: 'Seven-Card Stud',
  deck: 'standard52',
  maxSeats: 8,
  forcedBets: 'bring_in',
  bringIn: 'lowest',
  streets: studStreets('best_visible_high', true),
  showdown: [highSide],
  defaultLimit: 'fl',
  // Fourth street counts as the flop for no-flop-no-drop (docs/engine.md, "Pots, rake, showdown").
  rakeFromStreet: 1,
  phhVariant: { fl: 'F7S' },
  ohhGameType: 'Stud',
};

/** Stud Hi-Lo: Stud, with the pot split between the best high and the best 8-or-better low. */
export const stud8: GameRules = {
  ...stud,
  id: 'stud8',
  name: 'Seven-Card Stud Hi-Lo 8-or-Better',
  showdown: [highSide, low8Side],
  phhVariant: { fl: 'F7S/8' },
  ohhGameType: 'StudHiLo',
};

/**
 * Razz: Stud played for A-5 low. The highest door card brings in (a king; aces are low) and the lowest
 * visible hand acts first. A pair is bad in Razz, so an open pair gives no big-bet option.
 */
export const razz: GameRules = {
  ...stud,
  id: 'razz',
  name: 'Razz',
  bringIn: 'highest',
  streets: studStreets('best_visible_low', false),
  showdown: [lowA5Side],
  phhVariant: { fl: 'FR' },
  ohhGameType: 'Stud',
};
