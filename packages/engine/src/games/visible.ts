import { rankIndex, suitIndex, type Card } from '../cards.js';
import type { BringInCard } from './types.js';

/*
 * What Stud players can see of each other: the door card that brings in, and the up cards that decide
 * who acts first from fourth street. Only pairs, trips, two pair and quads count among up cards (no
 * straights or flushes), and suits never break a tie there: equal hands leave the first seat clockwise
 * from the button to act, as pokerkit does.
 */

/**
 * Ordering key of a door card for the bring-in: the card with the smallest key brings in. Stud: aces high,
 * the lowest rank, and between equal ranks the lowest suit (c < d < h < s). Razz: aces low, the highest
 * rank, and between equal ranks the highest suit.
 */
export function bringInKey(card: Card, rule: BringInCard): number {
  const suit = suitIndex(card);
  if (rule === 'lowest') return rankIndex(card) * 4 + suit;
  // Razz ranks: ace 0, deuce 1, …, king 12; the highest card must come first.
  const r = (rankIndex(card) + 1) % 13;
  return (12 - r) * 4 + (3 - suit);
}

const BASE = 16;

/** Groups of equal ranks, larger groups first, then by `order` (higher first). */
function groups(ranks: readonly number[]): { count: number; rank: number }[] {
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([rank, count]) => ({ rank, count })).sort((a, b) => b.count - a.count || b.rank - a.rank);
}

/** Pairing class of up to four cards: 0 nothing, 1 pair, 2 two pair, 3 trips, 4 quads. */
function pairing(gs: readonly { count: number }[]): number {
  const top = gs[0]?.count ?? 0;
  if (top >= 4) return 4;
  if (top === 3) return 3;
  if (top === 2) return gs[1]?.count === 2 ? 2 : 1;
  return 0;
}

function pack(cls: number, gs: readonly { rank: number }[]): number {
  let v = cls;
  for (let i = 0; i < 4; i++) v = v * BASE + (gs[i]?.rank ?? 0);
  return v;
}

/** Strength of a Stud up-card hand (one to four cards): higher acts first. */
export function visibleHighValue(up: readonly Card[]): number {
  const gs = groups(up.map((c) => rankIndex(c) + 2));
  return pack(pairing(gs), gs);
}

/**
 * Strength of a Razz up-card hand (aces low, pairs bad): higher is the better low, which acts first. An
 * unpaired hand beats any pair; between equals, the lower top card wins, and so on down.
 */
export function visibleLowValue(up: readonly Card[]): number {
  const gs = groups(up.map((c) => ((rankIndex(c) + 1) % 13) + 1));
  return -pack(pairing(gs), gs);
}
