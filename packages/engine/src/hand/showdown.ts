import type { AwardSide, RevealReason } from './operations.js';
import type { Pot } from './pots.js';
import type { ShowdownOptions } from './setup.js';

/** One share of one pot, before rake. */
export interface PotShare {
  readonly seat: number;
  readonly side: AwardSide;
  readonly gross: number;
}

export interface PotAward {
  readonly pot: number;
  readonly amount: number;
  readonly contenders: readonly number[];
  readonly contested: boolean;
  readonly shares: readonly PotShare[];
}

/** Who gets the odd chips of a split pot (the `oddChips` house rule). */
export type OddChipRule = 'one_each' | 'first_winner';

/**
 * Splits `amount` evenly among `winners`. Odd chips go one each to the winners nearest clockwise from
 * the button (the default), or all to the first of them (`first_winner`).
 * @param rank clockwise position of each seat, 0 for the first seat after the button
 */
export function splitEvenly(
  amount: number,
  winners: readonly number[],
  rank: ReadonlyMap<number, number>,
  oddChips: OddChipRule = 'one_each',
): Map<number, number> {
  const ordered = [...winners].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  const base = Math.floor(amount / ordered.length);
  let odd = amount - base * ordered.length;
  const out = new Map<number, number>();
  for (const seat of ordered) {
    const extra = oddChips === 'first_winner' ? odd : Math.min(odd, 1);
    out.set(seat, base + extra);
    odd -= extra;
  }
  return out;
}

function best(contenders: readonly number[], value: (seat: number) => number | null): number[] {
  let top: number | null = null;
  let winners: number[] = [];
  for (const seat of contenders) {
    const v = value(seat);
    if (v === null) continue;
    if (top === null || v > top) {
      top = v;
      winners = [seat];
    } else if (v === top) winners.push(seat);
  }
  return winners;
}

/**
 * Judges every pot among its own contenders. With a low side, a pot with a qualifying low splits in
 * half and the odd chip goes to the high half; without one, high takes it all.
 * @param values hand values per live seat, one entry per showdown side (high first); null for a fold win
 * @param firstSide what the first side is: 'high', or 'low' in the games judged for low only (Razz, 2-7)
 */
export function awardPots(
  pots: readonly Readonly<Pot>[],
  values: ReadonlyMap<number, readonly (number | null)[]> | null,
  rank: ReadonlyMap<number, number>,
  firstSide: 'high' | 'low' = 'high',
  oddChips: OddChipRule = 'one_each',
): PotAward[] {
  return pots.map((pot, index): PotAward => {
    const contenders = pot.eligible;
    if (contenders.length === 1 || values === null) {
      // Validated beforehand: a fold win leaves exactly one live contender in every pot.
      return {
        pot: index,
        amount: pot.amount,
        contenders,
        contested: false,
        shares: [{ seat: contenders[0]!, side: 'uncontested', gross: pot.amount }],
      };
    }
    const high = best(contenders, (s) => values.get(s)?.[0] ?? null);
    const hasLowSide = [...values.values()].some((v) => v.length > 1);
    const low = hasLowSide ? best(contenders, (s) => values.get(s)?.[1] ?? null) : [];
    const shares: PotShare[] = [];
    if (low.length > 0) {
      const lowAmount = Math.floor(pot.amount / 2);
      for (const [seat, gross] of splitEvenly(pot.amount - lowAmount, high, rank, oddChips))
        shares.push({ seat, side: 'high', gross });
      for (const [seat, gross] of splitEvenly(lowAmount, low, rank, oddChips))
        shares.push({ seat, side: 'low', gross });
    } else {
      for (const [seat, gross] of splitEvenly(pot.amount, high, rank, oddChips))
        shares.push({ seat, side: firstSide, gross });
    }
    return { pot: index, amount: pot.amount, contenders, contested: true, shares };
  });
}

export interface RevealDecision {
  readonly seat: number;
  /** show, muck, or leave the hand face down (a winner the table does not force to show). */
  readonly decision: 'show' | 'muck' | 'hidden';
  readonly reason: RevealReason;
}

/**
 * The reveal rules. The show order starts with the last aggressor (or, with none, the first
 * live seat after the button) and continues clockwise; the first to show, all-ins and winners of
 * contested pots must show; other losers muck automatically.
 * @param order live seats clockwise from the first seat after the button
 */
export function decideReveals(
  options: ShowdownOptions,
  order: readonly number[],
  lastAggressor: number | null,
  allIn: ReadonlySet<number>,
  contestedWinners: ReadonlySet<number>,
  alreadyShown: ReadonlySet<number>,
): RevealDecision[] {
  let start = 0;
  const aggressorFirst = lastAggressor !== null && options.lastAggressorShowsFirst && order.includes(lastAggressor);
  if (aggressorFirst) start = order.indexOf(lastAggressor);
  const showOrder = [...order.slice(start), ...order.slice(0, start)];
  const out: RevealDecision[] = [];
  showOrder.forEach((seat, i) => {
    if (alreadyShown.has(seat)) return;
    if (!options.allowMuck || options.showAllHands) out.push({ seat, decision: 'show', reason: 'show_all' });
    else if (i === 0) out.push({ seat, decision: 'show', reason: aggressorFirst ? 'last_aggressor' : 'first_to_show' });
    else if (allIn.has(seat) && options.allInMustShow) out.push({ seat, decision: 'show', reason: 'all_in_required' });
    else if (contestedWinners.has(seat)) {
      if (options.contestedWinnerMustShow) out.push({ seat, decision: 'show', reason: 'winner_required' });
      else out.push({ seat, decision: 'hidden', reason: 'voluntary' });
    } else if (!options.autoMuck) out.push({ seat, decision: 'show', reason: 'no_auto_muck' });
    else out.push({ seat, decision: 'muck', reason: 'auto_muck_loser' });
  });
  return out;
}
