import { flopStreets } from './holdem.js';
import { omahaHighSide, omahaLow8Side, shortDeckSide } from './sides.js';
import type { GameRules, StreetRules } from './types.js';

/** Omaha: four hole cards, exactly two of them with exactly three of the board; pot limit by default. */
export const omaha: GameRules = {
  id: 'omaha',
  name: 'Omaha',
  deck: 'standard52',
  maxSeats: 10,
  forcedBets: 'blinds',
  streets: flopStreets(4),
  showdown: [omahaHighSide],
  defaultLimit: 'pl',
  rakeFromStreet: 1,
  phhVariant: { pl: 'PO' },
  ohhGameType: 'Omaha',
};

/** PLO5: five hole cards each, and at most eight seats (eight players already take 40 of the 52 cards). */
export const omaha5: GameRules = {
  ...omaha,
  id: 'omaha5',
  name: 'Five-Card Omaha',
  maxSeats: 8,
  streets: flopStreets(5),
  // PHH has no code for five-card Omaha: OHH and jsonl only.
  phhVariant: {},
};

/** Omaha Hi-Lo: the pot splits between the best high and the best 8-or-better low, both 2+3. */
export const omaha8: GameRules = {
  ...omaha,
  id: 'omaha8',
  name: 'Omaha Hi-Lo 8-or-Better',
  showdown: [omahaHighSide, omahaLow8Side],
  // PHH codes only fixed-limit Omaha Hi-Lo (FO/8); pot limit is OHH and jsonl only.
  phhVariant: { fl: 'FO/8' },
  ohhGameType: 'OmahaHiLo',
};

const shortDeckStreets: StreetRules[] = flopStreets(2).map((s, i) =>
  // Preflop action starts with the first player after the button (who posts the blind).
  i === 0 ? { ...s, firstToAct: 'after_button' } : s,
);

/** Short Deck (6+): 36 cards, antes from everyone plus a button blind, flush over full house. */
export const shortdeck: GameRules = {
  id: 'shortdeck',
  name: 'Short Deck',
  deck: 'short36',
  maxSeats: 10,
  forcedBets: 'button_blind',
  streets: shortDeckStreets,
  showdown: [shortDeckSide],
  defaultLimit: 'nl',
  rakeFromStreet: 1,
  phhVariant: { nl: 'NS' },
  ohhGameType: 'Holdem',
};
