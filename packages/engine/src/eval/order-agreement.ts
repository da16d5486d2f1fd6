/** How far two evaluators agree on the order of the same hands (see orderAgreement). */
export interface OrderAgreement {
  readonly hands: number;
  /** Hands whose pair of values is consistent with one strictly monotone mapping between the two. */
  readonly agreeing: number;
  /** Distinct values of the first evaluator seen. */
  readonly classes: number;
  readonly percent: number;
}

/**
 * Checks that two evaluators rank the same hands the same way, whatever their value scales: hand i has
 * value ours[i] and theirs[i]. Full agreement means that every pair of hands compares the same under both,
 * i.e. the map from our value to theirs is a function and strictly monotone (increasing, or decreasing
 * when `theirsLowerIsBetter`). Sorting the pairs checks that in O(n log n) instead of O(n^2) comparisons.
 * On disagreement, each of our value classes keeps its most common partner value and the hands of a
 * class whose partner breaks monotony all count as disagreeing, which gives a meaningful percentage.
 */
export function orderAgreement(
  ours: ArrayLike<number>,
  theirs: ArrayLike<number>,
  theirsLowerIsBetter: boolean,
): OrderAgreement {
  const n = ours.length;
  if (theirs.length !== n) throw new RangeError('orderAgreement needs one value per hand from each side');
  const OFFSET = 2 ** 31;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = theirsLowerIsBetter ? -theirs[i]! : theirs[i]!;
    keys[i] = ours[i]! * 2 ** 32 + (t + OFFSET);
  }
  keys.sort();
  let agreeing = 0;
  let classes = 0;
  let lastPartner = -Infinity;
  let i = 0;
  while (i < n) {
    const cls = Math.floor(keys[i]! / 2 ** 32);
    let bestPartner = 0;
    let bestCount = 0;
    while (i < n && Math.floor(keys[i]! / 2 ** 32) === cls) {
      const partner = keys[i]! - cls * 2 ** 32;
      let run = 0;
      while (i < n && keys[i] === cls * 2 ** 32 + partner) {
        run++;
        i++;
      }
      if (run > bestCount) {
        bestCount = run;
        bestPartner = partner;
      }
    }
    classes++;
    if (bestPartner > lastPartner) {
      agreeing += bestCount;
      lastPartner = bestPartner;
    }
  }
  return { hands: n, agreeing, classes, percent: n === 0 ? 100 : (100 * agreeing) / n };
}
