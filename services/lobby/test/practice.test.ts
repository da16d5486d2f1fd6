import { PRACTICE_REFILL_CHIPS, runAudit } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startHarness, type Client, type Harness } from './harness.js';

/**
 * Practice rooms through the lobby's HTTP API (docs/dev/money-flows.md, "Practice chips"): the
 * buy-in, top-up and cash-out move practice chips only, and the real wallet never changes.
 */

const PRACTICE = {
  game: 'holdem',
  stakes: { smallBlind: 10, bigBlind: 20 },
  buyIn: { min: 200, max: 20_000 },
  practiceChips: true,
};

interface Me {
  wallet: number;
  practice_wallet: number;
  seats: { session_id: string }[];
}

const me = async (c: Client): Promise<Me> => (await c.get<Me>('/api/me')).body;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('a practice room', () => {
  it('seats, tops up and lets players go on free practice chips, leaving real wallets as they were', async () => {
    const host = await h.user();
    expect(await me(host)).toMatchObject({ wallet: 10_000, practice_wallet: 0 });
    const created = await host.post<{ session_id: string; code: string }>('/api/rooms', {
      config: PRACTICE,
      sit: { buy_in: 500 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const roomId = created.body.session_id;
    expect((await h.db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).practice).toBe(true);
    const detail = await host.get<{ practice: boolean; config: { practiceChips: boolean; rake: { percent: number } } }>(
      `/api/rooms/${roomId}`,
    );
    expect(detail.body.config).toMatchObject({ practiceChips: true, rake: { percent: 0 } });
    // The room list says so too, so that nobody mistakes it for a real-chip table.
    expect(detail.body.practice).toBe(true);
    const listed = await host.get<{ rooms: { session_id: string; practice: boolean }[] }>('/api/rooms');
    expect(listed.body.rooms.find((r) => r.session_id === roomId)?.practice).toBe(true);
    expect(await me(host)).toMatchObject({
      wallet: 10_000,
      practice_wallet: Number(PRACTICE_REFILL_CHIPS) - 500,
      seats: [{ session_id: roomId }],
    });

    // A buy-in above the real wallet: the practice wallet is refilled to it; the real one is not asked.
    const guest = await h.user();
    const joined = await guest.post<{ stack: number; wallet: number }>('/api/rooms/join', {
      code: created.body.code,
      buy_in: 15_000,
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body).toMatchObject({ stack: 15_000, wallet: 10_000 });
    expect(await me(guest)).toMatchObject({ wallet: 10_000, practice_wallet: 0 });

    const topUp = await host.post<{ escrow: number; wallet: number }>(`/api/rooms/${roomId}/top-up`, { amount: 300 });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    expect(topUp.body).toMatchObject({ escrow: 800, wallet: 10_000 });

    for (const c of [host, guest]) {
      const left = await c.post<{ status: string; wallet: number }>(`/api/rooms/${roomId}/leave`);
      expect(left.status, JSON.stringify(left.body)).toBe(200);
      expect(left.body).toMatchObject({ status: 'left', wallet: 10_000 });
    }
    expect(await me(host)).toMatchObject({ wallet: 10_000, practice_wallet: Number(PRACTICE_REFILL_CHIPS) });
    expect(await me(guest)).toMatchObject({ wallet: 10_000, practice_wallet: 15_000 });
    // Every movement of the room, and every refill, touched practice accounts only.
    const entries = await h.db.prisma.ledgerEntry.findMany({
      where: { transaction: { OR: [{ roomId }, { kind: 'practice_refill' }] } },
      select: { account: { select: { key: true } } },
    });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.account.key).filter((k) => !/^(practice:|practice_source$|escrow:)/.test(k))).toEqual(
      [],
    );
    const audit = await runAudit(h.db.prisma);
    expect(audit.issues).toEqual([]);
    expect(audit.practiceImbalance).toBe(0n);
  });

  it('quick join takes real-chip rooms unless asked for practice ones', async () => {
    const filter = { game: 'omaha', stakes: '7/14' } as const;
    const config = { game: 'omaha', stakes: { smallBlind: 7, bigBlind: 14 }, buyIn: { min: 140, max: 1_400 } };
    // The practice room is the older one, so it would be taken first if quick join ignored the chips.
    const practiceRoom = await (
      await h.user()
    ).post<{ session_id: string }>('/api/rooms', {
      config: { ...config, practiceChips: true },
      sit: { buy_in: 500 },
    });
    const realRoom = await (
      await h.user()
    ).post<{ session_id: string }>('/api/rooms', { config, sit: { buy_in: 500 } });
    expect([practiceRoom.status, realRoom.status]).toEqual([201, 201]);

    const player = await h.user();
    const real = await player.post<{ session_id: string; wallet: number }>('/api/rooms/quick-join', filter);
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect(real.body.session_id).toBe(realRoom.body.session_id);

    const practiser = await h.user();
    const practice = await practiser.post<{ session_id: string }>('/api/rooms/quick-join', {
      ...filter,
      practice: true,
    });
    expect(practice.status, JSON.stringify(practice.body)).toBe(200);
    expect(practice.body.session_id).toBe(practiceRoom.body.session_id);
    expect(await me(practiser)).toMatchObject({
      wallet: 10_000,
      seats: [{ session_id: practiceRoom.body.session_id }],
    });
  });

  it('refuses a practice room with a rake, and a real room still needs real chips', async () => {
    const host = await h.user();
    const before = await h.snapshot();
    const raked = await host.post('/api/rooms', { config: { ...PRACTICE, rake: { percent: 5 } } });
    const body = expectError(raked, 400, 'invalid_room_config');
    expect(JSON.stringify(body)).toContain('a practice-chip room takes no rake');
    expect(await h.snapshot()).toEqual(before);

    const real = await host.post<{ code: string }>('/api/rooms', {
      config: { ...PRACTICE, practiceChips: false },
      sit: { buy_in: 500 },
    });
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    const guest = await h.user();
    expectError(
      await guest.post('/api/rooms/join', { code: real.body.code, buy_in: 15_000 }),
      409,
      'insufficient_funds',
    );
    // The same answer for a code that names no room: a short wallet learns nothing about codes.
    const missing = real.body.code === '000000' ? '000001' : '000000';
    const other = await guest.post('/api/rooms/join', { code: missing, buy_in: 15_000 });
    expectError(other, 409, 'insufficient_funds');
    expect(await me(guest)).toMatchObject({ wallet: 10_000, practice_wallet: 0 });
  });
});
