import { ledgerTotals } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Client, type Harness } from './harness.js';

let h: Harness;
let players: (Client & { id: string; name: string })[];

beforeAll(async () => {
  h = await startHarness();
  players = [];
  // Sign-ups in small batches: each one hashes a password.
  for (let i = 0; i < 50; i += 10) {
    players.push(...(await Promise.all(Array.from({ length: 10 }, () => h.user()))));
  }
});

afterAll(async () => {
  await h.close();
});

async function activeSeats(roomId: string): Promise<{ userId: string; seat: number }[]> {
  return h.db.prisma.membership.findMany({
    where: { roomId, status: 'active' },
    select: { userId: true, seat: true },
    orderBy: { seat: 'asc' },
  });
}

async function checkLedger(): Promise<void> {
  const t = await ledgerTotals(h.db.prisma);
  expect(t.unbalancedTransactions).toBe(0);
  expect(t.driftedAccounts).toBe(0);
  expect(t.negativeAccounts).toBe(0);
  expect(t.wallets + t.escrow + t.rake).toBe(t.granted);
}

describe('50 concurrent joins', () => {
  // A full room answers a join by code as a missing code does, so codes can't be probed.
  it('fill a 10-seat room exactly once per seat; everyone else gets room_not_found and keeps their chips', async () => {
    const host = await h.user();
    const room = (await host.post<{ session_id: string; code: string }>('/api/rooms', { config: { seats: 10 } })).body;
    const results = await Promise.all(
      players.map((p) => p.post<Record<string, unknown>>('/api/rooms/join', { code: room.code, buy_in: 100 })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(10);
    for (const r of refused) {
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: { code: 'room_not_found' } });
    }
    const seats = await activeSeats(room.session_id);
    expect(seats.map((s) => s.seat)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(seats.map((s) => s.userId)).size).toBe(10);

    const seated = new Set(seats.map((s) => s.userId));
    for (const p of players) {
      const w = (await p.get<{ wallet: number }>('/api/me')).body.wallet;
      expect(w).toBe(seated.has(p.id) ? 9_900 : 10_000);
    }
    await checkLedger();
  });

  it('for the same three chosen seats: one winner per seat, the rest room_not_found', async () => {
    const host = await h.user();
    const room = (await host.post<{ session_id: string; code: string }>('/api/rooms', { config: { seats: 3 } })).body;
    const results = await Promise.all(
      players.map((p, i) =>
        p.post<{ seat?: number; error?: { code: string } }>('/api/rooms/join', {
          code: room.code,
          seat: (i % 3) + 1,
          buy_in: 100,
        }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners.map((r) => r.body.seat).sort()).toEqual([1, 2, 3]);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(404);
      expect(r.body.error?.code).toBe('room_not_found');
    }
    expect((await activeSeats(room.session_id)).map((s) => s.seat)).toEqual([1, 2, 3]);
    await checkLedger();
  });

  it('never lets one player hold two seats or overdraw, however many times they click', async () => {
    const host = await h.user();
    const room = (
      await host.post<{ session_id: string; code: string }>('/api/rooms', {
        config: { seats: 10, stakes: { bigBlind: 100 }, buyIn: { min: 1000, max: 10_000 } },
      })
    ).body;
    const [p] = players.slice(-1);
    // Free the player's earlier seats first, so the whole wallet is there.
    for (const s of (await p!.get<{ seats: { session_id: string }[] }>('/api/me')).body.seats) {
      await p!.post(`/api/rooms/${s.session_id}/leave`);
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, () => p!.post('/api/rooms/join', { code: room.code, buy_in: 6_000 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The wallet is checked before the room is looked up (so that it says nothing about the code): a
    // click that comes after the first one committed may find the wallet short before the seat taken.
    // Joins by code in flight count against the user's join limit until they succeed, so
    // clicks beyond it at once are told to slow down.
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(['already_seated', 'insufficient_funds', 'rate_limited']).toContain(
        (r.body as { error: { code: string } }).error.code,
      );
    }
    expect((await activeSeats(room.session_id)).filter((s) => s.userId === p!.id)).toHaveLength(1);
    expect((await p!.get<{ wallet: number }>('/api/me')).body.wallet).toBe(4_000);
    await checkLedger();
  });
});
