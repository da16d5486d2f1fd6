import type { Card } from '../cards.js';

/** Higher is better for every evaluator, lows included; equal values tie. */
export type HandValue = number;

export const HandCategory = {
  HIGH_CARD: 'high_card',
  PAIR: 'pair',
  TWO_PAIR: 'two_pair',
  TRIPS: 'trips',
  STRAIGHT: 'straight',
  FLUSH: 'flush',
  FULL_HOUSE: 'full_house',
  QUADS: 'quads',
  STRAIGHT_FLUSH: 'straight_flush',
} as const;
export type HandCategory = (typeof HandCategory)[keyof typeof HandCategory];

/** The standard order, weakest first. A category's index here is the category index in a class key. */
export const HAND_CATEGORIES: readonly HandCategory[] = [
  HandCategory.HIGH_CARD,
  HandCategory.PAIR,
  HandCategory.TWO_PAIR,
  HandCategory.TRIPS,
  HandCategory.STRAIGHT,
  HandCategory.FLUSH,
  HandCategory.FULL_HOUSE,
  HandCategory.QUADS,
  HandCategory.STRAIGHT_FLUSH,
];

/** What a describe* function returns: enough for display, showdown logs and hand-history export. */
export interface HandDescription {
  /** The same number the matching evaluate* function returns. */
  value: HandValue;
  /** For lows: 'high_card' for an unpaired low; paired (Razz, 2-7) and 2-7 straights/flushes show theirs. */
  category: HandCategory;
  /** 'Royal Flush', 'Full House, Kings over Fives', '8-6-4-3-2 low', ... */
  name: string;
  /** Rank values in comparison order, 2..14 with the ace as 14; A-5 lows count the ace as 1. */
  tiebreak: number[];
  /** The five cards used, in display order (groups first, then high to low; lows from the top card down). */
  best: Card[];
}

/*
 * A class key orders hands of one evaluator by plain integer comparison:
 *   bits 24..27 strength of the category under that evaluator's rules (short deck reorders them),
 *   bits 20..23 the category's index in HAND_CATEGORIES, so the key alone can be described,
 *   bits 16..0  up to five rank values (1..14), most significant first, zero when absent.
 * Keys are only an intermediate: the tables store dense values derived by sorting keys.
 */
export function classKey(strength: number, categoryIndex: number, ranks: readonly number[]): number {
  let key = strength * 0x1000000 + categoryIndex * 0x100000;
  for (let i = 0; i < ranks.length; i++) key += (ranks[i] ?? 0) * 16 ** (4 - i);
  return key;
}

export function keyCategory(key: number): HandCategory {
  return HAND_CATEGORIES[(key >>> 20) & 0xf] ?? HandCategory.HIGH_CARD;
}

export function keyRanks(key: number): number[] {
  const out: number[] = [];
  for (let shift = 16; shift >= 0; shift -= 4) {
    const r = (key >>> shift) & 0xf;
    if (r !== 0) out.push(r);
  }
  return out;
}

const SINGULAR = [
  '',
  'Ace',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Jack',
  'Queen',
  'King',
  'Ace',
];
const PLURAL = [
  '',
  'Aces',
  'Twos',
  'Threes',
  'Fours',
  'Fives',
  'Sixes',
  'Sevens',
  'Eights',
  'Nines',
  'Tens',
  'Jacks',
  'Queens',
  'Kings',
  'Aces',
];
const RANK_CHAR = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

const one = (r: number | undefined): string => SINGULAR[r ?? 0] ?? '';
const many = (r: number | undefined): string => PLURAL[r ?? 0] ?? '';

/** The name of a high hand from its category and tiebreak ranks. */
export function highName(category: HandCategory, tiebreak: readonly number[]): string {
  const [a, b] = tiebreak;
  switch (category) {
    case HandCategory.STRAIGHT_FLUSH:
      return a === 14 ? 'Royal Flush' : `Straight Flush, ${one(a)} high`;
    case HandCategory.QUADS:
      return `Four of a Kind, ${many(a)}`;
    case HandCategory.FULL_HOUSE:
      return `Full House, ${many(a)} over ${many(b)}`;
    case HandCategory.FLUSH:
      return `Flush, ${one(a)} high`;
    case HandCategory.STRAIGHT:
      return `Straight, ${one(a)} high`;
    case HandCategory.TRIPS:
      return `Three of a Kind, ${many(a)}`;
    case HandCategory.TWO_PAIR:
      return `Two Pair, ${many(a)} and ${many(b)}`;
    case HandCategory.PAIR:
      return `Pair of ${many(a)}`;
    case HandCategory.HIGH_CARD:
      return `High Card, ${one(a)}`;
  }
}

/** '8-6-4-3-2 low', '5-4-3-2-A low' (A-5, ace as 1), 'A-K-9-5-3 low' (2-7, ace as 14). */
export function lowName(tiebreak: readonly number[]): string {
  return `${tiebreak.map((r) => RANK_CHAR[r] ?? '?').join('-')} low`;
}
