import { createTestDatabase, runAudit, type TestDatabase } from '@felt/db';
import { closeRedis, createRedis } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  mintPlayer,
  namespace,
  REDIS_URL,
  startLobby,
  type Lobby,
  type Namespace,
  type Player,
} from './money/services.js';

/**
 * A hundred buy-ins and seat requests at once for the same seats of one room, through the real lobby
 * process. No seat is booked twice, no wallet goes negative, every refusal is typed and moves no chip,
 * and the ledger still balances.
 */
describe('100 concurrent buy-ins for the same seats', () => {
  let db: TestDatabase;
  let ns: Namespace;
  let lobby: Lobby;

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = namespace(db.url);
    lobby = await startLobby(ns, 'ledger');
  });

  afterAll(async () => {
    await lobby?.proc.stop();
    const redis = createRedis(REDIS_URL, { name: 'concurrency-cleanup' });
    const keys = await redis.keys(`${ns.prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
    await db?.drop();
  });

  it('books each seat once, keeps every wallet whole or debited once, and balances', async () => {
    const host = await mintPlayer(db.prisma, 'host', 10_000n);
    const created = await api<{ session_id: string; code: string }>(lobby, 'POST', '/api/rooms', {
      player: host,
      body: {
        config: { game: 'holdem', seats: 6, stakes: { smallBlind: 1, bigBlind: 2 }, buyIn: { min: 40, max: 200 } },
      },
    });
    expect(created.status).toBe(201);
    // 80 players; some can't afford the buy-in, and 20 of them send their request twice at once.
    const players: Player[] = [];
    for (let i = 0; i < 80; i += 10) {
      const batch = Array.from({ length: 10 }, (_, k) => i + k);
      players.push(
        ...(await Promise.all(batch.map((j) => mintPlayer(db.prisma, `c${j}`, j % 9 === 0 ? 30n : 1_000n)))),
      );
    }
    const requests = [...players, ...players.slice(0, 20)].map((p, i) => ({
      p,
      body: { code: created.body.code, seat: (i % 3) + 1, buy_in: 40 + (i % 161) },
    }));
    expect(requests).toHaveLength(100);
    const answers = await Promise.all(
      requests.map(async (r) => ({
        ...r,
        res: await api(lobby, 'POST', '/api/rooms/join', { player: r.p, body: r.body }),
      })),
    );

    const won = answers.filter((a) => a.res.status === 200);
    const refused = answers.filter((a) => a.res.status !== 200);
    expect(won).toHaveLength(3);
    expect(new Set(won.map((a) => a.body.seat))).toEqual(new Set([1, 2, 3]));
    expect(new Set(won.map((a) => a.p.id)).size).toBe(3);
    for (const a of refused) {
      const code = (a.res.body as { error: { code: string } }).error.code;
      // A taken seat answers like a missing code: a code can't be probed without buying in.
      expect(a.res.status, JSON.stringify(a.res.body)).toBe(code === 'room_not_found' ? 404 : 409);
      expect(['room_not_found', 'already_seated', 'insufficient_funds']).toContain(code);
    }

    const active = await db.prisma.membership.findMany({
      where: { roomId: created.body.session_id, status: 'active' },
    });
    expect(active).toHaveLength(3);
    expect(new Set(active.map((m) => m.seat)).size).toBe(3);
    for (const p of players) {
      const wallet = (await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { key: `wallet:${p.id}` } })).balance;
      const seat = active.find((m) => m.userId === p.id);
      const grant = players.indexOf(p) % 9 === 0 ? 30n : 1_000n;
      expect(wallet).toBeGreaterThanOrEqual(0n);
      expect(wallet).toBe(seat ? grant - seat.buyIn : grant);
    }

    // The seated three top up at once, twice each, while the rest try to take the other seats.
    const more = await Promise.all([
      ...active.flatMap((m) =>
        [0, 1].map(() =>
          api(lobby, 'POST', `/api/rooms/${created.body.session_id}/top-up`, {
            player: players.find((p) => p.id === m.userId)!,
            body: { amount: 200 - Number(m.buyIn) },
          }),
        ),
      ),
      ...players
        .slice(20, 40)
        .map((p, i) =>
          api(lobby, 'POST', '/api/rooms/join', { player: p, body: { code: created.body.code, buy_in: 50 + i } }),
        ),
    ]);
    expect(more.filter((r) => r.status === 200)).toHaveLength(3 + 3);
    for (const m of active) {
      const escrow = (
        await db.prisma.ledgerAccount.findUniqueOrThrow({
          where: { key: `escrow:${created.body.session_id}:${m.userId}` },
        })
      ).balance;
      // One top-up to the maximum went through; the second would have passed it.
      expect(escrow).toBe(200n);
    }
    expect(await db.prisma.membership.count({ where: { roomId: created.body.session_id, status: 'active' } })).toBe(6);
    const audit = await runAudit(db.prisma);
    expect(audit.issues).toEqual([]);
    expect(audit.imbalance).toBe(0n);
  });
});
