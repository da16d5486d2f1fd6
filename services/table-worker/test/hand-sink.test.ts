// The BullMQ hands queue as a rebuilt table sees it (real Redis): how many of a room's completed
// hands still wait to be persisted.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  bullmqPrefix,
  closeRedis,
  createRedis,
  HandJobName,
  handsQueueIndexOf,
  handsQueues,
  type Redis,
} from '@felt/platform';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullmqHandSink } from '../src/adapters/bullmq-hand-sink.js';
import { cashOut, completed } from './conformance/describe-hand-sink.js';

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

describe('BullmqHandSink over several queues (FELT_HANDS_QUEUES)', () => {
  it('puts every job of a table (hands and cash-outs) on the queue its id hashes to, and only there', async () => {
    const p = `tsinkq${randomBytes(4).toString('hex')}:`;
    const sink = new BullmqHandSink(redis, p, QUEUE, undefined, 3);
    const queues = handsQueues({ prefix: p, name: QUEUE, cluster: false }, 3).map(
      (q) => new Queue(q.name, { connection: redis, prefix: q.prefix }),
    );
    try {
      expect(queues.map((q) => q.qualifiedName)).toEqual([`${p}hands`, `${p}hands-1`, `${p}hands-2`]);
      // Tables until each queue has two (how evenly the hash spreads them is the platform's test).
      const rooms: string[] = [];
      const perQueue = [0, 0, 0];
      while (perQueue.some((n) => n < 2)) {
        const room = randomUUID();
        rooms.push(room);
        perQueue[handsQueueIndexOf(room, 3)]!++;
      }
      for (const room of rooms) {
        await sink.enqueue(completed(room, 1));
        await sink.cashOut(cashOut(room));
      }
      const roomsOf = await Promise.all(
        queues.map(async (q) => (await q.getJobs(['waiting'])).map((j) => (j.data as { room_id: string }).room_id)),
      );
      for (const room of rooms) {
        const at = handsQueueIndexOf(room, 3);
        roomsOf.forEach((held, i) => expect(held.filter((r) => r === room)).toHaveLength(i === at ? 2 : 0));
      }
      expect(await sink.pendingHandsOf(rooms[0]!)).toBe(1);
    } finally {
      for (const q of queues) {
        await q.obliterate({ force: true });
        await q.close();
      }
      await sink.close();
    }
  });
});
