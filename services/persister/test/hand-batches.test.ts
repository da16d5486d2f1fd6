import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import {
  createPgPool,
  createTestDatabase,
  ledgerTotals,
  runAudit,
  type PersistOutcome,
  type PgPool,
  type TestDatabase,
} from '@felt/db';
import {
  bullmqPrefix,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  HandJobName,
  handJobOptions,
  type Redis,
} from '@felt/platform';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, until } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { HandConsumer } from '../src/hand-consumer.js';
import { PrismaMoneyStore, type MoneyStore } from '../src/money-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/*
 * The consumer's batches against real Redis, BullMQ and Postgres (the persister's pg pool path):
 * hands the queue hands over together are written together, each job still gets its own outcome,
 * and a consumer that dies holding a batch loses and doubles nothing.
 */
describe('hand consumer batches (real Redis, BullMQ and Postgres)', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  const queueName = `hands-${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let pool: PgPool;
  let store: PrismaMoneyStore;
  const conns: Redis[] = [];
  let queue: Queue;
  let events: QueueEvents;
  const consumers: HandConsumer[] = [];
  const outcomes: PersistOutcome[] = [];
  const batchSizes: number[] = [];

  const redis = (name: string, blocking = true): Redis => {
    const c = createRedis(REDIS_URL, { name, ...(blocking ? { maxRetriesPerRequest: null } : {}) });
    conns.push(c);
    return c;
  };

  /** A consumer on the queue; `store` defaults to the real one, counting its batches. */
  function consumer(custom?: MoneyStore, options: { lockDurationMs?: number; stalledIntervalMs?: number } = {}) {
    const counting: MoneyStore = {
      writeHand: (job) => store.writeHand(job),
      writeHands: (jobs) => {
        batchSizes.push(jobs.length);
        return store.writeHands(jobs);
      },
      writeVoided: (job) => store.writeVoided(job),
      cashOut: (job) => store.cashOut(job),
      lastHandNo: (roomId) => store.lastHandNo(roomId),
    };
    const c = new HandConsumer({
      queueName,
      prefix,
      connection: redis('persister-batch-test'),
      publisher: redis('persister-batch-test-publisher', false),
      store: custom ?? counting,
      logger: createLogger('test', { level: 'silent' }),
      registry: createMetricsRegistry('test'),
      concurrency: 2,
      batchMax: 8,
      batchWaitMs: 50,
      waitDelayMs: 20,
      // Short for every consumer here: the first stalled check sets how long the queue's next one
      // waits, whichever consumer runs it.
      lockDurationMs: 1_000,
      stalledIntervalMs: 500,
      ...options,
    });
    consumers.push(c);
    c.start();
    return c;
  }

  async function played(tag: string, hands: number): Promise<{ roomId: string; jobs: HandJob[] }> {
    const room = await createRoom(db.prisma, [
      { name: `${tag}1`, buyIn: 180 },
      { name: `${tag}2`, buyIn: 160 },
      { name: `${tag}3`, buyIn: 200 },
    ]);
    const jobs: HandJob[] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (j) => Promise.resolve(void jobs.push(j)), cashOut: () => Promise.resolve() },
      new SeededRng(`consumer-batch-${tag}`),
    );
    for (let i = 0; i < hands; i++) if (!(await t.playHand())) throw new Error(`room ${tag} played only ${i} hands`);
    return { roomId: room.roomId, jobs };
  }

  const enqueue = (jobs: readonly HandJob[]) =>
    queue.addBulk(jobs.map((j) => ({ name: HandJobName.HAND_COMPLETED, data: j, opts: handJobOptions(j.hand_id) })));

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPgPool(db.url, { max: 3 });
    store = new PrismaMoneyStore(db.prisma, () => new Date(), pool);
    const subscriber = redis('persister-batch-test-subscriber', false);
    subscriber.on('message', (_c: string, m: string) => outcomes.push(JSON.parse(m) as PersistOutcome));
    await subscriber.subscribe(`${prefix}persist-outcomes`);
    queue = new Queue(queueName, { connection: redis('persister-batch-test-producer'), prefix: bullmqPrefix(prefix) });
    events = new QueueEvents(queueName, {
      connection: redis('persister-batch-test-events'),
      prefix: bullmqPrefix(prefix),
    });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    for (const c of consumers) await c.close({ force: true });
    await events?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    for (const c of conns) await closeRedis(c);
    await pool?.end();
    await db?.drop();
  });

  it('writes a burst of hands of several rooms in batches, each job with its own outcome', async () => {
    const c = consumer();
    const rooms = [await played('ba', 3), await played('bb', 3), await played('bc', 2)];
    // Queued together, one room's hands backwards: they arrive as one backlog.
    const jobs = [...rooms[0]!.jobs.reverse(), ...rooms[1]!.jobs, ...rooms[2]!.jobs];
    await enqueue(jobs);
    for (const j of jobs) {
      const job = await queue.getJob(j.hand_id);
      expect(await job!.waitUntilFinished(events, 20_000)).toEqual({ kind: 'hand', result: 'written' });
    }
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
    for (const r of rooms) {
      const stored = await db.prisma.hand.findMany({ where: { roomId: r.roomId }, orderBy: { handNo: 'asc' } });
      expect(stored.map((h) => h.handNo)).toEqual(r.jobs.map((_, i) => i + 1));
    }
    await until(
      () => Promise.resolve(jobs.every((j) => outcomes.some((o) => o.id === j.hand_id && o.outcome === 'written'))),
      'a written outcome for every hand',
    );
    expect((await runAudit(db.prisma)).issues).toEqual([]);
    await c.close();
  });

  it('a hand refused in a batch fails alone, for good, with an incident; the other rooms are written', async () => {
    const c = consumer();
    const bad = await played('fa', 1);
    const good = await played('fb', 2);
    // The table claims a player sat down with 10 more chips than the escrow holds.
    const job = JSON.parse(JSON.stringify(bad.jobs[0])) as HandJob;
    const r = job.payload as {
      hand: { setup: { players: { seat: number; stack: number }[] }; operations: { stacks?: unknown }[] };
      settlement: { players: { seat: number; startingStack: number; finalStack: number }[] };
    };
    const seat = r.settlement.players[0]!.seat;
    r.hand.setup.players.find((p) => p.seat === seat)!.stack += 10;
    r.settlement.players[0]!.startingStack += 10;
    r.settlement.players[0]!.finalStack += 10;
    const end = r.hand.operations[r.hand.operations.length - 1] as { stacks?: { seat: number; stack: number }[] };
    end.stacks!.find((x) => x.seat === seat)!.stack += 10;
    await enqueue([good.jobs[0]!, job, good.jobs[1]!]);
    const refused = await queue.getJob(job.hand_id);
    await expect(refused!.waitUntilFinished(events, 20_000)).rejects.toThrow(/escrow_mismatch/);
    expect(await refused!.getState()).toBe('failed');
    for (const j of good.jobs) {
      expect(await (await queue.getJob(j.hand_id))!.waitUntilFinished(events, 20_000)).toEqual({
        kind: 'hand',
        result: 'written',
      });
    }
    expect(await db.prisma.hand.count({ where: { roomId: bad.roomId } })).toBe(0);
    expect(await db.prisma.moneyIncident.count({ where: { handId: job.hand_id, kind: 'escrow_mismatch' } })).toBe(1);
    await db.prisma.moneyIncident.updateMany({ data: { resolvedAt: new Date() } });
    await refused!.remove();
    expect((await runAudit(db.prisma)).issues).toEqual([]);
    await c.close();
  });

  it('a consumer that dies holding a batch commits nothing of it; the next one writes each hand once', async () => {
    const rooms = [await played('ca', 2), await played('cb', 2)];
    const jobs = rooms.flatMap((r) => r.jobs);
    const totals = await ledgerTotals(db.prisma);
    let taken = 0;
    // Takes the jobs and never finishes them, as a persister killed mid-batch (its transaction
    // never commits).
    const dying = consumer({
      writeHand: () => new Promise(() => undefined),
      writeHands: (batch) => {
        taken += batch.length;
        return new Promise(() => undefined);
      },
      writeVoided: () => new Promise(() => undefined),
      cashOut: () => new Promise(() => undefined),
      lastHandNo: (roomId) => store.lastHandNo(roomId),
    });
    await enqueue(jobs);
    await until(() => Promise.resolve(taken > 0), 'the dying consumer took a batch');
    await dying.close({ force: true });
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    // The jobs' locks lapse and the next consumer runs them again.
    consumer();
    let states: unknown[] = [];
    await until(
      async () => {
        states = await Promise.all(jobs.map(async (j) => (await queue.getJob(j.hand_id))?.getState()));
        return (await db.prisma.hand.count({ where: { handId: { in: jobs.map((j) => j.hand_id) } } })) === jobs.length;
      },
      () => `every hand written by the next consumer (jobs ${states.join(', ')})`,
    );
    for (const j of jobs) {
      const job = await queue.getJob(j.hand_id);
      expect(await job!.waitUntilFinished(events, 20_000)).toMatchObject({ kind: 'hand' });
    }
    for (const r of rooms) {
      const room = await db.prisma.room.findUniqueOrThrow({ where: { id: r.roomId }, select: { lastHandNo: true } });
      expect(room.lastHandNo).toBe(2);
    }
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });
});
