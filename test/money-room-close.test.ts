import { SeededRng } from '@felt/engine';
import { createTestDatabase, requestCashOut, runAudit, withTransaction, type TestDatabase } from '@felt/db';
import { bullmqPrefix, closeRedis, createRedis, type Redis } from '@felt/platform';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from './harness/index.js';
import { queueSink, until } from './money/fixtures.js';
import {
  api,
  mintPlayer,
  namespace,
  REDIS_URL,
  startLobby,
  startPersister,
  type Namespace,
  type Player,
} from './money/services.js';
import { SimTable } from './money/sim-table.js';
import { pause } from './harness/wait.js';

/**
 * Deleting a room (docs/dev/money-flows.md §4): a room deletion cut off between its tombstone and its
 * removal, then a restart that completes it with exact refunds; a half-deleted room is never shown.
 */

const CONFIG = { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, buyIn: { min: 40, max: 200 } };

async function wallet(db: TestDatabase, p: Player): Promise<bigint> {
  return (await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { key: `wallet:${p.id}` } })).balance;
}

async function seatRoom(lobby: { url: string }, players: Player[], buyIns: number[]): Promise<string> {
  const created = await api<{ session_id: string; code: string }>(lobby, 'POST', '/api/rooms', {
    player: players[0]!,
    body: { config: CONFIG, sit: { buy_in: buyIns[0] } },
  });
  expect(created.status).toBe(201);
  for (const [i, p] of players.slice(1).entries()) {
    const r = await api(lobby, 'POST', '/api/rooms/join', {
      player: p,
      body: { code: created.body.code, buy_in: buyIns[i + 1] },
    });
    expect(r.status).toBe(200);
  }
  return created.body.session_id;
}

