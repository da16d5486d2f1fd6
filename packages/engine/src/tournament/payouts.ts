/**
 * Tournament payouts: which places are paid for a field size, what each place gets out of the prize
 * pool, and how players who finish together share. Pure integer arithmetic on whole chips of the
 * prize pool; no chip is created or lost (the amounts always add up to the pool).
 */
import { TournamentError, TournamentErrorCode } from './errors.js';

/** The basis points (1/100 of a percent) of one whole prize pool. */
export const PAYOUT_BPS_TOTAL = 10_000;

/** One row of a payout chart: a field-size bracket and the share of each paid place, best first. */
export interface PayoutBracket {
  readonly minEntrants: number;
  readonly maxEntrants: number;
  /** Basis points of the pool for places 1, 2, 3, …; they add up to {@link PAYOUT_BPS_TOTAL}. */
  readonly placeBps: readonly number[];
}

/** The largest field the standard chart covers, and so the largest tournament Felt runs. */
export const TOURNAMENT_ENTRANTS_MAX = 1000;

const places = (...parts: ReadonlyArray<number | readonly [count: number, bps: number]>): number[] =>
  parts.flatMap((p) => (typeof p === 'number' ? [p] : Array.from({ length: p[0] }, () => p[1])));

/**
 * The standard chart: about the top 15 % of the field paid, never more places than the smallest field
 * of the bracket, shares that never grow down the list. `payouts.test.ts` checks every bracket (sum,
 * order, coverage of 2..{@link TOURNAMENT_ENTRANTS_MAX} without gaps or overlaps).
 */
export const STANDARD_PAYOUTS: readonly PayoutBracket[] = [
  { minEntrants: 2, maxEntrants: 3, placeBps: [10_000] },
  { minEntrants: 4, maxEntrants: 6, placeBps: [6_500, 3_500] },
  { minEntrants: 7, maxEntrants: 10, placeBps: [5_000, 3_000, 2_000] },
  { minEntrants: 11, maxEntrants: 20, placeBps: [4_000, 2_500, 2_000, 1_500] },
  { minEntrants: 21, maxEntrants: 30, placeBps: [3_600, 2_300, 1_700, 1_300, 1_100] },
  { minEntrants: 31, maxEntrants: 45, placeBps: [3_000, 2_000, 1_500, 1_100, 900, 800, 700] },
  { minEntrants: 46, maxEntrants: 60, placeBps: [2_800, 1_800, 1_300, 1_000, 800, 700, 600, 500, 500] },
  {
    minEntrants: 61,
    maxEntrants: 90,
    placeBps: places(2_600, 1_650, 1_200, 900, 750, 600, 500, 400, 350, [3, 350]),
  },
  {
    minEntrants: 91,
    maxEntrants: 135,
    placeBps: places(2_500, 1_600, 1_150, 850, 700, 550, 450, 380, 320, [3, 180], [6, 160]),
  },
  {
    minEntrants: 136,
    maxEntrants: 200,
    placeBps: places(2_400, 1_500, 1_100, 820, 660, 530, 430, 360, 310, [9, 120], [9, 90]),
  },
  {
    minEntrants: 201,
    maxEntrants: 300,
    placeBps: places(2_200, 1_400, 1_000, 780, 620, 500, 400, 330, 295, [9, 110], [9, 90], [9, 75]),
  },
  {
    minEntrants: 301,
    maxEntrants: 500,
    placeBps: places(2_000, 1_300, 950, 740, 590, 480, 390, 320, 260, [9, 100], [9, 80], [9, 65], [9, 55], [9, 30]),
  },
  {
    minEntrants: 501,
    maxEntrants: TOURNAMENT_ENTRANTS_MAX,
    placeBps: places(
      1_800,
      1_150,
      850,
      660,
      530,
      430,
      350,
      290,
      277,
      [9, 85],
      [9, 65],
      [9, 55],
      [9, 45],
      [9, 40],
      [9, 35],
      [9, 30],
      [9, 27],
      [9, 25],
    ),
  },
];

/** The bracket of `chart` that covers a field of `entrants`. */
export function payoutBracket(entrants: number, chart: readonly PayoutBracket[] = STANDARD_PAYOUTS): PayoutBracket {
  const bracket = chart.find((b) => entrants >= b.minEntrants && entrants <= b.maxEntrants);
  if (!Number.isSafeInteger(entrants) || bracket === undefined) {
    throw new TournamentError(TournamentErrorCode.FIELD_SIZE, `no payout bracket covers ${entrants} entrants`, {
      entrants,
    });
  }
  return bracket;
}

