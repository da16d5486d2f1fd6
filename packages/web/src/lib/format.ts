// Plain-language labels for what the protocol sends as codes: games, limits, stakes, streets, cards
// and amounts. Everything a player reads on the table goes through here, so wording stays consistent.
import type { BettingLimit, StakesView, VariantView } from '@felt/protocol';

const GAME_NAMES: Readonly<Record<string, string>> = {
  holdem: "Hold'em",
  omaha: 'Omaha',
  omaha5: '5-Card Omaha',
  omaha8: 'Omaha Hi-Lo',
  shortdeck: 'Short Deck',
  stud: 'Seven Card Stud',
  stud8: 'Stud Hi-Lo',
  razz: 'Razz',
  '27td': '2-7 Triple Draw',
  horse: 'HORSE',
  '8game': '8-Game Mix',
};

const LIMIT_NAMES: Readonly<Record<BettingLimit, string>> = {
  nl: 'No-Limit',
  pl: 'Pot-Limit',
  fl: 'Fixed-Limit',
};

const LIMIT_SHORT: Readonly<Record<BettingLimit, string>> = { nl: 'NL', pl: 'PL', fl: 'FL' };

/** The families the table layout cares about: where cards go and how many halves a pot has. */
export const GameFamily = {
  /** Community cards in the middle (Hold'em, Omaha, Short Deck). */
  BOARD: 'board',
  /** Up and down cards per seat, no board. */
  STUD: 'stud',
  /** Private hands with discards, no board. */
  DRAW: 'draw',
} as const;
export type GameFamily = (typeof GameFamily)[keyof typeof GameFamily];

export function gameFamily(game: string): GameFamily {
  if (game === 'stud' || game === 'stud8' || game === 'razz') return GameFamily.STUD;
  if (game === '27td') return GameFamily.DRAW;
  return GameFamily.BOARD;
}

/** Games whose pots split between a high and a low hand. */
export function isHiLo(game: string): boolean {
  return game === 'omaha8' || game === 'stud8';
}

export function isMixed(game: string): game is 'horse' | '8game' {
  return game === 'horse' || game === '8game';
}

export function gameName(game: string): string {
  return GAME_NAMES[game] ?? game;
}

export function limitName(limit: BettingLimit): string {
  return LIMIT_NAMES[limit];
}

/** "No-Limit Hold'em", "Fixed-Limit Seven Card Stud"; a mixed game is just its name. */
export function gameTitle(game: string, limit: BettingLimit): string {
  return isMixed(game) ? gameName(game) : `${limitName(limit)} ${gameName(game)}`;
}

/** "NL Hold'em" for tight spaces such as the lobby list and the mixed-game ribbon. */
export function gameShortTitle(game: string, limit: BettingLimit): string {
  return isMixed(game) ? gameName(game) : `${LIMIT_SHORT[limit]} ${gameName(game)}`;
}

/** Whole chips with thousands separators: 1,250. */
export function chips(n: number): string {
  return Math.trunc(n).toLocaleString('en-US');
}

/** A signed net result: +1,250 or −300 (a real minus sign, so it reads as one). */
export function signedChips(n: number): string {
  if (n > 0) return `+${chips(n)}`;
  if (n < 0) return `\u2212${chips(-n)}`;
  return '0';
}

/** How the table shows a variant's stakes: blinds, Short Deck's ante/button, or the Stud bet sizes. */
export function stakesText(variant: VariantView): string {
  const s: StakesView = variant.stakes;
  const family = gameFamily(variant.game);
  const ante =
    s.ante > 0 ? ` ante ${chips(s.ante)}` : s.big_blind_ante > 0 ? ` BB ante ${chips(s.big_blind_ante)}` : '';
  if (family === GameFamily.STUD) {
    return `${chips(s.small_bet)}/${chips(s.big_bet)}${ante}, bring-in ${chips(s.bring_in)}`;
  }
  if (variant.game === 'shortdeck') return `button ${chips(s.button_blind)}${ante}`;
  if (variant.limit === 'fl') return `${chips(s.small_bet)}/${chips(s.big_bet)}${ante}`;
  return `${chips(s.small_blind)}/${chips(s.big_blind)}${ante}`;
}

const STREET_NAMES: Readonly<Record<string, string>> = {
  preflop: 'Preflop',
  flop: 'Flop',
  turn: 'Turn',
  river: 'River',
  third: '3rd street',
  fourth: '4th street',
  fifth: '5th street',
  sixth: '6th street',
  seventh: '7th street',
  predraw: 'Before the draw',
  first_draw: 'First draw',
  second_draw: 'Second draw',
  third_draw: 'Third draw',
};

export function streetName(street: string | null): string {
  if (street === null) return '';
  return STREET_NAMES[street] ?? street.replace(/_/g, ' ');
}

const RANK_NAMES: Readonly<Record<string, string>> = {
  '2': 'Two',
  '3': 'Three',
  '4': 'Four',
  '5': 'Five',
  '6': 'Six',
  '7': 'Seven',
  '8': 'Eight',
  '9': 'Nine',
  T: 'Ten',
  J: 'Jack',
  Q: 'Queen',
  K: 'King',
  A: 'Ace',
};

export const SUITS = {
  c: { symbol: '\u2663', name: 'clubs' },
  d: { symbol: '\u2666', name: 'diamonds' },
  h: { symbol: '\u2665', name: 'hearts' },
  s: { symbol: '\u2660', name: 'spades' },
} as const;
export type SuitCode = keyof typeof SUITS;

export interface CardFace {
  /** "10" for a ten, otherwise the rank letter or digit. */
  readonly rank: string;
  readonly suit: SuitCode;
  readonly symbol: string;
  /** "Ace of spades": what a screen reader says. */
  readonly name: string;
}

/** Parses a wire card ("Td"); null for anything that is not one. */
export function cardFace(code: string): CardFace | null {
  const m = /^([2-9TJQKA])([cdhs])$/.exec(code);
  if (!m) return null;
  const rank = m[1]!;
  const suit = m[2] as SuitCode;
  return {
    rank: rank === 'T' ? '10' : rank,
    suit,
    symbol: SUITS[suit].symbol,
    name: `${RANK_NAMES[rank]!} of ${SUITS[suit].name}`,
  };
}

/** "A♠ K♥", for lists and history lines. */
export function cardsText(cards: readonly (string | null)[]): string {
  return cards
    .map((c) => {
      if (c === null) return '??';
      const f = cardFace(c);
      return f ? `${f.rank}${f.symbol}` : c;
    })
    .join(' ');
}

/** A countdown as the clock shows it: "0:27", or "1:05" with minutes. Never negative. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${s.toString().padStart(2, '0')}`;
}

/** A short date and time for history rows, in the player's locale. */
export function dateTimeText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Hex strings are long: show the head and tail with an ellipsis, keeping the full value for copy. */
export function shortHex(hex: string, keep = 8): string {
  const body = hex.startsWith('sha256:') ? hex.slice(7) : hex;
  const prefix = hex.startsWith('sha256:') ? 'sha256:' : '';
  return body.length <= keep * 2 + 1 ? hex : `${prefix}${body.slice(0, keep)}\u2026${body.slice(-keep)}`;
}
