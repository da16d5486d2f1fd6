import { safeParseRoomConfig } from '@felt/protocol';

/**
 * The number of seats at a room's table, from its RoomConfig. Never fewer than the highest occupied
 * seat, so a member is always shown even if the config and the rows disagree; a config that no
 * longer parses still yields its `seats` field rather than wedging the table.
 */
export function seatCountOf(config: unknown, members: readonly { seat: number }[]): number {
  const highest = members.reduce((n, m) => Math.max(n, m.seat), 0);
  const parsed = safeParseRoomConfig(config);
  if (parsed.success) return Math.max(parsed.config.seats, highest);
  const raw = (config ?? {}) as Record<string, unknown>;
  const seats = raw.seats;
  if (typeof seats === 'number' && Number.isInteger(seats) && seats > 0) return Math.max(seats, highest);
  return Math.max(highest, 2);
}
