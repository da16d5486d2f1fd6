// Plain-language labels for what the protocol sends as codes: games, limits, stakes, streets, cards,
// hand names and amounts, in the page's language from the message catalog. Everything a player reads
// on the table goes through here, so wording stays consistent.
import { GAME_TYPES, type BettingLimit, type GameType, type StakesView, type VariantView } from '@felt/protocol';
import { formatDateTime, formatInteger, formatTime, t, type MessageKey } from '../i18n/i18n.js';

const GAME_KEYS = new Set<string>(GAME_TYPES);

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
  return GAME_KEYS.has(game) ? t(`game.name.${game as GameType}`) : game;
}

export function limitName(limit: BettingLimit): string {
  return t(`game.limit.${limit}`);
}

/** "No-Limit Hold'em", "Fixed-Limit Seven Card Stud"; a mixed game is just its name. */
export function gameTitle(game: string, limit: BettingLimit): string {
  return isMixed(game) ? gameName(game) : t('game.title', { limit: limitName(limit), game: gameName(game) });
}

/** "NL Hold'em" for tight spaces such as the lobby list and the mixed-game ribbon. */
export function gameShortTitle(game: string, limit: BettingLimit): string {
  return isMixed(game)
    ? gameName(game)
    : t('game.title', { limit: t(`game.limitShort.${limit}`), game: gameName(game) });
}

/** Whole chips with the locale's thousands separators: 1,250. */
export function chips(n: number): string {
  return formatInteger(n);
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
    s.ante > 0
      ? ` ${t('stakes.ante', { amount: chips(s.ante) })}`
      : s.big_blind_ante > 0
        ? ` ${t('stakes.bbAnte', { amount: chips(s.big_blind_ante) })}`
        : '';
  if (family === GameFamily.STUD) {
    return `${chips(s.small_bet)}/${chips(s.big_bet)}${ante}${t('common.listSeparator')}${t('stakes.bringIn', { amount: chips(s.bring_in) })}`;
  }
  if (variant.game === 'shortdeck') return `${t('stakes.button', { amount: chips(s.button_blind) })}${ante}`;
  if (variant.limit === 'fl') return `${chips(s.small_bet)}/${chips(s.big_bet)}${ante}`;
  return `${chips(s.small_blind)}/${chips(s.big_blind)}${ante}`;
}

const STREETS = new Set([
  'preflop',
  'flop',
  'turn',
  'river',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'predraw',
  'first_draw',
  'second_draw',
  'third_draw',
] as const);
type Street = typeof STREETS extends Set<infer S> ? S : never;

export function streetName(street: string | null): string {
  if (street === null) return '';
  return STREETS.has(street as Street) ? t(`street.${street as Street}`) : street.replace(/_/g, ' ');
}

export type RankCode = '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T' | 'J' | 'Q' | 'K' | 'A';

export const SUITS = {
  c: { symbol: '\u2663' },
  d: { symbol: '\u2666' },
  h: { symbol: '\u2665' },
  s: { symbol: '\u2660' },
} as const;
export type SuitCode = keyof typeof SUITS;

export interface CardFace {
  /** "10" for a ten, otherwise the rank letter or digit. */
  readonly rank: string;
  readonly suit: SuitCode;
  readonly symbol: string;
  /** "Ace of spades": what a screen reader says, in the page's language. */
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
    name: t('card.name', { rank: t(`card.rank.${rank as RankCode}`), suit: t(`card.suit.${suit}`) }),
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

/**
 * "Break until 18:35 (4:12 left)", "On sale until 18:35 (4:12 left)": the catalog's sentence `key`
 * (its {{time}} and {{left}}) for an end at `endsAt` (ms, on a clock `offsetMs` ahead of this
 * browser's: the end is shown in local time), `leftMs` before it (never below 0:00).
 */
export function untilText(key: MessageKey, endsAt: number, leftMs: number, offsetMs = 0): string {
  return t(key, { time: formatTime(new Date(endsAt - offsetMs)), left: clockText(leftMs) });
}

/** A short date and time for history rows, in the page's language. */
export function dateTimeText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatDateTime(d);
}

const HIGH_NAME = [
  [/^Royal Flush$/, 'hand.royalFlush'],
  [/^Straight Flush, (\w+) high$/, 'hand.straightFlush'],
  [/^Four of a Kind, (\w+)$/, 'hand.quads'],
  [/^Full House, (\w+) over (\w+)$/, 'hand.fullHouse'],
  [/^Flush, (\w+) high$/, 'hand.flush'],
  [/^Straight, (\w+) high$/, 'hand.straight'],
  [/^Three of a Kind, (\w+)$/, 'hand.trips'],
  [/^Two Pair, (\w+) and (\w+)$/, 'hand.twoPair'],
  [/^Pair of (\w+)$/, 'hand.pair'],
  [/^High Card, (\w+)$/, 'hand.highCard'],
] as const;
const SINGULAR: Readonly<Record<string, RankCode>> = {
  Two: '2',
  Three: '3',
  Four: '4',
  Five: '5',
  Six: '6',
  Seven: '7',
  Eight: '8',
  Nine: '9',
  Ten: 'T',
  Jack: 'J',
  Queen: 'Q',
  King: 'K',
  Ace: 'A',
};
const PLURAL: Readonly<Record<string, RankCode>> = {
  Twos: '2',
  Threes: '3',
  Fours: '4',
  Fives: '5',
  Sixes: '6',
  Sevens: '7',
  Eights: '8',
  Nines: '9',
  Tens: 'T',
  Jacks: 'J',
  Queens: 'Q',
  Kings: 'K',
  Aces: 'A',
};

/**
 * A hand's name in the page's language. The engine names hands in English from a closed grammar
 * ("Full House, Kings over Fives", "Pair of Aces", "8-6-4-3-2 low"); each form has its catalog entry
 * with the ranks as placeholders. A name outside the grammar (a newer server) is shown as sent.
 */
export function handNameText(name: string): string {
  const low = /^([2-9TJQKA](?:-[2-9TJQKA])*) low$/.exec(name);
  if (low) return t('hand.low', { cards: low[1]!.replace(/T/g, t('hand.lowTen')) });
  for (const [re, key] of HIGH_NAME) {
    const m = re.exec(name);
    if (!m) continue;
    const [, a, b] = m;
    const one = a !== undefined ? SINGULAR[a] : undefined;
    const many = a !== undefined ? PLURAL[a] : undefined;
    const many2 = b !== undefined ? PLURAL[b] : undefined;
    if (a !== undefined && one === undefined && many === undefined) return name;
    if (b !== undefined && many2 === undefined) return name;
    return t(key, {
      ...(one !== undefined ? { rank: t(`card.rank.${one}`) } : {}),
      ...(many !== undefined ? { ranks: t(`card.ranks.${many}`) } : {}),
      ...(many2 !== undefined ? { ranks2: t(`card.ranks.${many2}`) } : {}),
    });
  }
  return name;
}

/** Hex strings are long: show the head and tail with an ellipsis, keeping the full value for copy. */
export function shortHex(hex: string, keep = 8): string {
  const body = hex.startsWith('sha256:') ? hex.slice(7) : hex;
  const prefix = hex.startsWith('sha256:') ? 'sha256:' : '';
  return body.length <= keep * 2 + 1 ? hex : `${prefix}${body.slice(0, keep)}\u2026${body.slice(-keep)}`;
}
