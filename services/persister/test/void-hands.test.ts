import { randomBytes } from 'node:crypto';
import { SeededRng } from '@felt/engine';
import {
  cashOutJobOptions,
  createTestDatabase,
  ledgerTotals,
  MoneyJobName,
  runAudit,
  voidedHandJobOptions,
  type CashOutJob,
  type TestDatabase,
  type VoidedHandJob,
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
import { RAKED_HOLDEM, createRoom, heldSink, queueSink, until } from '../../../test/money/fixtures.js';
import { SimTable } from '../../../test/money/sim-table.js';
import { HandConsumer } from '../src/hand-consumer.js';
import { PrismaMoneyStore } from '../src/money-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const uuid = (): string => {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

describe('voided hands in the persister (real Redis, BullMQ and Postgres)', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  const queueName = `hands-${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let connection: Redis;
  let producerConn: Redis;
  let eventsConn: Redis;
  let queue: Queue;
  let events: QueueEvents;
  let consumer: HandConsumer;

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = createRedis(REDIS_URL, { name: 'void-test', maxRetriesPerRequest: null });
    producerConn = createRedis(REDIS_URL, { name: 'void-test-producer', maxRetriesPerRequest: null });
    eventsConn = createRedis(REDIS_URL, { name: 'void-test-events', maxRetriesPerRequest: null });
    consumer = new HandConsumer({
      queueName,
      prefix,
      connection,
      store: new PrismaMoneyStore(db.prisma),
      logger: createLogger('test', { level: 'silent' }),
      registry: createMetricsRegistry('test'),
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
    for (const c of [connection, producerConn, eventsConn]) if (c) await closeRedis(c);
    await db?.drop();
  });

  it('records a void as a hands row with no number and no ledger entries, once; it blocks neither hands nor cash-outs', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'va', buyIn: 150 },
      { name: 'vb', buyIn: 150 },
    ]);
    const [a, b] = [room.users[0]!, room.users[1]!];
    // Hand 1 completes at the table, but its job is held back for now.
    const sink = heldSink();
    const table = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('void'));
    await table.playHand();
    const hand1 = sink.hands[0]!;
    const finals = (hand1.payload as { settlement: { players: { id: string; finalStack: number }[] } }).settlement
      .players;
    const stackOf = (userId: string): number => finals.find((p) => p.id === userId)!.finalStack;
    // Hand 2 is voided (its checkpoint was lost): its hand-start stacks are hand 1's final ones.
    const voided: VoidedHandJob = {
      kind: 'voided',
      hand_id: uuid(),
      room_id: room.roomId,
      hand_no: 2,
      reason: 'checkpoint_lost',
      voided_at: new Date().toISOString(),
      players: [
        { seat: 1, user_id: a.id, name: a.name, stack: stackOf(a.id) },
        { seat: 2, user_id: b.id, name: b.name, stack: stackOf(b.id) },
      ],
    };
    // Then `a` leaves: their cash-out waits for hand 1 (the void took no number).
    const cashOut: CashOutJob = {
      request_id: `leave-${a.membershipId}`,
      room_id: room.roomId,
      user_id: a.id,
      reason: 'leave',
      last_hand_no: 1,
      final_stack: stackOf(a.id),
      top_ups_applied: [],
      requested_at: new Date().toISOString(),
    };
    const totalsBefore = await ledgerTotals(db.prisma);

    // The void arrives first, before the hand it follows: written at once, nothing waits for it.
    const v = await queue.add(MoneyJobName.HAND_VOIDED, voided, voidedHandJobOptions(voided.hand_id));
    expect(v.id).toBe(voided.hand_id);
    expect(await v.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'written' });
    const row = await db.prisma.hand.findFirstOrThrow({
      where: { handId: voided.hand_id },
      include: { players: { orderBy: { seat: 'asc' } }, pots: true, actions: true, cards: true },
    });
    expect(row).toMatchObject({ handNo: null, voidedReason: 'checkpoint_lost', potTotal: 0n, rake: 0n });
    expect(row.pots).toEqual([]);
    expect(row.actions).toEqual([]);
    expect(row.cards).toEqual([]);
    expect(row.players.map((p) => [p.userId, p.startingStack, p.finalStack, p.net])).toEqual([
      [a.id, BigInt(stackOf(a.id)), BigInt(stackOf(a.id)), 0n],
      [b.id, BigInt(stackOf(b.id)), BigInt(stackOf(b.id)), 0n],
    ]);
    expect(await db.prisma.ledgerTransaction.count({ where: { handId: voided.hand_id } })).toBe(0);
    expect(await ledgerTotals(db.prisma)).toEqual(totalsBefore);
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).lastHandNo).toBe(0);

    // The cash-out waits for hand 1 only; hand 1 is written and releases it.
    const c = await queue.add(MoneyJobName.CASH_OUT_REQUESTED, cashOut, cashOutJobOptions(cashOut.request_id));
    expect(await c.waitUntilFinished(events, 10_000)).toEqual({ kind: 'cash_out', status: 'pending' });
    const h1 = await queue.add(HandJobName.HAND_COMPLETED, hand1, handJobOptions(hand1.hand_id));
    expect(await h1.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'written' });
    const paid = await db.prisma.cashOut.findUniqueOrThrow({ where: { requestId: cashOut.request_id } });
    expect(paid.status).toBe('paid');
    expect(paid.paidAmount).toBe(BigInt(stackOf(a.id)));
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).lastHandNo).toBe(1);

    // Replayed after the job is gone (BullMQ no longer dedupes): Postgres does, one row.
    await (await queue.getJob(voided.hand_id))!.remove();
    const again = await queue.add(MoneyJobName.HAND_VOIDED, voided, voidedHandJobOptions(voided.hand_id));
    expect(await again.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'duplicate' });
    expect(await db.prisma.hand.count({ where: { handId: voided.hand_id } })).toBe(1);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('records an engine-blind hand its players failed to deal, before the deal or after it; the table then deals standard', async () => {
    const room = await createRoom(
      db.prisma,
      [
        { name: 'ba', buyIn: 120 },
        { name: 'bb', buyIn: 140 },
        { name: 'bc', buyIn: 160 },
      ],
      { ...RAKED_HOLDEM, rake: { percent: 0 }, practiceChips: true, dealing: 'engine_blind' },
    );
    const [a, b, c] = [room.users[0]!, room.users[1]!, room.users[2]!];
    const totalsBefore = await ledgerTotals(db.prisma);
    const voided = async (job: VoidedHandJob) => {
      const added = await queue.add(MoneyJobName.HAND_VOIDED, job, voidedHandJobOptions(job.hand_id));
      expect(await added.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'written' });
      return db.prisma.hand.findFirstOrThrow({
        where: { handId: job.hand_id },
        include: { players: { orderBy: { seat: 'asc' } }, pots: true, actions: true, cards: true },
      });
    };

    // A player went silent mid-shuffle: the hand was announced to its participants but never dealt,
    // so the worker knows no game, limit, number nor start, only the hand id and who was in it.
    const early: VoidedHandJob = {
      kind: 'voided',
      hand_id: uuid(),
      room_id: room.roomId,
      reason: 'engine_blind_failed',
      voided_at: new Date().toISOString(),
      players: [
        { seat: 1, user_id: a.id, name: a.name, stack: 120 },
        { seat: 2, user_id: b.id, name: b.name, stack: 140 },
        { seat: 3, user_id: c.id, name: c.name, stack: 160 },
      ],
    };
    const row = await voided(early);
    expect(row).toMatchObject({
      handNo: null,
      voidedReason: 'engine_blind_failed',
      dealing: 'engine_blind',
      game: 'unknown',
      limit: 'unknown',
      seedCommit: null,
      serverSeed: null,
      potTotal: 0n,
      rake: 0n,
    });
    expect(row.startedAt).toEqual(row.endedAt);
    expect([row.pots, row.actions, row.cards]).toEqual([[], [], []]);
    expect(row.players.map((p) => [p.userId, p.startingStack, p.finalStack, p.net])).toEqual([
      [a.id, 120n, 120n, 0n],
      [b.id, 140n, 140n, 0n],
      [c.id, 160n, 160n, 0n],
    ]);
    expect(await db.prisma.ledgerTransaction.count({ where: { handId: early.hand_id } })).toBe(0);

    // Then the table deals a blind hand to the end, and the next one fails after the deal (a board
    // share never came): the void knows the game and the number the hand would have taken.
    const sink = queueSink(queue);
    const table = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('void-blind'), { blind: true });
    await table.playHand();
    const hand1 = sink.hands[0]!;
    expect(hand1.payload).not.toHaveProperty('reveal');
    const finals = (hand1.payload as { settlement: { players: { id: string; finalStack: number }[] } }).settlement
      .players;
    const stackOf = (userId: string): number => finals.find((p) => p.id === userId)!.finalStack;
    const late: VoidedHandJob = {
      kind: 'voided',
      hand_id: uuid(),
      room_id: room.roomId,
      hand_no: 2,
      reason: 'engine_blind_failed',
      game: 'holdem',
      limit: 'nl',
      started_at: new Date(Date.now() - 1000).toISOString(),
      voided_at: new Date().toISOString(),
      players: [a, b, c].map((u, i) => ({ seat: i + 1, user_id: u.id, name: u.name, stack: stackOf(u.id) })),
    };
    expect(await voided(late)).toMatchObject({
      handNo: null,
      voidedReason: 'engine_blind_failed',
      dealing: 'engine_blind',
      game: 'holdem',
      limit: 'nl',
    });
    // The downgraded table deals standard hands; the void held none of them up.
    table.blind = false;
    await table.playHand();
    const hand2 = sink.hands[1]!;
    await until(
      async () => (await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).lastHandNo === 2,
      'the blind hand and the standard one after the void are written',
    );
    const written = await db.prisma.hand.findMany({
      where: { handId: { in: [hand1.hand_id, hand2.hand_id] } },
      orderBy: { handNo: 'asc' },
    });
    expect(written.map((h) => [h.handNo, h.dealing, h.seedCommit === null])).toEqual([
      [1, 'engine_blind', true],
      [2, 'standard', false],
    ]);
    // The voids moved nothing; the hands moved practice chips only, real chips not at all.
    const totals = await ledgerTotals(db.prisma);
    expect([totals.granted, totals.wallets, totals.escrow, totals.rake]).toEqual([
      totalsBefore.granted,
      totalsBefore.wallets,
      totalsBefore.escrow,
      totalsBefore.rake,
    ]);
    expect(totals.practiceWallets + totals.practiceEscrow).toBe(totals.practiceIssued);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('refuses, for good, to void a hand already persisted as completed', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'vc', buyIn: 100 },
      { name: 'vd', buyIn: 100 },
    ]);
    const sink = heldSink();
    const table = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('void-conflict'));
    await table.playHand();
    const hand1 = sink.hands[0]!;
    const done = await queue.add(HandJobName.HAND_COMPLETED, hand1, handJobOptions(hand1.hand_id));
    expect(await done.waitUntilFinished(events, 10_000)).toEqual({ kind: 'hand', result: 'written' });
    await done.remove();
    const voided: VoidedHandJob = {
      kind: 'voided',
      hand_id: hand1.hand_id,
      room_id: room.roomId,
      reason: 'unreadable',
      voided_at: new Date().toISOString(),
      players: [],
    };
    const job = await queue.add(MoneyJobName.HAND_VOIDED, voided, voidedHandJobOptions(voided.hand_id));
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/hand_conflict/);
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
    const stored = await db.prisma.hand.findFirstOrThrow({ where: { handId: hand1.hand_id } });
    expect(stored).toMatchObject({ handNo: 1, voidedReason: null });
  });
});
