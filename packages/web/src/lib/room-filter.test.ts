import type { LobbyRoomSummary } from '@felt/client';
import { describe, expect, it } from 'vitest';
import { filterRooms, NO_ROOM_FILTER, roomListQuery } from './room-filter.js';

function room(id: number, over: Partial<LobbyRoomSummary> = {}): LobbyRoomSummary {
  return {
    session_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    code: String(100000 + id),
    status: 'open',
    game: 'holdem',
    limit: 'nl',
    stakes: '1/2',
    seats: 6,
    players: 1,
    buy_in: { min: 40, max: 200 },
    listed: true,
    practice: false,
    host_id: '00000000-0000-4000-8000-000000000001',
    created_at: `2026-12-02T09:00:0${id}.000Z`,
    waitlist: 0,
    ...over,
  };
}

const rooms = [
  room(1),
  room(2, { game: 'omaha', limit: 'pl' }),
  room(3, { stakes: '5/10' }),
  room(4, { game: 'stud', limit: 'fl', stakes: '2/4' }),
  room(5, { game: 'omaha', limit: 'nl', stakes: '5/10' }),
];
const codes = (list: readonly LobbyRoomSummary[]) => list.map((r) => r.code);

describe('filterRooms', () => {
  it('keeps every room, in the list’s order, without filters', () => {
    expect(codes(filterRooms(rooms, NO_ROOM_FILTER))).toEqual(['100001', '100002', '100003', '100004', '100005']);
  });

  it('filters by game, by limit, by stakes, and by all of them at once', () => {
    expect(codes(filterRooms(rooms, { game: 'omaha', limit: '' }))).toEqual(['100002', '100005']);
    expect(codes(filterRooms(rooms, { game: '', limit: 'nl' }))).toEqual(['100001', '100003', '100005']);
    expect(codes(filterRooms(rooms, { game: '', limit: '', stakes: '5/10' }))).toEqual(['100003', '100005']);
    expect(codes(filterRooms(rooms, { game: 'omaha', limit: 'nl', stakes: '5/10' }))).toEqual(['100005']);
    expect(filterRooms(rooms, { game: 'razz', limit: '' })).toEqual([]);
  });

  it('does not change the list it is given', () => {
    const copy = [...rooms];
    filterRooms(rooms, { game: 'stud', limit: '' });
    expect(rooms).toEqual(copy);
  });
});

describe('roomListQuery', () => {
  it('asks GET /api/rooms for the same filters, leaving out the ones set to any', () => {
    expect(roomListQuery(NO_ROOM_FILTER)).toEqual({});
    expect(roomListQuery({ game: 'omaha', limit: 'pl', stakes: '1/2' })).toEqual({
      game: 'omaha',
      limit: 'pl',
      stakes: '1/2',
    });
    expect(roomListQuery({ game: '', limit: 'fl', stakes: '' })).toEqual({ limit: 'fl' });
  });
});
