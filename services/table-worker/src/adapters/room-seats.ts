/**
 * The number of seats at a room's table, read from its RoomConfig. Never fewer than the highest
 * occupied seat, so a member is always shown even if the config and the rows disagree.
 */
export function seatCountOf(config: unknown, members: readonly { seat: number }[]): number {
  const highest = members.reduce((n, m) => Math.max(n, m.seat), 0);
  const c = (config ?? {}) as Record<string, unknown>;
  for (const key of ['seats', 'seat_count', 'max_seats']) {
    const v = c[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return Math.max(v, highest);
  }
  return Math.max(highest, 2);
}