describe('a room deletion cut off, then a restart', () => {
  let db: TestDatabase;
  let ns: Namespace;
  const procs: ServiceProcess[] = [];
  let redis: Redis;

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = namespace(db.url);
    redis = createRedis(REDIS_URL, { name: 'room-close', maxRetriesPerRequest: null });
  });

  afterAll(async () => {
    for (const p of procs) await p.kill();
    const keys = await redis.keys(`${ns.prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
    await db?.drop();
  });

  it('ledger mode: killed after the tombstone and some refunds, the next lobby finishes before it serves', async () => {
    const lobby = await startLobby(ns, 'ledger', 'lobby-a');
    procs.push(lobby.proc);
    const players = await Promise.all([0, 1, 2, 3, 4].map((i) => mintPlayer(db.prisma, `close${i}`, 1_000n)));
    const buyIns = [200, 150, 120, 90, 60];
    const roomId = await seatRoom(lobby, players, buyIns);
    const top = await api(lobby, 'POST', `/api/rooms/${roomId}/top-up`, { player: players[4]!, body: { amount: 40 } });
    expect(top.status).toBe(200);
    await lobby.proc.kill();

    // What a lobby killed in the middle of DELETE leaves committed: the tombstone, then the first
    // two seats' refunds (each its own transaction, with the close's request ids), nothing else.
    await db.prisma.room.update({ where: { id: roomId }, data: { status: 'closing', closingAt: new Date() } });
    for (const p of players.slice(0, 2)) {
      const m = await db.prisma.membership.findFirstOrThrow({ where: { roomId, userId: p.id, status: 'active' } });
      const escrow = (await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { key: `escrow:${roomId}:${p.id}` } }))
        .balance;
      await withTransaction(db.prisma, (tx) =>
        requestCashOut(
          tx,
          {
            requestId: `room-close-${m.id}`,
            roomId,
            userId: p.id,
            reason: 'room_close',
            lastHandNo: 0,
            finalStack: escrow,
          },
          new Date(),
        ),
      );
    }
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).status).toBe('closing');

    const next = await startLobby(ns, 'ledger', 'lobby-b');
    procs.push(next.proc);
    expect(next.proc.jsonLogs().some((l) => l.event === 'room_closures_resumed')).toBe(true);
    const listed = await api<{ rooms: { session_id: string }[] }>(next, 'GET', '/api/rooms', { player: players[1]! });
    expect(listed.body.rooms.map((r) => r.session_id)).not.toContain(roomId);
    expect(
      (await api<{ status: string }>(next, 'GET', `/api/rooms/${roomId}`, { player: players[1]! })).body.status,
    ).toBe('closed');
    // Exact refunds: each wallet is whole again, each refund paid once.
    for (const p of players) expect(await wallet(db, p)).toBe(1_000n);
    const refunds = await db.prisma.cashOut.findMany({ where: { roomId } });
    expect(refunds).toHaveLength(5);
    expect(refunds.map((r) => Number(r.paidAmount)).sort((a, b) => a - b)).toEqual([90, 100, 120, 150, 200]);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
    await next.proc.stop();
  }, 300_000);

  it('ledger mode: a real kill at any point of DELETE is finished exactly by the next start', async () => {
    for (const delay of [10, 40]) {
      const players = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((i) => mintPlayer(db.prisma, `kill${delay}_${i}`, 1_000n)),
      );
      const buyIns = [200, 180, 160, 140, 120, 100];
      const lobby = await startLobby(ns, 'ledger', `lobby-kill-${delay}`);
      procs.push(lobby.proc);
      const roomId = await seatRoom(lobby, players, buyIns);
      const del = api(lobby, 'DELETE', `/api/rooms/${roomId}`, { player: players[0]! }).catch(() => null);
      await pause(delay, 'the lobby is killed this far into the DELETE');
      await lobby.proc.kill();
      await del;
      const restarted = await startLobby(ns, 'ledger', `lobby-after-${delay}`);
      procs.push(restarted.proc);
      // Either the DELETE never began (the room is open, every stack at the table) or it is done:
      // never anything in between once a lobby serves.
      const status = (await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).status;
      expect(['open', 'closed']).toContain(status);
      for (const [i, p] of players.entries()) {
        expect(await wallet(db, p)).toBe(status === 'closed' ? 1_000n : 1_000n - BigInt(buyIns[i]!));
      }
      await restarted.proc.stop();
    }
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  }, 300_000);

  it('worker mode: lobby and table both die after the tombstone; the restarted lobby reminds the new table, which refunds every stack', async () => {
    const lobby = await startLobby(ns, 'worker', 'lobby-w1');
    procs.push(lobby.proc);
    const persister = await startPersister(ns, 'persister-w');
    procs.push(persister);
    const queue = new Queue(ns.queue, { connection: redis, prefix: bullmqPrefix(ns.prefix) });
    const players = await Promise.all([0, 1, 2, 3].map((i) => mintPlayer(db.prisma, `wclose${i}`, 1_000n)));
    const roomId = await seatRoom(lobby, players, [200, 150, 120, 100]);
    const first = await SimTable.load(db.prisma, roomId, queueSink(queue), new SeededRng('close-first'));
    for (let i = 0; i < 4; i++) await first.playHand();

    const res = await api(lobby, 'DELETE', `/api/rooms/${roomId}`, { player: players[0]! });
    expect(res.status).toBe(202);
    await lobby.proc.kill();
    // The table's worker died too, before it heard of the close; its completed hands are safe in
    // the queue. The next owner starts from Postgres once they are persisted.
    await until(
      async () => (await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).lastHandNo === first.lastHandNo,
      'the hands to be persisted',
      60_000,
    );
    const sub = createRedis(REDIS_URL, { name: 'room-events' });
    const heard: string[] = [];
    let second: Promise<SimTable> | null = null;
    // Like a worker: a room event for a table it owns but has not loaded makes it load the table.
    sub.on('message', (_c: string, m: string) => {
      const event = JSON.parse(m) as { room_id: string; type: string };
      heard.push(event.type);
      if (event.room_id === roomId && second === null) {
        second = SimTable.load(db.prisma, roomId, queueSink(queue), new SeededRng('close-second'));
      }
    });
    await sub.subscribe(`${ns.prefix}room-events`);
    try {
      const stacks = new Map<string, number>();
      const restarted = await startLobby(ns, 'worker', 'lobby-w2');
      procs.push(restarted.proc);
      await until(() => Promise.resolve(heard.includes('room_closed')), 'the reminder');
      expect((await second!)?.isClosed).toBe(true);
      const listed = await api<{ rooms: { session_id: string }[] }>(restarted, 'GET', '/api/rooms', {
        player: players[1]!,
      });
      expect(listed.body.rooms.map((r) => r.session_id)).not.toContain(roomId);
      await until(
        async () => (await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).status === 'closed',
        'the room to close',
        60_000,
      );
      for (const c of await db.prisma.cashOut.findMany({ where: { roomId } })) {
        expect(c.status).toBe('paid');
        stacks.set(c.userId, Number(c.paidAmount));
      }
      // Exact refunds: each wallet is its grant plus its nets over the hands played.
      const nets = await db.prisma.handPlayer.groupBy({
        by: ['userId'],
        where: { hand: { roomId } },
        _sum: { net: true },
      });
      for (const p of players) {
        const net = nets.find((n) => n.userId === p.id)?._sum.net ?? 0n;
        expect(await wallet(db, p)).toBe(1_000n + net);
      }
      expect(stacks.size).toBe(4);
      expect((await runAudit(db.prisma)).issues).toEqual([]);
      await restarted.proc.stop();
    } finally {
      await closeRedis(sub);
      await queue.close();
    }
  }, 300_000);
});
