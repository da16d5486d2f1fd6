// The host's chat switch (PATCH /api/rooms/{id}/chat) on the real Postgres and Redis: only the host
// may use it, the body is checked, rooms.config's chat changes and nothing else of it, the table's
// seed (what a worker's refresh reads) carries the new setting, and the room event that makes the
// worker refresh is published after the commit.
import { loadTableSeed } from '@felt/db';
import { parseRoomConfig } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, listenRoomEvents, startHarness, type Client, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

type User = Client & { id: string; name: string };

interface Detail {
  session_id: string;
  code: string;
  host_id: string;
  config: Record<string, unknown> & { chat?: { enabled: boolean; spectators: boolean } };
  members: { user_id: string; seat: number }[];
}

async function hostedRoom(): Promise<{ host: User; room: Detail }> {
  const host = await h.user();
  const res = await host.post<{ room: Detail }>('/api/rooms', {
    config: { seats: 4, stakes: { smallBlind: 1, bigBlind: 2 }, buyIn: { min: 40, max: 400 } },
    sit: { seat: 1, buy_in: 100 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { host, room: res.body.room };
}

async function storedConfig(roomId: string): Promise<unknown> {
  return (await h.db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).config;
}

describe('PATCH /api/rooms/{id}/chat', () => {
  it('lets the host turn chat off and spectators on, keeps the rest of the config, and tells the table', async () => {
    const { host, room } = await hostedRoom();
    const before = parseRoomConfig(await storedConfig(room.session_id));
    expect(before.chat).toEqual({ enabled: true, spectators: false });
    const listener = await listenRoomEvents(h);
    try {
      const off = await host.req<Detail>('PATCH', `/api/rooms/${room.session_id}/chat`, { enabled: false });
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      expect(off.body.session_id).toBe(room.session_id);
      expect(off.body.config.chat).toEqual({ enabled: false, spectators: false });
      expect(off.body.members).toEqual([expect.objectContaining({ user_id: host.id, seat: 1 })]);

      // A field left out keeps its value.
      const spectators = await host.req<Detail>('PATCH', `/api/rooms/${room.session_id}/chat`, { spectators: true });
      expect(spectators.status).toBe(200);
      expect(spectators.body.config.chat).toEqual({ enabled: false, spectators: true });

      const after = parseRoomConfig(await storedConfig(room.session_id));
      expect(after).toEqual({ ...before, chat: { enabled: false, spectators: true } });
      // What a worker's refresh of the room rows reads.
      const seed = await loadTableSeed(h.db.prisma, room.session_id, parseRoomConfig);
      expect(seed?.room.config.chat).toEqual({ enabled: false, spectators: true });
      expect((await host.get<Detail>(`/api/rooms/${room.session_id}`)).body.config.chat).toEqual({
        enabled: false,
        spectators: true,
      });

      expect(await listener.settled()).toEqual([
        { room_id: room.session_id, type: 'chat_changed' },
        { room_id: room.session_id, type: 'chat_changed' },
      ]);

      const on = await host.req<Detail>('PATCH', `/api/rooms/${room.session_id}/chat`, {
        enabled: true,
        spectators: false,
      });
      expect(on.body.config.chat).toEqual({ enabled: true, spectators: false });
      expect(parseRoomConfig(await storedConfig(room.session_id)).chat).toEqual({ enabled: true, spectators: false });
    } finally {
      await listener.close();
    }
  });

  it('refuses anyone but the host with 403 not_host, a seated player included, and changes nothing', async () => {
    const { room } = await hostedRoom();
    const guest = await h.user();
    expect((await guest.post('/api/rooms/join', { code: room.code, buy_in: 100 })).status).toBe(200);
    const stranger = await h.user();
    const listener = await listenRoomEvents(h);
    try {
      for (const who of [guest, stranger]) {
        expectError(await who.req('PATCH', `/api/rooms/${room.session_id}/chat`, { enabled: false }), 403, 'not_host');
      }
      expect(parseRoomConfig(await storedConfig(room.session_id)).chat).toEqual({ enabled: true, spectators: false });
      expect(await listener.settled()).toEqual([]);
    } finally {
      await listener.close();
    }
  });

  it('refuses a bad body with 400 invalid_request, and answers 401 signed out and 404 for no such room', async () => {
    const { host, room } = await hostedRoom();
    const path = `/api/rooms/${room.session_id}/chat`;
    for (const body of [{}, { enabled: 'no' }, { spectators: 1 }, { enabled: false, slowMode: true }, [], null]) {
      expectError(await host.req('PATCH', path, body), 400, 'invalid_request');
    }
    expect(parseRoomConfig(await storedConfig(room.session_id)).chat).toEqual({ enabled: true, spectators: false });
    expectError(await h.client().req('PATCH', path, { enabled: false }), 401, 'unauthenticated');
    expectError(
      await host.req('PATCH', '/api/rooms/00000000-0000-4000-8000-000000000000/chat', { enabled: false }),
      404,
      'room_not_found',
    );
    expectError(await host.req('PATCH', '/api/rooms/not-a-uuid/chat', { enabled: false }), 400, 'invalid_request');
  });

  it('refuses a closed room with 409 room_closed', async () => {
    const { host, room } = await hostedRoom();
    expect((await host.req('DELETE', `/api/rooms/${room.session_id}`)).status).toBe(200);
    expectError(await host.req('PATCH', `/api/rooms/${room.session_id}/chat`, { enabled: false }), 409, 'room_closed');
  });
});
