import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import {
  accountBalance,
  createTestDatabase,
  escrowAccount,
  ledgerTotals,
  claimRoomEpoch,
  runAudit,
  sealRoomRebuild,
  walletAccount,
  type PersistOutcome,
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
import type { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, heldSink, queueSink, until } from '../../../test/money/fixtures.js';
import { SimTable } from '../../../test/money/sim-table.js';
import { HandConsumer } from '../src/hand-consumer.js';
import { PrismaMoneyStore, type MoneyStore } from '../src/money-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('hand consumer (real Redis, BullMQ and Postgres)', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  const queueName = `hands-${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let connection: Redis;
  let producerConn: Redis;
  let eventsConn: Redis;
  let publisher: Redis;
  let subscriber: Redis;
  let queue: Queue;
  let events: QueueEvents;
  let consumer: HandConsumer;
  let registry: Registry;
  const outcomes: PersistOutcome[] = [];
  let failNext = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = createRedis(REDIS_URL, { name: 'persister-test', maxRetriesPerRequest: null });
    producerConn = createRedis(REDIS_URL, { name: 'persister-test-producer', maxRetriesPerRequest: null });
    eventsConn = createRedis(REDIS_URL, { name: 'persister-test-events', maxRetriesPerRequest: null });
    publisher = createRedis(REDIS_URL, { name: 'persister-test-publisher' });
    subscriber = createRedis(REDIS_URL, { name: 'persister-test-subscriber' });
    subscriber.on('message', (_c: string, m: string) => outcomes.push(JSON.parse(m) as PersistOutcome));
    await subscriber.subscribe(`${prefix}persist-outcomes`);
    const real = new PrismaMoneyStore(db.prisma);
    // Fails the first `failNext` hand writes, as a database blip would.
    const flaky: MoneyStore = {
      writeHand: (job) => {
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('database unavailable'));
        }
        return real.writeHand(job);
      },
      writeVoided: (job) => real.writeVoided(job),
      cashOut: (job) => real.cashOut(job),
      lastHandNo: (roomId) => real.lastHandNo(roomId),
    };
    registry = createMetricsRegistry('test');
    consumer = new HandConsumer({
      queueName,
      prefix,
      connection,
      publisher,
      store: flaky,
      logger: createLogger('test', { level: 'silent' }),
      registry,
      concurrency: 4,
      waitDelayMs: 20,
    });
    consumer.start();
    queue = new Queue(queueName, { connection: producerConn, prefix: bullmqPrefix(prefix) });
    events = new QueueEvents(queueName, { connection: eventsConn, prefix: bullmqPrefix(prefix) });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await consumer?.close();
    await events?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
    for (const c of [connection, producerConn, eventsConn, publisher, subscriber]) if (c) await closeRedis(c);
    await db?.drop();
  });

  it('writes each hand once: a replayed job is a no-op, and the worker hears the outcome', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'a', buyIn: 150 },
      { name: 'b', buyIn: 150 },
      { name: 'c', buyIn: 150 },
    ]);
    const sink = queueSink(queue);
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('replay'));
    await t.playHand();
    const job = sink.hands[0]!;
    const first = await queue.getJob(job.hand_id);
    expect(await first!.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'written' });
    const totals = await ledgerTotals(db.prisma);
    // The job is gone (as after removeOnComplete), so BullMQ no longer dedupes: Postgres must.
    await first!.remove();
    const replay = await queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
    expect(await replay.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'duplicate' });
    expect(await db.prisma.hand.count({ where: { handId: job.hand_id } })).toBe(1);
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    await until(() => Promise.resolve(outcomes.filter((o) => o.id === job.hand_id).length >= 2), 'outcomes');
    expect(outcomes.filter((o) => o.id === job.hand_id).map((o) => o.outcome)).toEqual(['written', 'duplicate']);
    expect(outcomes.find((o) => o.id === job.hand_id)).toMatchObject({
      kind: 'hand',
      room_id: room.roomId,
      hand_no: 1,
    });
  });

  it('drops a hand its table was rebuilt without (superseded): the job completes, no chip moves, the worker hears it', async () => {
    const room = await createRoom(db.prisma, [
      { name: 's1', buyIn: 150 },
      { name: 's2', buyIn: 150 },
    ]);
    const held = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, held, new SeededRng('superseded'));
    await t.playHand();
    // The old owner's hand 1 (epoch 2) was still on its way when Redis lost its data and the table
    // was built again from the rows (no hand yet) under epoch 3, which sealed the room.
    await claimRoomEpoch(db.prisma, room.roomId, 3);
    expect(await sealRoomRebuild(db.prisma, room.roomId, 3, 0)).toBe(true);
    const totals = await ledgerTotals(db.prisma);
    const old = { ...held.hands[0]!, epoch: 2 };
    const job = await queue.add(HandJobName.HAND_COMPLETED, old, handJobOptions(old.hand_id));
    expect(await job.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'superseded' });
    expect(await db.prisma.hand.count({ where: { roomId: room.roomId } })).toBe(0);
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    expect(await consumer.failedJobs()).toBe(0);
    await until(() => Promise.resolve(outcomes.some((o) => o.id === old.hand_id)), 'the outcome');
    expect(outcomes.filter((o) => o.id === old.hand_id).map((o) => o.outcome)).toEqual(['superseded']);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('writes a room’s hands in order even when they arrive backwards, without spending attempts', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'd', buyIn: 200 },
      { name: 'e', buyIn: 200 },
    ]);
    const held: Parameters<typeof queue.add>[1][] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (j) => Promise.resolve(void held.push(j)), cashOut: () => Promise.resolve() },
      new SeededRng('backwards'),
    );
    for (let i = 0; i < 5; i++) await t.playHand();
    const jobs = held as { hand_id: string }[];
    for (const j of [...jobs].reverse()) await queue.add(HandJobName.HAND_COMPLETED, j, handJobOptions(j.hand_id));
    for (const j of jobs) {
      const job = await queue.getJob(j.hand_id);
      expect(await job!.waitUntilFinished(events, 20_000)).toEqual({ kind: 'hand', result: 'written' });
      expect((await queue.getJob(j.hand_id))!.attemptsMade).toBeLessThanOrEqual(1);
    }
    const stored = await db.prisma.hand.findMany({ where: { roomId: room.roomId }, orderBy: { handNo: 'asc' } });
    expect(stored.map((h) => h.handId)).toEqual(jobs.map((j) => j.hand_id));
    expect(outcomes.some((o) => o.outcome === 'waiting')).toBe(true);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('retries a failed write with backoff and then succeeds', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'f', buyIn: 100 },
      { name: 'g', buyIn: 100 },
    ]);
    const held: { hand_id: string }[] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (j) => Promise.resolve(void held.push(j)), cashOut: () => Promise.resolve() },
      new SeededRng('retry'),
    );
    await t.playHand();
    failNext = 2;
    const opts = { ...handJobOptions(held[0]!.hand_id), backoff: { type: 'exponential' as const, delay: 50 } };
    const job = await queue.add(HandJobName.HAND_COMPLETED, held[0]!, opts);
    expect(await job.waitUntilFinished(events, 15_000)).toEqual({ kind: 'hand', result: 'written' });
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(3);
    await until(
      () => Promise.resolve(outcomes.filter((o) => o.id === held[0]!.hand_id && o.outcome === 'retrying').length === 2),
      'retrying outcomes',
    );
  });

  it('fails a job that can never succeed at once, keeps it in the failed set and records an incident', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'h', buyIn: 100 },
      { name: 'i', buyIn: 100 },
    ]);
    const held: { hand_id: string; payload: { settlement: { players: { net: number }[] } } }[] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      { hand: (j) => Promise.resolve(void held.push(j as never)), cashOut: () => Promise.resolve() },
      new SeededRng('invalid'),
    );
    await t.playHand();
    const bad = JSON.parse(JSON.stringify(held[0])) as (typeof held)[number];
    bad.payload.settlement.players[0]!.net += 5;
    const job = await queue.add(HandJobName.HAND_COMPLETED, bad, handJobOptions(bad.hand_id));
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/hand_invalid/);
    const failed = await queue.getJob(job.id!);
    expect(await failed?.getState()).toBe('failed');
    expect(failed?.attemptsMade).toBe(1);
    expect(await db.prisma.hand.count({ where: { handId: bad.hand_id } })).toBe(0);
    expect(await db.prisma.moneyIncident.count({ where: { handId: bad.hand_id, kind: 'invalid_hand' } })).toBe(1);
    await until(
      () => Promise.resolve(outcomes.some((o) => o.id === bad.hand_id && o.outcome === 'failed')),
      'failed outcome',
    );
    const audit = await runAudit(db.prisma);
    expect(audit.issues.map((i) => i.code)).toContain('open_incident');
    await db.prisma.moneyIncident.updateMany({ data: { resolvedAt: new Date() } });
    await failed!.remove();
  });

  it('pays a cash-out only once the hands before it are persisted', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'j', buyIn: 150 },
      { name: 'k', buyIn: 150 },
      { name: 'l', buyIn: 150 },
    ]);
    const leaver = room.users[1]!;
    const held: { kind: 'hand' | 'cash'; job: { hand_id?: string; request_id?: string } }[] = [];
    const t = await SimTable.load(
      db.prisma,
      room.roomId,
      {
        hand: (j) => Promise.resolve(void held.push({ kind: 'hand', job: j })),
        cashOut: (j) => Promise.resolve(void held.push({ kind: 'cash', job: j })),
      },
      new SeededRng('cash-out'),
    );
    await t.playHand();
    await t.playHand();
    await db.prisma.membership.update({ where: { id: leaver.membershipId }, data: { leaveRequestedAt: new Date() } });
    await t.sync();
    const wallet = await accountBalance(db.prisma, walletAccount(leaver.id));
    // The cash-out overtakes both hands in the queue.
    const cash = held.find((h) => h.kind === 'cash')!.job as { request_id: string; final_stack: number };
    const { cashOutJobOptions, MoneyJobName } = await import('@felt/db');
    const c = await queue.add(MoneyJobName.CASH_OUT_REQUESTED, cash, cashOutJobOptions(cash.request_id));
    expect(await c.waitUntilFinished(events, 10_000)).toEqual({ kind: 'cash_out', status: 'pending' });
    expect(await accountBalance(db.prisma, walletAccount(leaver.id))).toBe(wallet);
    for (const h of held.filter((x) => x.kind === 'hand')) {
      const j = h.job as { hand_id: string };
      await (
        await queue.add(HandJobName.HAND_COMPLETED, j, handJobOptions(j.hand_id))
      ).waitUntilFinished(events, 10_000);
    }
    expect(await accountBalance(db.prisma, walletAccount(leaver.id))).toBe(wallet + BigInt(cash.final_stack));
    expect(await accountBalance(db.prisma, escrowAccount(room.roomId, leaver.id))).toBe(0n);
    expect((await db.prisma.cashOut.findUniqueOrThrow({ where: { requestId: cash.request_id } })).status).toBe('paid');
    expect((await runAudit(db.prisma)).issues).toEqual([]);
    // The worker hears both: pending, then paid when the hand it waited for was written (its table
    // then reads its rows again: the seat is free).
    await until(
      () => Promise.resolve(outcomes.some((o) => o.id === cash.request_id && o.outcome === 'paid')),
      'the paid outcome',
    );
    expect(outcomes.filter((o) => o.id === cash.request_id).map((o) => [o.kind, o.outcome])).toEqual([
      ['cash_out', 'pending'],
      ['cash_out', 'paid'],
    ]);
  });

  it('reports queue depth, lag and job results as metrics', async () => {
    const text = await registry.metrics();
    // The registry adds a service label after each metric's own.
    expect(text).toMatch(/felt_persister_queue_depth\{queue="hands-[0-9a-f]+",state="waiting",service="test"\} \d+/);
    expect(text).toMatch(/felt_persister_queue_lag_seconds\{service="test"\} \d/);
    expect(text).toMatch(/felt_persister_jobs_total\{kind="hand",result="written",service="test"\} [1-9]/);
    expect(text).toMatch(/felt_persister_jobs_total\{kind="hand",result="duplicate",service="test"\} [1-9]/);
    expect(text).toMatch(/felt_persister_jobs_total\{kind="cash_out",result="pending",service="test"\} 1/);
    expect(text).toMatch(/felt_persister_hand_waits_total\{service="test"\} [1-9]/);
    expect(text).toMatch(/felt_persister_hand_lag_seconds_count\{service="test"\} [1-9]/);
  });
});
