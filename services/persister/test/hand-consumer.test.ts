import { randomBytes, randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@felt/db';
import {
  bullmqPrefix,
  closeRedis,
  createLogger,
  createMetricsRegistry,
  createRedis,
  HandJobName,
  handJobOptions,
  type HandCompletedJob,
  type Redis,
} from '@felt/platform';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandConsumer } from '../src/hand-consumer.js';
import type { HandStore } from '../src/hand-store.js';
import { PrismaHandStore } from '../src/prisma-hand-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('hand consumer (real Redis + Postgres)', () => {
  const prefix = `t${randomBytes(5).toString('hex')}:`;
  const queueName = `hands-${randomBytes(3).toString('hex')}`;
  let db: TestDatabase;
  let connection: Redis;
  let producerConn: Redis;
  let eventsConn: Redis;
  let queue: Queue;
  let events: QueueEvents;
  let consumer: HandConsumer;
  let roomId: string;
  let failNext = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const host = await db.prisma.user.create({ data: { name: 'Host', nameKey: 'host', passwordHash: 'x' } });
    roomId = (await db.prisma.room.create({ data: { code: '654321', config: {}, isPublic: false, hostId: host.id } }))
      .id;
    connection = createRedis(REDIS_URL, { name: 'persister-test', maxRetriesPerRequest: null });
    producerConn = createRedis(REDIS_URL, { name: 'persister-test-producer', maxRetriesPerRequest: null });
    eventsConn = createRedis(REDIS_URL, { name: 'persister-test-events', maxRetriesPerRequest: null });
    const real = new PrismaHandStore(db.prisma);
    // Fails the first `failNext` writes, as a database blip would.
    const flaky: HandStore = {
      write: (hand) => {
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('database unavailable'));
        }
        return real.write(hand);
      },
    };
    consumer = new HandConsumer({
      queueName,
      prefix,
      connection,
      store: flaky,
      logger: createLogger('test', { level: 'silent' }),
      registry: createMetricsRegistry('test'),
      concurrency: 2,
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

  const hand = (handId: string): HandCompletedJob => ({
    hand_id: handId,
    room_id: roomId,
    hand_no: 1,
    game: 'holdem',
    limit: 'no_limit',
    blinds: { sb: 1, bb: 2 },
    started_at: '2026-11-29T12:00:00.000Z',
    ended_at: '2026-11-29T12:01:00.000Z',
    payload: { actions: ['p1 cbr 4', 'p2 f'], winner: 'p1' },
  });

  it('a hand processed twice writes one row', async () => {
    const id = `h-${randomUUID()}`;
    const first = await queue.add(HandJobName.HAND_COMPLETED, hand(id), handJobOptions(id));
    expect(await first.waitUntilFinished(events, 10_000)).toBe('written');
    // The job is gone (as after removeOnComplete), so BullMQ no longer dedupes: Postgres must.
    await first.remove();
    const replay = await queue.add(HandJobName.HAND_COMPLETED, hand(id), handJobOptions(id));
    expect(await replay.waitUntilFinished(events, 10_000)).toBe('duplicate');
    const rows = await db.prisma.hand.findMany({ where: { handId: id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ roomId, game: 'holdem', limit: 'no_limit', handNo: 1 });
    expect(rows[0]!.payload).toEqual({ actions: ['p1 cbr 4', 'p2 f'], winner: 'p1' });
  });

  it('retries a failed write with backoff and then succeeds', async () => {
    const id = `h-${randomUUID()}`;
    failNext = 2;
    const opts = { ...handJobOptions(id), backoff: { type: 'exponential' as const, delay: 50 } };
    const job = await queue.add(HandJobName.HAND_COMPLETED, hand(id), opts);
    expect(await job.waitUntilFinished(events, 15_000)).toBe('written');
    const done = await queue.getJob(job.id!);
    expect(done?.attemptsMade).toBe(3);
    expect(await db.prisma.hand.count({ where: { handId: id } })).toBe(1);
  });

  it('fails an invalid payload at once and keeps it in the failed set', async () => {
    const id = `h-${randomUUID()}`;
    const job = await queue.add(HandJobName.HAND_COMPLETED, { ...hand(id), room_id: 'not-a-uuid' }, handJobOptions(id));
    await expect(job.waitUntilFinished(events, 10_000)).rejects.toThrow(/invalid hand job/);
    const failed = await queue.getJob(job.id!);
    expect(await failed?.getState()).toBe('failed');
    expect(failed?.attemptsMade).toBe(1);
    expect(await db.prisma.hand.count({ where: { handId: id } })).toBe(0);
  });
});
