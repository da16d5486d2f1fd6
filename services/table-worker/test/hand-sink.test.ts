// The BullMQ hands queue as a rebuilt table sees it (real Redis): how many of a room's completed
// hands still wait to be persisted.
import { randomBytes, randomUUID } from 'node:crypto';
import { bullmqPrefix, closeRedis, createRedis, HandJobName, type Redis } from '@felt/platform';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullmqHandSink } from '../src/adapters/bullmq-hand-sink.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `tsink${randomBytes(4).toString('hex')}:`;
const QUEUE = 'hands';

let redis: Redis;

beforeAll(() => {
  redis = createRedis(REDIS_URL, { name: 'hand-sink-test', maxRetriesPerRequest: null });
});

afterAll(async () => {
  const keys = await redis.keys(`${bullmqPrefix(prefix)}*`);
  if (keys.length > 0) await redis.del(...keys);
  await closeRedis(redis);
});

describe('BullmqHandSink.pendingHandsOf', () => {
  it("counts the room's completed hands waiting, delayed or being worked on, and nothing else", async () => {
    const sink = new BullmqHandSink(redis, prefix, QUEUE);
    const queue = new Queue(QUEUE, { connection: redis, prefix: bullmqPrefix(prefix) });
    const room = randomUUID();
    const other = randomUUID();
    try {
      expect(await sink.pendingHandsOf(room)).toBe(0);
      await queue.add(HandJobName.HAND_COMPLETED, { room_id: room, hand_no: 1 }, { jobId: randomUUID() });
      await queue.add(
        HandJobName.HAND_COMPLETED,
        { room_id: room, hand_no: 2 },
        { jobId: randomUUID(), delay: 60_000 },
      );
      await queue.add(HandJobName.HAND_COMPLETED, { room_id: other, hand_no: 1 }, { jobId: randomUUID() });
      // A void or a cash-out of the room is no completed hand.
      await queue.add('hand.voided', { room_id: room }, { jobId: randomUUID() });
      expect(await sink.pendingHandsOf(room)).toBe(2);
      expect(await sink.pendingHandsOf(other)).toBe(1);

      // Once the persister has done them, none is pending.
      const done = new Set<string>();
      const workerConnection = redis.duplicate();
      const worker = new Worker(
        QUEUE,
        (job) => {
          done.add(job.id!);
          return Promise.resolve();
        },
        { connection: workerConnection, prefix: bullmqPrefix(prefix) },
      );
      // BullMQ emits `completed` once a job has moved to the completed set in Redis.
      const allCompleted = new Promise<void>((resolve) => {
        let completed = 0;
        worker.on('completed', () => {
          if (++completed === 4) resolve();
        });
      });
      try {
        await (await queue.getJob((await queue.getDelayed())[0]!.id!))!.promote();
        await allCompleted;
        expect(done.size).toBe(4);
        expect(await sink.pendingHandsOf(room)).toBe(0);
        expect(await sink.pendingHandsOf(other)).toBe(0);
      } finally {
        await worker.close();
        await closeRedis(workerConnection);
      }
    } finally {
      await queue.close();
      await sink.close();
    }
  });
});
