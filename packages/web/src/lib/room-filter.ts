import type { LobbyRoomSummary } from '@felt/client';
import type { BettingLimit, GameType } from '@felt/protocol';

/** The lobby screen's filters; '' means any. */
export interface RoomFilter {
  readonly game: GameType | '';
  readonly limit: BettingLimit | '';
  /** The stakes label as the list shows it (`1/2`), or '' for any. */
  readonly stakes?: string;
}

export const NO_ROOM_FILTER: RoomFilter = { game: '', limit: '' };

/**
 * The rooms of the live lobby's list that match the filters, in the list's order (oldest first). The
 * live list is GET /api/rooms without filters, so the page filters it as the lobby's query does:
 * exact game, exact limit, exact stakes label.
 */
export function filterRooms(rooms: readonly LobbyRoomSummary[], filter: RoomFilter): LobbyRoomSummary[] {
  const stakes = filter.stakes ?? '';
  return rooms.filter(
    (r) =>
      (filter.game === '' || r.game === filter.game) &&
      (filter.limit === '' || r.limit === filter.limit) &&
      (stakes === '' || r.stakes === stakes),
  );
}

/** The same filters as the query of GET /api/rooms, for polling while the live lobby is not live. */
export function roomListQuery(filter: RoomFilter): Partial<{ game: GameType; limit: BettingLimit; stakes: string }> {
  return {
    ...(filter.game !== '' ? { game: filter.game } : {}),
    ...(filter.limit !== '' ? { limit: filter.limit } : {}),
    ...(filter.stakes !== undefined && filter.stakes !== '' ? { stakes: filter.stakes } : {}),
  };
}
