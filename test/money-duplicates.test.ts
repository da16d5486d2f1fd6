import { SeededRng, randomBetween, randomInt, randomUnit, type Rng } from '@felt/engine';
import {
  MoneyJobName,
  cashOutJobOptions,
  createTestDatabase,
  runAudit,
  type CashOutJob,
  type PrismaClient,
  type TestDatabase,
} from '@felt/db';
import { bullmqPrefix, closeRedis, createRedis, HandJobName, handJobOptions } from '@felt/platform';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { api, mintPlayer, namespace, REDIS_URL, startLobby, startPersister, type Player } from './money/services.js';
import { SimTable, type HandJob, type MoneySink } from './money/sim-table.js';

/**
 * Duplicates (invariant 7 of docs/architecture.md, idempotency): the same session played twice, once
 * clean and once with every persistence job run three times and one command in ten sent twice (as a
 * client retry would, with its Idempotency-Key). The ledger, hands, cash-outs and top-ups must end
 * identical.
 */

interface Run {
  readonly dump: unknown;
  readonly duplicatedCommands: number;
  readonly replayedJobs: number;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The money state with every generated id replaced by a name that is the same in both runs. */
async function canonicalDump(prisma: PrismaClient, roomLabels: Map<string, string>): Promise<unknown> {
  const labels = new Map<string, string>(roomLabels);
  for (const u of await prisma.user.findMany()) labels.set(u.id, u.name);
  for (const m of await prisma.membership.findMany({ orderBy: { joinedAt: 'asc' } })) {
    labels.set(m.id, `m(${labels.get(m.roomId)},${labels.get(m.userId)},${m.joinedAfterHand},${m.seat})`);
  }
  const topUps = await prisma.topUp.findMany();
  const canon = (s: string | null): string | null => s && s.replace(UUID, (id) => labels.get(id) ?? id);
  for (const t of topUps) labels.set(t.id, `top-up(${canon(t.idempotencyKey)})`);
  const sortBy = <T>(xs: T[], key: (x: T) => string): T[] => xs.sort((a, b) => (key(a) < key(b) ? -1 : 1));

  const transactions = await prisma.ledgerTransaction.findMany({
    include: { entries: { include: { account: true } } },
  });
  return {
    transactions: sortBy(
      transactions.map((t) => ({
        key: canon(t.idempotencyKey),
        kind: t.kind,
        room: canon(t.roomId),
        hand: t.handId,
        entries: sortBy(
          t.entries.map((e) => ({ account: canon(e.account.key), amount: e.amount.toString() })),
          (e) => e.account ?? '',
        ),
      })),
      (t) => t.key ?? '',
    ),
    accounts: sortBy(
      (await prisma.ledgerAccount.findMany()).map((a) => ({ key: canon(a.key), balance: a.balance.toString() })),
      (a) => a.key ?? '',
    ),
    hands: (await prisma.hand.findMany({ orderBy: { handId: 'asc' }, include: { players: true } })).map((h) => ({
      id: h.handId,
      room: canon(h.roomId),
      no: h.handNo,
      rake: h.rake.toString(),
      nets: h.players.map((p) => `${canon(p.userId)}:${p.net}`).sort(),
    })),
    cashOuts: sortBy(
      (await prisma.cashOut.findMany()).map((c) => ({
        id: canon(c.requestId),
        status: c.status,
        paid: c.paidAmount?.toString() ?? null,
        last: c.lastHandNo,
      })),
      (c) => c.id ?? '',
    ),
    topUps: sortBy(
      topUps.map((t) => ({
        key: canon(t.idempotencyKey),
        status: t.status,
        applied: t.appliedAmount?.toString() ?? null,
      })),
      (t) => t.key ?? '',
    ),
    rooms: sortBy(
      (await prisma.room.findMany()).map((r) => ({ room: canon(r.id), status: r.status, last: r.lastHandNo })),
      (r) => r.room ?? '',
    ),
  };
}

async function play(dupes: boolean): Promise<Run> {
  const db: TestDatabase = await createTestDatabase();
  const ns = namespace(db.url);
  const lobby = await startLobby(ns, 'worker', dupes ? 'lobby-dupes' : 'lobby-clean');
  const persister = await startPersister(ns, dupes ? 'persister-dupes' : 'persister-clean');
  const redis = createRedis(REDIS_URL, { name: 'dupes', maxRetriesPerRequest: null });
  const eventsConn = createRedis(REDIS_URL, { name: 'dupes-events', maxRetriesPerRequest: null });
  const queue = new Queue(ns.queue, { connection: redis, prefix: bullmqPrefix(ns.prefix) });
  const events = new QueueEvents(ns.queue, { connection: eventsConn, prefix: bullmqPrefix(ns.prefix) });
  await events.waitUntilReady();
  try {
    const rng: Rng = new SeededRng('duplicates-session');
    // A separate stream decides the duplicates, so that the session itself is the same in both runs.
    const dupRng: Rng = new SeededRng('duplicates-retries');
    let duplicatedCommands = 0;
    let replayedJobs = 0;

    /** Runs a job to the end, then (with dupes) twice more after BullMQ has forgotten it. */
    const persist = async (add: () => Promise<Job>): Promise<void> => {
      for (let run = 0; run < (dupes ? 3 : 1); run++) {
        const job = await add();
        await job.waitUntilFinished(events, 60_000);
        if (dupes) {
          await job.remove();
          if (run > 0) replayedJobs++;
        }
      }
    };
    const sink: MoneySink = {
      hand: (job: HandJob) => persist(() => queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id))),
      cashOut: (job: CashOutJob) =>
        persist(() => queue.add(MoneyJobName.CASH_OUT_REQUESTED, job, cashOutJobOptions(job.request_id))),
    };
    /** A command, sent twice one time in ten when duplicating; both answers must agree. */
    const command = async (...args: Parameters<typeof api>): Promise<{ status: number; body: unknown }> => {
      const first = await api(...args);
      if (dupes && randomUnit(dupRng) < 0.1) {
        duplicatedCommands++;
        const again = await api(...args);
        if (first.status < 300) expect(again.status, JSON.stringify(again.body)).toBeLessThan(300);
      }
      return first;
    };

