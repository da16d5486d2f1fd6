// A join by code once answered 404 for a code that doesn't exist and 400 buy_in_out_of_range for
// one that does, so private rooms' codes could be enumerated without spending a chip; and one user
// could open rooms without end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startHarness, uniqueName, type Harness, type Response } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ limits: { joinMissesPerUser: 8, joinMissesPerAddress: 12, maxOpenRoomsPerUser: 3 } });
});

afterAll(async () => {
  await h.close();
});

/** Status and body, which is all a prober sees. */
const answer = (r: Response<unknown>) => ({ status: r.status, body: r.body });

async function freeCode(): Promise<string> {
  for (;;) {
    const code = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
    if ((await h.db.prisma.room.count({ where: { code, status: { not: 'closed' } } })) === 0) return code;
  }
}

describe('joins by code', () => {
  it('answers every join that does not seat you exactly as a code that does not exist', async () => {
    const host = await h.user(uniqueName('host'), '198.51.100.70');
    const full = await h.user(uniqueName('full'), '198.51.100.71');
    const room = (
      await host.post<{ code: string; session_id: string }>('/api/rooms', {
        config: { seats: 2, listed: false },
        sit: { seat: 1, buy_in: 100 },
      })
    ).body;
    const closing = (await host.post<{ code: string; session_id: string }>('/api/rooms', { config: { listed: false } }))
      .body;
    await h.lobby.rooms.beginClose(host.id, closing.session_id);

    const prober = await h.user(uniqueName('prober'), '203.0.113.70');
    const missing = answer(await prober.post('/api/rooms/join', { code: await freeCode(), buy_in: 100 }));
    expect(missing.status).toBe(404);
    expectError({ ...missing, headers: new Headers() }, 404, 'room_not_found');

    const before = await h.snapshot();
    const probes = [
      { code: room.code, buy_in: 79 }, // below the range
      { code: room.code, buy_in: 201 }, // above it
      { code: room.code, seat: 1, buy_in: 100 }, // a taken seat
      { code: room.code, seat: 9, buy_in: 100 }, // a seat the room doesn't have
      { code: closing.code, buy_in: 100 }, // a closing room
    ];
    for (const body of probes) expect(answer(await prober.post('/api/rooms/join', body))).toEqual(missing);
    expect(await h.snapshot()).toEqual(before);

    // A full room too.
    expect((await full.post('/api/rooms/join', { code: room.code, buy_in: 100 })).status).toBe(200);
    expect(answer(await prober.post('/api/rooms/join', { code: room.code, buy_in: 100 }))).toEqual(missing);
  });

  it('validates the body and the wallet before the code, the same way for every code', async () => {
    const host = await h.user(uniqueName('host'), '198.51.100.80');
    const room = (await host.post<{ code: string }>('/api/rooms', { config: { listed: false } })).body;
    const prober = await h.user(uniqueName('prober'), '203.0.113.80');
    const nowhere = await freeCode();
    for (const body of [
      { buy_in: 0 },
      { buy_in: -5 },
      { buy_in: 1.5 },
      { buy_in: 1e300 },
      { buy_in: '100' },
      { buy_in: 100, seat: 0 },
      { buy_in: 100, extra: true },
    ]) {
      const a = answer(await prober.post('/api/rooms/join', { code: room.code, ...body }));
      const b = answer(await prober.post('/api/rooms/join', { code: nowhere, ...body }));
      expect(a.status).toBe(400);
      expect(a).toEqual(b);
    }
    // More than the wallet holds: insufficient_funds for an existing code and a missing one alike.
    const a = answer(await prober.post('/api/rooms/join', { code: room.code, buy_in: 10_001 }));
    const b = answer(await prober.post('/api/rooms/join', { code: nowhere, buy_in: 10_001 }));
    expect(a.status).toBe(409);
    expect(a).toEqual(b);
  });

  it('limits misses per user and per address (429 with Retry-After); a join that seats you is not a miss', async () => {
    const host = await h.user(uniqueName('host'), '198.51.100.90');
    const room = (await host.post<{ code: string }>('/api/rooms', { config: { seats: 9, listed: false } })).body;

    const prober = await h.user(uniqueName('prober'), '203.0.113.90');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await prober.post('/api/rooms/join', { code: await freeCode(), buy_in: 100 });
      statuses.push(res.status);
      if (res.status === 429) {
        expectError(res, 429, 'rate_limited');
        expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      }
    }
    expect(statuses).toEqual([...Array<number>(8).fill(404), 429, 429]);
    // Even the right code now waits: the prober can't learn from a success either.
    expectError(await prober.post('/api/rooms/join', { code: room.code, buy_in: 100 }), 429, 'rate_limited');

    // Another player at another address joins at once.
    const player = await h.user(uniqueName('player'), '198.51.100.91');
    expect((await player.post('/api/rooms/join', { code: room.code, buy_in: 100 })).status).toBe(200);

    // Per address: fresh accounts at one address share its limit (12), whoever misses.
    const crowd = await Promise.all(Array.from({ length: 4 }, () => h.user(uniqueName('crowd'), '203.0.113.91')));
    const byAddress: number[] = [];
    for (let i = 0; i < 16; i++) {
      byAddress.push((await crowd[i % 4]!.post('/api/rooms/join', { code: await freeCode(), buy_in: 100 })).status);
    }
    expect(byAddress.slice(0, 12)).toEqual(Array<number>(12).fill(404));
    expect(byAddress.slice(12)).toEqual(Array<number>(4).fill(429));

    // Successful joins don't count: a player who joins and leaves repeatedly is never limited.
    const regular = await h.user(uniqueName('regular'), '198.51.100.92');
    const mine = (await host.post<{ code: string; session_id: string }>('/api/rooms', { config: { listed: false } }))
      .body;
    for (let i = 0; i < 10; i++) {
      expect((await regular.post('/api/rooms/join', { code: mine.code, buy_in: 100 })).status).toBe(200);
      expect((await regular.post(`/api/rooms/${mine.session_id}/leave`)).status).toBe(200);
    }
  });
});

describe('open rooms per host', () => {
  it('refuses a room beyond the cap with room_limit_reached; closing one makes room', async () => {
    const host = await h.user(uniqueName('host'), '198.51.100.100');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await host.post<{ session_id: string }>('/api/rooms', { config: { listed: false } });
      expect(res.status).toBe(201);
      ids.push(res.body.session_id);
    }
    const before = await h.snapshot();
    const refused = await host.post('/api/rooms', { config: { listed: false } });
    const body = expectError(refused, 409, 'room_limit_reached');
    expect(body.error.details).toEqual({ open: 3, max: 3 });
    expect(await h.snapshot()).toEqual(before);

    // Closed or closing (ledger mode answers 202 for a room nobody sits in), it no longer counts as open.
    expect([200, 202]).toContain((await host.req('DELETE', `/api/rooms/${ids[0]}`)).status);
    expect((await host.post('/api/rooms', { config: { listed: false } })).status).toBe(201);
  });

  it('holds under concurrent creates: exactly the cap is created', async () => {
    const host = await h.user(uniqueName('host'), '198.51.100.101');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => host.post('/api/rooms', { config: { listed: false } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'room_limit_reached');
    expect(await h.db.prisma.room.count({ where: { hostId: host.id, status: 'open' } })).toBe(3);
  });
});
