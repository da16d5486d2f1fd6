/**
 * Cards are written rank + suit: "As", "Td", "2c". Rank is upper case, suit lower case.
 *
 * Internally a card is also a small integer, `code = rankIndex * 4 + suitIndex`, with rank index 0 for
 * a deuce and suit order c, d, h, s. Evaluators work on codes; everything at an API edge uses strings.
 */
import { CodedError } from './coded-error.js';

export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'] as const;
export type Rank = (typeof RANKS)[number];

/** Suit order c < d < h < s: the initial deck order of docs/fairness.md and the stud bring-in tiebreak. */
export const SUITS = ['c', 'd', 'h', 's'] as const;
export type Suit = (typeof SUITS)[number];

export type Card = `${Rank}${Suit}`;
export type CardCode = number;

export class InvalidCardError extends CodedError<'invalid_card'> {
  override readonly name = 'InvalidCardError';
  constructor(readonly input: unknown) {
    super('invalid_card', `invalid card: ${JSON.stringify(input)}`);
  }
}

const RANK_INDEX: Readonly<Record<string, number>> = Object.fromEntries(RANKS.map((r, i) => [r, i]));
const SUIT_INDEX: Readonly<Record<string, number>> = Object.fromEntries(SUITS.map((s, i) => [s, i]));

/** All 52 cards by code, so `CARD_BY_CODE[code]` is the string form. */
export const CARD_BY_CODE: readonly Card[] = RANKS.flatMap((r) => SUITS.map((s): Card => `${r}${s}`));

export function isCard(value: unknown): value is Card {
  return (
    typeof value === 'string' &&
    value.length === 2 &&
    RANK_INDEX[value[0] as string] !== undefined &&
    SUIT_INDEX[value[1] as string] !== undefined
  );
}

export function parseCard(value: string): Card {
  if (!isCard(value)) throw new InvalidCardError(value);
  return value;
}

/** Parses "AsKd" or "As Kd" or ["As","Kd"]. */
export function parseCards(value: string | readonly string[]): Card[] {
  if (typeof value !== 'string') return value.map(parseCard);
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 2 !== 0) throw new InvalidCardError(value);
  const out: Card[] = [];
  for (let i = 0; i < compact.length; i += 2) out.push(parseCard(compact.slice(i, i + 2)));
  return out;
}

export function rankOf(card: Card): Rank {
  return card[0] as Rank;
}

/** 0 for a deuce … 12 for an ace. */
export function rankIndex(card: Card): number {
  return RANK_INDEX[card[0] as string] as number;
}

/** 0 for clubs … 3 for spades. */
export function suitIndex(card: Card): number {
  return SUIT_INDEX[card[1] as string] as number;
}

export function cardCode(card: Card): CardCode {
  return rankIndex(card) * 4 + suitIndex(card);
}

export function cardFromCode(code: CardCode): Card {
  const c = CARD_BY_CODE[code];
  if (c === undefined) throw new InvalidCardError(code);
  return c;
}

export type DeckKind = 'standard52' | 'short36';

/**
 * The initial (unshuffled) deck order of docs/fairness.md, derivation step 8: for suit in c, d, h, s,
 * for rank ascending. The short deck starts at the six.
 */
export function initialDeck(kind: DeckKind): Card[] {
  const lowest = kind === 'short36' ? RANK_INDEX['6']! : 0;
  const out: Card[] = [];
  for (const s of SUITS) for (let r = lowest; r < RANKS.length; r++) out.push(`${RANKS[r]!}${s}`);
  return out;
}
