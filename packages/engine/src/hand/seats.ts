/**
 * Seat arithmetic. Clockwise is ascending seat number, wrapping around; seat numbers need not be
 * contiguous, so every function works on the list of seats that matter.
 */

/** `seats` in clockwise order starting with the first seat after `from` (and ending with `from` if present). */
export function orderFromButton(seats: readonly number[], from: number): number[] {
  const sorted = [...seats].sort((a, b) => a - b);
  let i = 0;
  while (i < sorted.length && sorted[i]! <= from) i++;
  return [...sorted.slice(i), ...sorted.slice(0, i)];
}

/**
 * The first seat strictly after `from`, clockwise, that satisfies `pred`; null when none does.
 * `sortedSeats` must be in ascending order.
 */
export function nextSeat(sortedSeats: readonly number[], from: number, pred: (seat: number) => boolean): number | null {
  const n = sortedSeats.length;
  let start = 0;
  while (start < n && sortedSeats[start]! <= from) start++;
  for (let k = 0; k < n; k++) {
    const seat = sortedSeats[(start + k) % n]!;
    if (pred(seat)) return seat;
  }
  return null;
}

/** Clockwise position of each seat counted from the first seat after `from` (0), to sort by position. */
export function clockwiseRank(seats: readonly number[], from: number): Map<number, number> {
  const rank = new Map<number, number>();
  orderFromButton(seats, from).forEach((s, i) => rank.set(s, i));
  return rank;
}
