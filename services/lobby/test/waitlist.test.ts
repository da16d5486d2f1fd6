// Room waitlists (services/lobby/src/rooms/waitlist.ts) on the real Postgres and Redis: a player waits
// at a full room, is offered the seat that comes free for 30 s while nobody else (and no bot) may take
// it, takes it or lets it lapse to the next in line; leaving the line passes a held seat on; a closed
// room's line goes. Every refusal is typed and changes nothing; every change is told to the players
// in the line and to the table.
import { fundHouseBankroll, SeatHeldError, seatBot } from '@felt/db';
import {
  WAITLIST_MAX_PER_ROOM,
  WAITLIST_MAX_PER_USER,
  WAITLIST_OFFER_MS,
  waitlistEntrySchema,
  waitlistMessageSchema,
  waitlistsSchema,
  type LobbyWaitlistEntry,
  type WaitlistMessage,
} from '@felt/protocol';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RoomEvent } from '../src/ports.js';
import { expectError, startHarness, type Client, type Harness } from './harness.js';

type User = Client & { id: string; name: string };

let h: Harness;
let now = Date.UTC(2026, 11, 2, 12, 0, 0);
const told: { userId: string; message: WaitlistMessage }[] = [];
const events: RoomEvent[] = [];

beforeAll(async () => {
  h = await startHarness({
    clock: { now: () => new Date(now) },
    events: {
      publish: (e) => {
        events.push(e);
        return Promise.resolve();
      },
    },
    waitlistNotices: {
      send: (messages) => {
        for (const m of messages) told.push({ userId: m.userId, message: waitlistMessageSchema.parse(m.message) });
        return Promise.resolve();
      },
    },
    limits: { waitlistChangesPerUser: 1_000 },
  });
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  told.length = 0;
  events.length = 0;
});

const ROOM = { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, buyIn: { min: 40, max: 400 } } as const;

