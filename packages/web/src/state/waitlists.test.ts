import type { FeltClient, LobbyWaitlistEntry } from '@felt/client';
import type { WaitlistMessage } from '@felt/protocol';
import { describe, expect, it, vi } from 'vitest';
import { applyWaitlistMessage, offerSecondsLeft, Waitlists, type WaitlistLobby } from './waitlists.js';

const ROOM_A = '00000000-0000-4000-8000-00000000000a';
const ROOM_B = '00000000-0000-4000-8000-00000000000b';

function entry(roomId: string, over: Partial<LobbyWaitlistEntry> = {}): LobbyWaitlistEntry {
  return { session_id: roomId, code: roomId.slice(-6), position: 1, length: 1, offer_expires_at: null, ...over };
}

function message(roomId: string, status: WaitlistMessage['status'], e: LobbyWaitlistEntry | null): WaitlistMessage {
  return { type: 'waitlist', session_id: roomId, code: roomId.slice(-6), status, entry: e };
}

describe('applyWaitlistMessage', () => {
  it('an entry replaces the room in place or joins at the end; none drops the room', () => {
    const list = [entry(ROOM_A, { position: 2, length: 2 })];
    const moved = applyWaitlistMessage(list, message(ROOM_A, 'waiting', entry(ROOM_A, { position: 1, length: 1 })));
    expect(moved).toEqual([entry(ROOM_A)]);
    const two = applyWaitlistMessage(moved, message(ROOM_B, 'waiting', entry(ROOM_B)));
    expect(two.map((e) => e.session_id)).toEqual([ROOM_A, ROOM_B]);
    for (const status of ['seated', 'left', 'lapsed', 'closed'] as const) {
      expect(applyWaitlistMessage(two, message(ROOM_A, status, null)).map((e) => e.session_id)).toEqual([ROOM_B]);
    }
    // A message about a room not in the list that drops it changes nothing.
    expect(applyWaitlistMessage(list, message(ROOM_B, 'left', null))).toBe(list);
  });
});

describe('offerSecondsLeft', () => {
  it('counts down whole seconds to the lapse, never below zero; null without an offer', () => {
    const at = Date.UTC(2026, 11, 2, 12, 0, 30);
    const offered = entry(ROOM_A, { offer_expires_at: new Date(at).toISOString() });
    expect(offerSecondsLeft(offered, at - 30_000)).toBe(30);
    expect(offerSecondsLeft(offered, at - 1_500)).toBe(2);
    expect(offerSecondsLeft(offered, at + 5_000)).toBe(0);
    expect(offerSecondsLeft(entry(ROOM_A), at)).toBeNull();
  });
});

describe('Waitlists', () => {
  function setup() {
    const server: LobbyWaitlistEntry[] = [entry(ROOM_A)];
    const lobby: WaitlistLobby = {
      waitlists: () => Promise.resolve([...server]),
      joinWaitlist: (roomId) => Promise.resolve(entry(roomId, { position: 3, length: 3 })),
      leaveWaitlist: () => Promise.resolve(),
    };
    const handlers = new Map<string, (v: unknown) => void>();
    const client = {
      on: (event: string, fn: (v: unknown) => void) => {
        handlers.set(event, fn);
        return () => handlers.delete(event);
      },
    } as unknown as Pick<FeltClient, 'on'>;
    const heard: WaitlistMessage[] = [];
    const lists = new Waitlists(lobby, (m) => heard.push(m));
    return { server, lists, client, handlers, heard };
  }

  it('reads the list when started and whenever the socket opens; follows messages; joins and leaves', async () => {
    const { server, lists, client, handlers, heard } = setup();
    lists.start(client);
    await vi.waitFor(() => expect(lists.entries.get()).toEqual([entry(ROOM_A)]));
    const offered = message(ROOM_A, 'offered', entry(ROOM_A, { offer_expires_at: '2026-12-02T12:00:30.000Z' }));
    handlers.get('waitlist')!(offered);
    expect(lists.entries.get()[0]!.offer_expires_at).toBe('2026-12-02T12:00:30.000Z');
    expect(heard).toEqual([offered]);
    // A message missed while the socket was down: the list is read again when it opens.
    server.length = 0;
    handlers.get('open')!(undefined);
    await vi.waitFor(() => expect(lists.entries.get()).toEqual([]));
    expect((await lists.join(ROOM_B)).position).toBe(3);
    expect(lists.entries.get().map((e) => e.session_id)).toEqual([ROOM_B]);
    await lists.leave(ROOM_B);
    expect(lists.entries.get()).toEqual([]);
    lists.stop();
    expect(handlers.size).toBe(0);
  });
});
