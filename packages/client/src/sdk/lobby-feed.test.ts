import type { LobbyRoomSummary } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { LobbyFeedState } from './lobby-feed.js';

const room = (n: number, players = 0): LobbyRoomSummary => ({
  session_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  code: String(100000 + n),
  status: 'open',
  game: 'holdem',
  limit: 'nl',
  stakes: '1/2',
  seats: 6,
  players,
  buy_in: { min: 40, max: 200 },
  listed: true,
  practice: false,
  host_id: '00000000-0000-4000-8000-000000000999',
  created_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  waitlist: 0,
});

describe('LobbyFeedState', () => {
  it('a fresh list replaces everything; a delta that follows it applies; older ones are ignored', () => {
    const s = new LobbyFeedState();
    expect(s.apply({ type: 'lobby_delta', version: 2, prev_version: 1, upserts: [room(1)], removed: [] })).toBe(
      'stale',
    );
    expect(s.apply({ type: 'lobby_rooms', version: 5, rooms: [room(2), room(1)] })).toBe('applied');
    expect(s.rooms().map((r) => r.code)).toEqual(['100001', '100002']);
    // Published while the list was read: already in it.
    expect(s.apply({ type: 'lobby_delta', version: 5, prev_version: 4, upserts: [room(9)], removed: [] })).toBe(
      'stale',
    );
    expect(
      s.apply({
        type: 'lobby_delta',
        version: 6,
        prev_version: 5,
        upserts: [room(1, 3), room(3)],
        removed: [room(2).session_id],
      }),
    ).toBe('applied');
    expect(s.rooms().map((r) => [r.code, r.players])).toEqual([
      ['100001', 3],
      ['100003', 0],
    ]);
    expect(s.version).toBe(6);
  });

  it('a delta that skips a version is a gap, and changes nothing', () => {
    const s = new LobbyFeedState();
    s.apply({ type: 'lobby_rooms', version: 1, rooms: [room(1)] });
    expect(
      s.apply({ type: 'lobby_delta', version: 3, prev_version: 2, upserts: [], removed: [room(1).session_id] }),
    ).toBe('gap');
    expect(s.rooms()).toHaveLength(1);
    expect(s.version).toBe(1);
  });

  it('after the socket is lost, deltas wait for a fresh list; the rooms stay as last known', () => {
    const s = new LobbyFeedState();
    s.apply({ type: 'lobby_rooms', version: 1, rooms: [room(1)] });
    s.lost();
    expect(s.version).toBeNull();
    expect(s.apply({ type: 'lobby_delta', version: 2, prev_version: 1, upserts: [room(2)], removed: [] })).toBe(
      'stale',
    );
    expect(s.rooms()).toHaveLength(1);
  });
});