    const players: Player[] = [];
    for (let i = 0; i < 7; i++) players.push(await mintPlayer(db.prisma, `dup${i}`, 3_000n));
    const config = {
      game: 'holdem',
      stakes: { smallBlind: 1, bigBlind: 2 },
      buyIn: { min: 40, max: 200 },
      rake: { percent: 5, cap: 0, noFlopNoDrop: false },
    };
    const roomLabels = new Map<string, string>();
    const tables: SimTable[] = [];
    const codes: string[] = [];
    for (const [i, host] of players.slice(0, 2).entries()) {
      const res = (await command(lobby, 'POST', '/api/rooms', {
        player: host,
        body: { config, sit: { buy_in: 120 } },
        idempotencyKey: `create-${i}`,
      })) as { status: number; body: { session_id: string; code: string } };
      expect(res.status).toBe(201);
      roomLabels.set(res.body.session_id, `room${i}`);
      codes.push(res.body.code);
    }
    for (const [i, p] of players.slice(2).entries()) {
      const res = await command(lobby, 'POST', '/api/rooms/join', {
        player: p,
        body: { code: codes[i % 2], buy_in: 60 + 20 * i },
        idempotencyKey: `join-${i}`,
      });
      expect(res.status).toBe(200);
    }
    for (const [roomId, label] of roomLabels) {
      tables.push(await SimTable.load(db.prisma, roomId, sink, new SeededRng(`dup-${label}`)));
    }
    let n = 0;
    for (let round = 0; round < 6; round++) {
      for (const table of tables) {
        if (table.isClosed) continue;
        const seated = await db.prisma.membership.findMany({
          where: { roomId: table.roomId, status: 'active', leaveRequestedAt: null },
          orderBy: { seat: 'asc' },
        });
        if (seated.length > 0 && randomUnit(rng) < 0.4) {
          const m = seated[randomInt(rng, seated.length)]!;
          await command(lobby, 'POST', `/api/rooms/${table.roomId}/top-up`, {
            player: players.find((p) => p.id === m.userId)!,
            body: { amount: randomBetween(rng, 10, 80) },
            idempotencyKey: `top-up-${n++}`,
          });
        }
        await table.sync();
        const leave = round === 3 && table === tables[0];
        await table.playHand(
          leave
            ? async () => {
                const inHand = table.hand!.setup.players[0]!.id;
                await command(lobby, 'POST', `/api/rooms/${table.roomId}/leave`, {
                  player: players.find((p) => p.id === inHand)!,
                });
                await table.sync();
              }
            : undefined,
        );
        await table.sync();
      }
    }
    // One room is closed with a hand running, the other emptied.
    const [a, b] = tables;
    await a!.playHand(async () => {
      await command(lobby, 'DELETE', `/api/rooms/${a!.roomId}`, { player: players[0]! });
      await a!.sync();
    });
    for (const m of await db.prisma.membership.findMany({ where: { roomId: b!.roomId, status: 'active' } })) {
      await command(lobby, 'POST', `/api/rooms/${b!.roomId}/leave`, {
        player: players.find((p) => p.id === m.userId)!,
      });
    }
    await b!.sync();

    const audit = await runAudit(db.prisma);
    expect(audit.issues).toEqual([]);
    return { dump: await canonicalDump(db.prisma, roomLabels), duplicatedCommands, replayedJobs };
  } finally {
    await lobby.proc.stop();
    await persister.stop();
    await events.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    const keys = await redis.keys(`${ns.prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
    await closeRedis(eventsConn);
    await db.drop();
  }
}

describe('duplicated jobs and commands', () => {
  it('end with the same ledger as a clean run', async () => {
    const clean = await play(false);
    const dupes = await play(true);
    expect(dupes.duplicatedCommands).toBeGreaterThan(0);
    expect(dupes.replayedJobs).toBeGreaterThan(20);
    const dump = clean.dump as { hands: unknown[]; cashOuts: unknown[]; transactions: unknown[] };
    expect(dump.hands.length).toBeGreaterThan(8);
    expect(dump.cashOuts.length).toBeGreaterThan(3);
    expect(dupes.dump).toEqual(clean.dump);
  }, 300_000);
});
