import { cardFromCode, type Card } from '../cards.js';
import { HandCategory } from './hand-class.js';

const combos = new Map<number, readonly (readonly number[])[]>();

/** Index sets of every k-subset of n items, in lexicographic order (memoized; n is small). */
export function choose(n: number, k: number): readonly (readonly number[])[] {
  const id = n * 16 + k;
  const known = combos.get(id);
  if (known) return known;
  const out: number[][] = [];
  const pick: number[] = [];
  const visit = (from: number): void => {
    if (pick.length === k) {
      out.push(pick.slice());
      return;
    }
    for (let i = from; i <= n - (k - pick.length); i++) {
      pick.push(i);
      visit(i + 1);
      pick.pop();
    }
  };
  visit(0);
  combos.set(id, out);
  return out;
}

/**
 * The first candidate (in the given order) with the highest score. Scores are the evaluators' own
 * values, so the chosen five always reproduce the hand's value; the order only settles which of several
 * equal fives (a kicker held in two suits) is shown.
 */
export function bestCandidate(
  candidates: Iterable<readonly number[]>,
  score: (five: readonly number[]) => number | null,
): { five: readonly number[]; value: number } | null {
  let best: readonly number[] | null = null;
  let bestValue = -Infinity;
  for (const five of candidates) {
    const v = score(five);
    if (v !== null && v > bestValue) {
      bestValue = v;
      best = five;
    }
  }
  return best === null ? null : { five: best, value: bestValue };
}

/*
 * Candidates are enumerated from the cards sorted high to low (rank, then suit s > h > d > c), so that
 * the five shown do not depend on the order the caller listed the cards in: among equal fives, the one
 * with the higher cards is shown.
 */
const highFirst = (codes: readonly number[]): number[] => [...codes].sort((a, b) => b - a);

export function subsets(cards: readonly number[], k: number): (readonly number[])[] {
  const codes = highFirst(cards);
  return choose(codes.length, k).map((idx) => idx.map((i) => codes[i]!));
}

/** Every 2-of-hole plus 3-of-board five, hole pairs outermost. */
export function omahaFives(holeCards: readonly number[], boardCards: readonly number[]): (readonly number[])[] {
  const hole = highFirst(holeCards);
  const board = highFirst(boardCards);
  const out: (readonly number[])[] = [];
  for (const p of choose(hole.length, 2)) {
    for (const t of choose(board.length, 3)) {
      out.push([hole[p[0]!]!, hole[p[1]!]!, board[t[0]!]!, board[t[1]!]!, board[t[2]!]!]);
    }
  }
  return out;
}

/**
 * Five cards in the order a player reads them: the largest group first (trips before the pair of a full
 * house), then higher ranks, then suits s > h > d > c. With `aceLow` the ace sorts as a one (wheels,
 * A-6-7-8-9, A-5 lows).
 */
export function displayOrder(five: readonly number[], aceLow: boolean): Card[] {
  const value = (code: number): number => {
    const r = code >> 2;
    return aceLow && r === 12 ? 1 : r + 2;
  };
  const count = new Map<number, number>();
  for (const c of five) count.set(value(c), (count.get(value(c)) ?? 0) + 1);
  return [...five]
    .sort((a, b) => (count.get(value(b)) ?? 0) - (count.get(value(a)) ?? 0) || value(b) - value(a) || (b & 3) - (a & 3))
    .map(cardFromCode);
}

/** Straights whose top card is not an ace but which hold one read the ace as low. */
export function straightAceLow(category: HandCategory, tiebreak: readonly number[]): boolean {
  return (category === HandCategory.STRAIGHT || category === HandCategory.STRAIGHT_FLUSH) && (tiebreak[0] ?? 14) < 14;
}