/**
 * What each paid place wins out of `prizePool` for a field of `entrants`, best place first. Each share
 * is rounded down and what rounding leaves goes to first place, so the amounts add up to the pool.
 */
export function placePrizes(
  prizePool: number,
  entrants: number,
  chart: readonly PayoutBracket[] = STANDARD_PAYOUTS,
): number[] {
  if (!Number.isSafeInteger(prizePool) || prizePool < 0) {
    throw new TournamentError(TournamentErrorCode.AMOUNT_INVALID, `prize pool ${prizePool} is not whole chips`, {
      prizePool,
    });
  }
  const { placeBps } = payoutBracket(entrants, chart);
  // BigInt: a pool near 10^15 times 10^4 basis points is past 2^53.
  const pool = BigInt(prizePool);
  const prizes = placeBps.map((bps) => (pool * BigInt(bps)) / BigInt(PAYOUT_BPS_TOTAL));
  const paid = prizes.reduce((a, b) => a + b, 0n);
  prizes[0] = prizes[0]! + (pool - paid);
  return prizes.map(Number);
}

/**
 * What each of `count` players who finish together, taking places `firstPlace` to
 * `firstPlace + count - 1`, receives: the prizes of those places (unpaid places are 0) shared equally,
 * rounded down, the odd chips one each to the first players in the caller's order (the order of
 * `players`, e.g. clockwise from the button as for a split pot). `prizes` is from {@link placePrizes}.
 */
export function shareTiedPlaces<P>(
  prizes: readonly number[],
  firstPlace: number,
  players: readonly P[],
): Array<{ player: P; place: number; amount: number }> {
  if (!Number.isSafeInteger(firstPlace) || firstPlace < 1) {
    throw new TournamentError(TournamentErrorCode.PLACE_INVALID, `place ${firstPlace} is not a place`, {
      place: firstPlace,
    });
  }
  const count = players.length;
  if (count === 0) return [];
  let total = 0;
  for (let place = firstPlace; place < firstPlace + count; place++) total += prizes[place - 1] ?? 0;
  const each = Math.floor(total / count);
  const odd = total - each * count;
  return players.map((player, i) => ({ player, place: firstPlace, amount: each + (i < odd ? 1 : 0) }));
}

/** How players who bust in the same hand are placed: by their stacks at its start, or all tied. */
export const SimultaneousBustRule = {
  /** The player who started the hand with more chips finishes higher; equal stacks tie (TDA practice). */
  STARTING_STACK: 'starting_stack',
  /** Everyone busted in the same hand ties for the places they cover. */
  TIE: 'tie',
} as const;
export type SimultaneousBustRule = (typeof SimultaneousBustRule)[keyof typeof SimultaneousBustRule];

export interface Bust<P> {
  readonly player: P;
  /** The player's chips when the hand in which they busted began. */
  readonly startingStack: number;
}

/**
 * Places the players of one elimination event (one hand, or one hand-for-hand round across tables):
 * with `remaining` players still in after it, they take places `remaining + 1` and below, best place
 * first. Each group shares its places ({@link shareTiedPlaces}); within a group the input order is kept,
 * so the caller's order decides the odd chips.
 */
export function placeBusts<P>(
  busts: readonly Bust<P>[],
  remaining: number,
  rule: SimultaneousBustRule,
): Array<{ place: number; players: P[] }> {
  if (!Number.isSafeInteger(remaining) || remaining < 0) {
    throw new TournamentError(TournamentErrorCode.PLACE_INVALID, `${remaining} players remaining`, {
      place: remaining,
    });
  }
  if (busts.length === 0) return [];
  if (rule === SimultaneousBustRule.TIE) return [{ place: remaining + 1, players: busts.map((b) => b.player) }];
  const byStack = busts.map((b, i) => ({ ...b, i })).sort((a, b) => b.startingStack - a.startingStack || a.i - b.i);
  const groups: Array<{ place: number; players: P[] }> = [];
  let place = remaining + 1;
  for (let k = 0; k < byStack.length;) {
    const stack = byStack[k]!.startingStack;
    const players: P[] = [];
    while (k < byStack.length && byStack[k]!.startingStack === stack) players.push(byStack[k++]!.player);
    groups.push({ place, players });
    place += players.length;
  }
  return groups;
}
