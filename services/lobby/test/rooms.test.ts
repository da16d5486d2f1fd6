import { ledgerTotals, loadTableSeed } from '@felt/db';
import { parseRoomConfig } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenRoomEvents, startHarness, type Client, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

interface Created {
  session_id: string;
  code: string;
  room: { members: unknown[]; config: Record<string, unknown>; stakes: string; players: number };
  seat: { seat: number; stack: number; wallet: number } | null;
}

type User = Client & { id: string; name: string };

async function createRoom(host: User, body: Record<string, unknown> = {}): Promise<Created> {
  const res = await host.post<Created>('/api/rooms', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function wallet(c: Client): Promise<number> {
  return (await c.get<{ wallet: number }>('/api/me')).body.wallet;
}

async function expectRefusal(
  res: Promise<{ status: number; body: unknown }>,
  status: number,
  code: string,
): Promise<void> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ error: { code } });
}

describe('create', () => {
  it('creates a room from a full config and returns session_id and a six-digit code', async () => {
    const host = await h.user();
    const body = await createRoom(host, {
      config: {
        game: 'omaha',
        stakes: { smallBlind: 5, bigBlind: 10 },
        seats: 9,
        buyIn: { min: 400, max: 2000 },
        clock: { actionSeconds: 20, timeBankSeconds: 30, warningSeconds: 5 },
        rake: { percent: 5, cap: 30 },
      },
    });
    expect(body.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.code).toMatch(/^[0-9]{6}$/);
    expect(body.seat).toBeNull();
    const row = await h.db.prisma.room.findUniqueOrThrow({ where: { id: body.session_id } });
    expect(row.hostId).toBe(host.id);
    expect(row.status).toBe('open');
    // Stored as the parsed config, limit defaulted to PL for Omaha.
    expect(row.config).toEqual(parseRoomConfig(row.config));
    expect(parseRoomConfig(row.config)).toMatchObject({ game: 'omaha', limit: 'pl', seats: 9 });
    expect(body.room.config).toEqual(row.config);
    expect(await wallet(host)).toBe(10_000);
  });

  it('seats the host with a buy-in when asked, moving wallet to escrow in one ledger transaction', async () => {
    const host = await h.user();
    const body = await createRoom(host, { config: { stakes: { bigBlind: 10 } }, sit: { seat: 3, buy_in: 600 } });
    expect(body.seat).toMatchObject({ seat: 3, stack: 600, wallet: 9_400 });
    expect(body.room.members).toEqual([{ user_id: host.id, name: host.name, seat: 3, stack: 600 }]);
    const seed = await loadTableSeed(h.db.prisma, body.session_id, parseRoomConfig);
    expect(seed?.members).toEqual([
      {
        userId: host.id,
        name: host.name,
        seat: 3,
        status: 'active',
        membershipId: expect.any(String),
        stack: 600n,
        pendingTopUps: [],
        leaveRequested: false,
      },
    ]);
    const buyIns = await h.db.prisma.ledgerTransaction.findMany({
      where: { roomId: body.session_id, kind: 'buy_in' },
      include: { entries: true },
    });
    expect(buyIns).toHaveLength(1);
    expect(buyIns[0]!.entries.map((e) => e.amount).sort()).toEqual([-600n, 600n]);
  });

  it('refuses an invalid config with every issue listed, creating nothing', async () => {
    const host = await h.user();
    const before = await h.snapshot();
    const res = await host.post<{ error: { code: string; details: { issues: { path: string }[] } } }>('/api/rooms', {
      config: { game: 'stud', seats: 9, stakes: { smallBet: 10, bringIn: 11 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_room_config');
    expect(res.body.error.details.issues.map((i) => i.path).sort()).toEqual(['seats', 'stakes.bringIn']);
    // A bot-fill room leaves a seat for players to join.
    const full = await host.post<{ error: { code: string; details: { issues: { path: string }[] } } }>('/api/rooms', {
      config: { seats: 6, botFill: { mode: 'fill', targetPlayers: 6 } },
    });
    expect(full.status).toBe(400);
    expect(full.body.error.details.issues.map((i) => i.path)).toEqual(['botFill.targetPlayers']);
    await expectRefusal(host.post('/api/rooms', { config: { game: 'poker' } }), 400, 'invalid_request');
    await expectRefusal(host.post('/api/rooms', { config: {}, surprise: 1 }), 400, 'invalid_request');
    await expectRefusal(
      host.post('/api/rooms', { config: { stakes: { bigBlind: 10 } }, sit: { buy_in: 50 } }),
      400,
      'buy_in_out_of_range',
    );
    await expectRefusal(
      host.post('/api/rooms', { config: { seats: 4 }, sit: { seat: 5, buy_in: 100 } }),
      400,
      'invalid_seat',
    );
    expect(await h.snapshot()).toEqual(before);
  });

  it('refuses a seated create the wallet cannot cover, creating no room', async () => {
    const host = await h.user();
    const before = await h.snapshot();
    await expectRefusal(
      host.post('/api/rooms', {
        config: { stakes: { bigBlind: 200 }, buyIn: { min: 10_001, max: 20_000 } },
        sit: { buy_in: 10_001 },
      }),
      409,
      'insufficient_funds',
    );
    expect(await h.snapshot()).toEqual(before);
  });

  it('requires a session', async () => {
    await expectRefusal(h.client().post('/api/rooms', {}), 401, 'unauthenticated');
  });
});

describe('join by code', () => {
  it('seats a player in the first free seat or the chosen one, and publishes after the commit', async () => {
    const host = await h.user();
    const room = await createRoom(host, { config: { seats: 4 }, sit: { seat: 1, buy_in: 100 } });
    const listener = await listenRoomEvents(h);
    try {
      const a = await h.user();
      const joined = await a.post('/api/rooms/join', { code: room.code, buy_in: 150 });
      expect(joined.status).toBe(200);
      expect(joined.body).toEqual({
        session_id: room.session_id,
        code: room.code,
        seat: 2,
        stack: 150,
        wallet: 9_850,
        replayed: false,
      });
      const b = await h.user();
      expect((await b.post('/api/rooms/join', { code: room.code, seat: 4, buy_in: 200 })).body).toMatchObject({
        seat: 4,
      });
      expect(await listener.settled()).toEqual([
        { room_id: room.session_id, type: 'member_joined', user_id: a.id },
        { room_id: room.session_id, type: 'member_joined', user_id: b.id },
      ]);
      const me = await a.get<{ seats: unknown[] }>('/api/me');
      expect(me.body.seats).toEqual([{ session_id: room.session_id, code: room.code, seat: 2, stack: 150 }]);
    } finally {
      await listener.close();
    }
  });

  // Every reason a room can't seat you answers like a missing code (room_not_found), so
  // codes can't be probed without buying in; what depends on you alone (a seat you hold, your wallet,
  // a malformed body) is still said as it is.
  it('refuses taken seats, double seating, a full room, short wallets, bad buy-ins and unknown codes, changing nothing', async () => {
    const host = await h.user();
    const room = await createRoom(host, { config: { seats: 2 }, sit: { seat: 1, buy_in: 100 } });
    const poor = await h.user();
    // Leave the poor player 50 chips: below the room's 80 minimum.
    const sink = await createRoom(poor, { config: { stakes: { bigBlind: 100 }, buyIn: { min: 1000, max: 9950 } } });
    expect((await poor.post('/api/rooms/join', { code: sink.code, buy_in: 9_950 })).status).toBe(200);
    const other = await h.user();

    const before = await h.snapshot();
    await expectRefusal(
      other.post('/api/rooms/join', { code: room.code, seat: 1, buy_in: 100 }),
      404,
      'room_not_found',
    );
    await expectRefusal(host.post('/api/rooms/join', { code: room.code, buy_in: 100 }), 409, 'already_seated');
    await expectRefusal(poor.post('/api/rooms/join', { code: room.code, buy_in: 80 }), 409, 'insufficient_funds');
    // The wallet is checked before the code: a missing room can't hide behind it either.
    await expectRefusal(poor.post('/api/rooms/join', { code: '000000', buy_in: 80 }), 409, 'insufficient_funds');
    await expectRefusal(other.post('/api/rooms/join', { code: room.code, buy_in: 79 }), 404, 'room_not_found');
    await expectRefusal(other.post('/api/rooms/join', { code: room.code, buy_in: 201 }), 404, 'room_not_found');
    await expectRefusal(
      other.post('/api/rooms/join', { code: room.code, seat: 3, buy_in: 100 }),
      404,
      'room_not_found',
    );
    await expectRefusal(other.post('/api/rooms/join', { code: '000000', buy_in: 100 }), 404, 'room_not_found');
    await expectRefusal(other.post('/api/rooms/join', { code: '12345', buy_in: 100 }), 400, 'invalid_request');
    await expectRefusal(other.post('/api/rooms/join', { code: room.code, buy_in: 100.5 }), 400, 'invalid_request');
    await expectRefusal(other.post('/api/rooms/join', { code: room.code, buy_in: -1 }), 400, 'invalid_request');
    await expectRefusal(other.post('/api/rooms/join', { code: room.code, buy_in: 0 }), 400, 'invalid_request');
    expect(await h.snapshot()).toEqual(before);

    expect((await other.post('/api/rooms/join', { code: room.code, buy_in: 100 })).status).toBe(200);
    const late = await h.user();
    const full = await h.snapshot();
    await expectRefusal(late.post('/api/rooms/join', { code: room.code, buy_in: 100 }), 404, 'room_not_found');
    expect(await h.snapshot()).toEqual(full);
  });

  it('honours an Idempotency-Key: a repeated join returns the first result and moves no more chips', async () => {
    const host = await h.user();
    const room = await createRoom(host, {});
    const p = await h.user();
    const first = await p.post('/api/rooms/join', { code: room.code, buy_in: 120 }, { 'idempotency-key': 'join-1' });
    expect(first.body).toMatchObject({ seat: 1, stack: 120, wallet: 9_880, replayed: false });
    const again = await p.post('/api/rooms/join', { code: room.code, buy_in: 120 }, { 'idempotency-key': 'join-1' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ seat: 1, stack: 120, wallet: 9_880, replayed: true });
    await expectRefusal(
      p.post('/api/rooms/join', { code: room.code, buy_in: 130 }, { 'idempotency-key': 'join-1' }),
      409,
      'idempotency_conflict',
    );
    expect(await wallet(p)).toBe(9_880);
  });
});

describe('leave', () => {
  it('frees the seat and refunds the escrow in one transaction; the player can sit again', async () => {
    const host = await h.user();
    const room = await createRoom(host, {});
    const p = await h.user();
    await p.post('/api/rooms/join', { code: room.code, seat: 2, buy_in: 180 });
    const listener = await listenRoomEvents(h);
    try {
      const left = await p.post(`/api/rooms/${room.session_id}/leave`);
      expect(left.status).toBe(200);
      expect(left.body).toEqual({ session_id: room.session_id, status: 'left', refunded: 180, wallet: 10_000 });
      expect(await listener.settled()).toEqual([{ room_id: room.session_id, type: 'member_left', user_id: p.id }]);
    } finally {
      await listener.close();
    }
    const m = await h.db.prisma.membership.findFirstOrThrow({ where: { roomId: room.session_id, userId: p.id } });
    expect(m.status).toBe('left');
    expect(m.leftAt).toBeInstanceOf(Date);
    expect((await loadTableSeed(h.db.prisma, room.session_id))?.members).toEqual([]);

    const before = await h.snapshot();
    await expectRefusal(p.post(`/api/rooms/${room.session_id}/leave`), 409, 'not_seated');
    await expectRefusal(p.post(`/api/rooms/00000000-0000-4000-8000-000000000000/leave`), 404, 'room_not_found');
    await expectRefusal(p.post(`/api/rooms/not-a-uuid/leave`), 400, 'invalid_request');
    expect(await h.snapshot()).toEqual(before);

    const again = await p.post('/api/rooms/join', { code: room.code, seat: 2, buy_in: 90 });
    expect(again.body).toMatchObject({ seat: 2, stack: 90, wallet: 9_910 });
  });
});

describe('list, get and quick join', () => {
  it('lists open listed rooms with game, limit, stakes, seats and players, and filters them', async () => {
    const iso = await startHarness();
    try {
      const host = await iso.user();
      const nl = (await host.post<Created>('/api/rooms', { config: { stakes: { bigBlind: 2 } }, sit: { buy_in: 100 } }))
        .body;
      const plo = (await host.post<Created>('/api/rooms', { config: { game: 'omaha', stakes: { bigBlind: 10 } } }))
        .body;
      await host.post('/api/rooms', { config: { listed: false } });
      const stud = (await host.post<Created>('/api/rooms', { config: { game: 'stud', stakes: { smallBet: 10 } } }))
        .body;

      const all = await host.get<{ rooms: Record<string, unknown>[] }>('/api/rooms');
      expect(all.status).toBe(200);
      expect(all.body.rooms.map((r) => r.session_id)).toEqual([nl.session_id, plo.session_id, stud.session_id]);
      expect(all.body.rooms[0]).toMatchObject({
        code: nl.code,
        status: 'open',
        game: 'holdem',
        limit: 'nl',
        stakes: '1/2',
        seats: 6,
        players: 1,
        buy_in: { min: 80, max: 200 },
        listed: true,
        practice: false,
        host_id: host.id,
      });
      expect(all.body.rooms[2]).toMatchObject({ game: 'stud', limit: 'fl', stakes: '10/20', players: 0 });

      const filtered = await host.get<{ rooms: { session_id: string }[] }>(
        '/api/rooms?game=omaha&limit=pl&stakes=5/10',
      );
      expect(filtered.body.rooms.map((r) => r.session_id)).toEqual([plo.session_id]);
      expect((await host.get<{ rooms: unknown[] }>('/api/rooms?stakes=5/10&game=holdem')).body.rooms).toEqual([]);
      expect((await host.get<{ rooms: unknown[] }>('/api/rooms?page_size=1')).body.rooms).toHaveLength(1);
      await expectRefusal(host.get('/api/rooms?game=chess'), 400, 'invalid_request');
      await expectRefusal(host.get('/api/rooms?page_size=0'), 400, 'invalid_request');

      const one = await host.get<Record<string, unknown>>(`/api/rooms/${nl.session_id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        session_id: nl.session_id,
        members: [{ user_id: host.id, name: host.name, seat: 1, stack: 100 }],
      });
      expect(one.body.config).toEqual(parseRoomConfig(one.body.config));
      await expectRefusal(host.get('/api/rooms/00000000-0000-4000-8000-000000000000'), 404, 'room_not_found');
    } finally {
      await iso.close();
    }
  });

  it('quick-joins the first matching open listed room with a free seat', async () => {
    const iso = await startHarness();
    try {
      const host = await iso.user();
      const full = (await host.post<Created>('/api/rooms', { config: { seats: 2 }, sit: { buy_in: 100 } })).body;
      const filler = await iso.user();
      await filler.post('/api/rooms/join', { code: full.code, buy_in: 100 });
      await host.post('/api/rooms', { config: { listed: false } });
      const omaha = (await host.post<Created>('/api/rooms', { config: { game: 'omaha' } })).body;
      const holdem = (await host.post<Created>('/api/rooms', { config: { buyIn: { min: 100, max: 150 } } })).body;

      const p = await iso.user();
      const joined = await p.post('/api/rooms/quick-join', { game: 'holdem' });
      expect(joined.status).toBe(200);
      // The full room and the private one are skipped; without a buy-in, the room's maximum.
      expect(joined.body).toMatchObject({ session_id: holdem.session_id, seat: 1, stack: 150, wallet: 9_850 });

      const q = await iso.user();
      expect((await q.post('/api/rooms/quick-join', { limit: 'pl', stakes: '1/2', buy_in: 100 })).body).toMatchObject({
        session_id: omaha.session_id,
        stack: 100,
      });

      const before = await iso.snapshot();
      await expectRefusal(p.post('/api/rooms/quick-join', { game: 'razz' }), 404, 'no_room_available');
      await expectRefusal(p.post('/api/rooms/quick-join', { game: 'holdem', buy_in: 5000 }), 404, 'no_room_available');
      await expectRefusal(p.post('/api/rooms/quick-join', { game: 'holdem', limit: 'xx' }), 400, 'invalid_request');
      expect(await iso.snapshot()).toEqual(before);
    } finally {
      await iso.close();
    }
  });
});

describe('close', () => {
  it('lets only the host close a room; refunds every stack, frees the code, publishes room_closed', async () => {
    const host = await h.user();
    const room = await createRoom(host, { sit: { buy_in: 200 } });
    const p = await h.user();
    await p.post('/api/rooms/join', { code: room.code, buy_in: 150 });

    const before = await h.snapshot();
    await expectRefusal(p.req('DELETE', `/api/rooms/${room.session_id}`), 403, 'not_host');
    expect(await h.snapshot()).toEqual(before);

    const listener = await listenRoomEvents(h);
    try {
      const res = await host.req<{ refunds: { user_id: string; amount: number }[] }>(
        'DELETE',
        `/api/rooms/${room.session_id}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.refunds.sort((a, b) => a.amount - b.amount)).toEqual([
        { user_id: p.id, amount: 150 },
        { user_id: host.id, amount: 200 },
      ]);
      expect(await listener.settled()).toEqual([{ room_id: room.session_id, type: 'room_closed' }]);
    } finally {
      await listener.close();
    }
    expect(await wallet(p)).toBe(10_000);
    expect(await wallet(host)).toBe(10_000);
    expect((await host.get<{ status: string; players: number }>(`/api/rooms/${room.session_id}`)).body).toMatchObject({
      status: 'closed',
      players: 0,
    });
    await expectRefusal(p.post('/api/rooms/join', { code: room.code, buy_in: 100 }), 404, 'room_not_found');
    await expectRefusal(p.post(`/api/rooms/${room.session_id}/leave`), 409, 'room_closed');
  });

  it('closes a room nobody sat in at once (it has no last refund to close it)', async () => {
    const host = await h.user();
    const room = await createRoom(host);
    const res = await host.req<{ status: string; refunds: unknown[] }>('DELETE', `/api/rooms/${room.session_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'closed', refunds: [] });
    expect((await host.get<{ status: string }>(`/api/rooms/${room.session_id}`)).body).toMatchObject({
      status: 'closed',
    });
  });

  it('finishes a deletion cut off after the tombstone, with exact refunds, and never lists the half-deleted room', async () => {
    const host = await h.user();
    const room = await createRoom(host, { sit: { buy_in: 120 } });
    const p = await h.user();
    await p.post('/api/rooms/join', { code: room.code, buy_in: 130 });

    // The crash: the tombstone committed, no refund yet.
    await h.lobby.rooms.beginClose(host.id, room.session_id);
    const listed = await host.get<{ rooms: { session_id: string }[] }>('/api/rooms');
    expect(listed.body.rooms.map((r) => r.session_id)).not.toContain(room.session_id);
    await expectRefusal(
      h.user().then((u) => u.post('/api/rooms/join', { code: room.code, buy_in: 100 })),
      404,
      'room_not_found',
    );

    // The restart.
    expect(await h.lobby.rooms.finishClosingRooms()).toBe(1);
    expect(await wallet(host)).toBe(10_000);
    expect(await wallet(p)).toBe(10_000);
    expect((await h.db.prisma.room.findUniqueOrThrow({ where: { id: room.session_id } })).status).toBe('closed');
    // Running it again finds nothing to do and pays nothing twice.
    expect(await h.lobby.rooms.finishClosingRooms()).toBe(0);
    const refunds = await h.db.prisma.ledgerTransaction.count({ where: { roomId: room.session_id, kind: 'refund' } });
    expect(refunds).toBe(2);
    const totals = await ledgerTotals(h.db.prisma);
    expect(totals.wallets + totals.escrow + totals.rake).toBe(totals.granted);
  });
});