/** A room with `seats` seats, every one taken; the host sits in seat 1. */
async function fullRoom(seats = 2): Promise<{ host: User; players: User[]; roomId: string; code: string }> {
  const host = await h.user();
  const res = await host.post<{ session_id: string; code: string }>('/api/rooms', {
    config: { ...ROOM, seats },
    sit: { seat: 1, buy_in: 100 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const players = [host];
  for (let i = 1; i < seats; i++) {
    const p = await h.user();
    expect((await p.post('/api/rooms/join', { code: res.body.code, buy_in: 100 })).status).toBe(200);
    players.push(p);
  }
  return { host, players, roomId: res.body.session_id, code: res.body.code };
}

async function wait(user: User, roomId: string): Promise<LobbyWaitlistEntry> {
  const res = await user.post<LobbyWaitlistEntry>(`/api/rooms/${roomId}/waitlist`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return waitlistEntrySchema.parse(res.body);
}

async function mine(user: User): Promise<LobbyWaitlistEntry[]> {
  const res = await user.get('/api/waitlists');
  expect(res.status).toBe(200);
  return waitlistsSchema.parse(res.body).waitlists;
}

async function line(roomId: string) {
  return h.db.prisma.waitlistEntry.findMany({ where: { roomId }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] });
}

/** What the players were told, by user: the last message each got. */
function lastTold(userId: string): WaitlistMessage | undefined {
  return told.filter((t) => t.userId === userId).at(-1)?.message;
}

function tick(ms = 1): void {
  now += ms;
}

describe('room waitlists', () => {
  it('a waiting player is offered the seat that comes free; nobody else may take it; they take it', async () => {
    const { players, roomId, code } = await fullRoom();
    const [w1, w2] = [await h.user(), await h.user()];
    const first = await wait(w1, roomId);
    tick();
    const second = await wait(w2, roomId);
    expect(first).toMatchObject({ session_id: roomId, code, position: 1, length: 1, offer_expires_at: null });
    expect(second).toMatchObject({ position: 2, length: 2, offer_expires_at: null });
    // Asking again answers with the place and changes nothing.
    expect(await wait(w1, roomId)).toMatchObject({ position: 1, length: 2 });
    expect(await line(roomId)).toHaveLength(2);
    expect((await h.client().get(`/api/rooms/${roomId}`)).status).toBe(401);
    expect((await w1.get<{ waitlist: number }>(`/api/rooms/${roomId}`)).body.waitlist).toBe(2);
    expect(events.filter((e) => e.room_id === roomId && e.type === 'waitlist_changed')).toHaveLength(2);

    // A seat comes free (the ledger mode pays the leaver at once); the keeper offers it to the first.
    expect((await players[1]!.post(`/api/rooms/${roomId}/leave`)).status).toBe(200);
    told.length = 0;
    expect(await h.lobby.rooms.keepWaitlists()).toBe(1);
    const offer = (await mine(w1))[0]!;
    expect(offer.offer_expires_at).toBe(new Date(now + WAITLIST_OFFER_MS).toISOString());
    expect(lastTold(w1.id)).toMatchObject({
      status: 'offered',
      entry: { position: 1, offer_expires_at: offer.offer_expires_at },
    });
    expect(lastTold(w2.id)).toMatchObject({ status: 'waiting', entry: { position: 2, offer_expires_at: null } });
    // Nothing more to do until the offer lapses.
    expect(await h.lobby.rooms.keepWaitlists()).toBe(0);

    // The free seat is held: a stranger, and the second in line, are refused and nothing changes.
    const before = await h.snapshot();
    const stranger = await h.user();
    expectError(await stranger.post('/api/rooms/join', { code, buy_in: 100 }), 404, 'room_not_found');
    expectError(await w2.post('/api/rooms/join', { code, buy_in: 100 }), 404, 'room_not_found');
    expectError(await stranger.post('/api/rooms/quick-join', { buy_in: 100 }), 404, 'no_room_available');
    const after = (await h.snapshot()) as { memberships: unknown[] };
    expect(after.memberships).toEqual((before as { memberships: unknown[] }).memberships);
    // Waiting for a room with a held seat is a place in line, not a refusal.
    tick();
    expect(await wait(stranger, roomId)).toMatchObject({ position: 3, offer_expires_at: null });

    // The first in line takes it: out of the line, and the others move up.
    told.length = 0;
    const joined = await w1.post<{ seat: number }>('/api/rooms/join', { code, buy_in: 100 });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.seat).toBe(2);
    expect(await mine(w1)).toEqual([]);
    expect(await mine(w2)).toEqual([expect.objectContaining({ position: 1, length: 2, offer_expires_at: null })]);
    expect(lastTold(w1.id)).toEqual({ type: 'waitlist', session_id: roomId, code, status: 'seated', entry: null });
    expect(lastTold(w2.id)).toMatchObject({ status: 'waiting', entry: { position: 1, length: 2 } });
    expect(lastTold(stranger.id)).toMatchObject({ status: 'waiting', entry: { position: 2, length: 2 } });
  });

  it('an offer not taken in time lapses: that player leaves the line and the seat goes to the next', async () => {
    const { players, roomId, code } = await fullRoom();
    const [w1, w2] = [await h.user(), await h.user()];
    await wait(w1, roomId);
    tick();
    await wait(w2, roomId);
    expect((await players[1]!.post(`/api/rooms/${roomId}/leave`)).status).toBe(200);
    await h.lobby.rooms.keepWaitlists();
    expect((await mine(w1))[0]!.offer_expires_at).not.toBeNull();

    tick(WAITLIST_OFFER_MS - 1);
    expect(await h.lobby.rooms.keepWaitlists()).toBe(0);
    told.length = 0;
    tick(1);
    expect(await h.lobby.rooms.keepWaitlists()).toBe(1);
    expect(await mine(w1)).toEqual([]);
    expect(lastTold(w1.id)).toEqual({ type: 'waitlist', session_id: roomId, code, status: 'lapsed', entry: null });
    const next = (await mine(w2))[0]!;
    expect(next).toMatchObject({
      position: 1,
      length: 1,
      offer_expires_at: new Date(now + WAITLIST_OFFER_MS).toISOString(),
    });
    expect(lastTold(w2.id)).toMatchObject({ status: 'offered' });
    // The one who let it lapse cannot take it now; the next can.
    expectError(await w1.post('/api/rooms/join', { code, buy_in: 100 }), 404, 'room_not_found');
    expect((await w2.post('/api/rooms/join', { code, buy_in: 100 })).status).toBe(200);
    expect(await line(roomId)).toEqual([]);
  });

  it('a join that would take a held seat lapses the stale offer first (no keeper round needed)', async () => {
    const { players, roomId, code } = await fullRoom();
    const w1 = await h.user();
    await wait(w1, roomId);
    expect((await players[1]!.post(`/api/rooms/${roomId}/leave`)).status).toBe(200);
    await h.lobby.rooms.keepWaitlists();
    tick(WAITLIST_OFFER_MS);
    // The offer lapsed and no one else waits: a stranger may take the seat at once.
    const stranger = await h.user();
    expect((await stranger.post('/api/rooms/join', { code, buy_in: 100 })).status).toBe(200);
    expect(await mine(w1)).toEqual([]);
    expect(lastTold(w1.id)).toMatchObject({ status: 'lapsed' });
  });

  it('leaving the line passes a held seat on at once; leaving again changes nothing', async () => {
    const { players, roomId } = await fullRoom();
    const [w1, w2] = [await h.user(), await h.user()];
    await wait(w1, roomId);
    tick();
    await wait(w2, roomId);
    expect((await players[1]!.post(`/api/rooms/${roomId}/leave`)).status).toBe(200);
    await h.lobby.rooms.keepWaitlists();
    told.length = 0;
    expect((await w1.req('DELETE', `/api/rooms/${roomId}/waitlist`)).status).toBe(204);
    expect(lastTold(w1.id)).toMatchObject({ status: 'left', entry: null });
    expect(lastTold(w2.id)).toMatchObject({ status: 'offered', entry: { position: 1 } });
    expect((await mine(w2))[0]!.offer_expires_at).not.toBeNull();
    told.length = 0;
    expect((await w1.req('DELETE', `/api/rooms/${roomId}/waitlist`)).status).toBe(204);
    expect(told).toEqual([]);
  });

  it('refuses with a typed error and changes nothing: a free seat, a seat held already, no such room, too many lines', async () => {
    const { host, roomId } = await fullRoom(3);
    const snapshot = async () => ({ lines: await h.db.prisma.waitlistEntry.findMany(), all: await h.snapshot() });
    const before = await snapshot();
    // Seated players don't wait.
    expectError(await host.post(`/api/rooms/${roomId}/waitlist`), 409, 'already_seated');
    // A room with a seat free for you: join it.
    const open = await host.post<{ session_id: string; code: string }>('/api/rooms', { config: { ...ROOM, seats: 6 } });
    const u = await h.user();
    const free = expectError(await u.post(`/api/rooms/${open.body.session_id}/waitlist`), 409, 'seat_available');
    expect(free.error.details).toEqual({ code: open.body.code });
    expectError(await u.post(`/api/rooms/${randomUUID()}/waitlist`), 404, 'room_not_found');
    expectError(await u.post('/api/rooms/not-a-uuid/waitlist'), 400, 'invalid_request');
    expectError(await h.client().post(`/api/rooms/${roomId}/waitlist`), 401, 'unauthenticated');
    expectError(await h.client().get('/api/waitlists'), 401, 'unauthenticated');
    const after = await snapshot();
    expect(after.lines).toEqual(before.lines);
    expect((after.all as { memberships: unknown }).memberships).toEqual(
      (before.all as { memberships: unknown }).memberships,
    );

    // At most WAITLIST_MAX_PER_USER lines per player.
    const rooms = [];
    for (let i = 0; i < WAITLIST_MAX_PER_USER + 1; i++) rooms.push((await fullRoom()).roomId);
    for (const id of rooms.slice(0, WAITLIST_MAX_PER_USER)) await wait(u, id);
    expectError(await u.post(`/api/rooms/${rooms.at(-1)}/waitlist`), 409, 'waitlist_limit');
    expect(await line(rooms.at(-1)!)).toEqual([]);
    expect(await mine(u)).toHaveLength(WAITLIST_MAX_PER_USER);
  });

  it('holds at most WAITLIST_MAX_PER_ROOM players', async () => {
    const { roomId } = await fullRoom();
    const ids = Array.from({ length: WAITLIST_MAX_PER_ROOM }, () => randomUUID());
    await h.db.prisma.user.createMany({
      data: ids.map((id, i) => ({
        id,
        name: `wl-${i}-${id.slice(0, 6)}`,
        nameKey: `wl-${i}-${id.slice(0, 6)}`,
        passwordHash: '!',
      })),
    });
    await h.db.prisma.waitlistEntry.createMany({
      data: ids.map((userId) => ({ roomId, userId, createdAt: new Date(now) })),
    });
    const late = await h.user();
    expectError(await late.post(`/api/rooms/${roomId}/waitlist`), 409, 'waitlist_full');
    expect(await line(roomId)).toHaveLength(WAITLIST_MAX_PER_ROOM);
  });

  it('throttles a player who joins and leaves lines in a loop (each change tells the whole line)', async () => {
    const limited = await startHarness({ limits: { waitlistChangesPerUser: 3 } });
    try {
      const host = await limited.user();
      const created = await host.post<{ session_id: string; code: string }>('/api/rooms', {
        config: { ...ROOM, seats: 2 },
        sit: { buy_in: 100 },
      });
      const other = await limited.user();
      expect((await other.post('/api/rooms/join', { code: created.body.code, buy_in: 100 })).status).toBe(200);
      const u = await limited.user();
      const path = `/api/rooms/${created.body.session_id}/waitlist`;
      expect((await u.post(path)).status).toBe(200);
      expect((await u.req('DELETE', path)).status).toBe(204);
      expect((await u.post(path)).status).toBe(200);
      const refused = await u.req('DELETE', path);
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The refused leave left the entry where it was.
      expect(await limited.db.prisma.waitlistEntry.count({ where: { userId: u.id } })).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it("a closed room's line goes, and everyone in it is told", async () => {
    const { host, roomId, code } = await fullRoom();
    const w1 = await h.user();
    await wait(w1, roomId);
    expect((await host.req('DELETE', `/api/rooms/${roomId}`)).status).toBe(200);
    told.length = 0;
    expect(await h.lobby.rooms.keepWaitlists()).toBe(1);
    expect(await line(roomId)).toEqual([]);
    expect(lastTold(w1.id)).toEqual({ type: 'waitlist', session_id: roomId, code, status: 'closed', entry: null });
    expectError(await w1.post(`/api/rooms/${roomId}/waitlist`), 409, 'room_closed');
  });

  it('no bot takes a seat a waiting player needs (seatBot is refused, nothing written); a seat to spare it may', async () => {
    const { players, roomId } = await fullRoom(3);
    await fundHouseBankroll(h.db.prisma, 10_000n, `waitlist-${roomId}`);
    const w1 = await h.user();
    await wait(w1, roomId);
    // A seat comes free; before any keeper round offers it, a table asks for a bot there.
    expect((await players[2]!.post(`/api/rooms/${roomId}/leave`)).status).toBe(200);
    const botId = randomUUID();
    await expect(seatBot(h.db.prisma, { roomId, botId, seat: 3, buyIn: 100n })).rejects.toBeInstanceOf(SeatHeldError);
    expect(await h.db.prisma.membership.count({ where: { roomId, status: 'active' } })).toBe(2);
    expect(await h.db.prisma.user.findUnique({ where: { id: botId } })).toBeNull();
    // Nobody waits any more: the bot may sit.
    expect((await w1.req('DELETE', `/api/rooms/${roomId}/waitlist`)).status).toBe(204);
    await seatBot(h.db.prisma, { roomId, botId, seat: 3, buyIn: 100n });
    expect(await h.db.prisma.membership.count({ where: { roomId, status: 'active' } })).toBe(3);
  });
});
