// The hands queues' names, prefixes and the table → queue hash (FELT_HANDS_QUEUES). Which queues a
// persister finds holding jobs is checked here on the shared Redis with the sets BullMQ keeps, and
// with BullMQ itself in the persister's tests (services/persister/test/hands-queues.test.ts).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envHandsQueues,
  handsQueue,
  handsQueueIndexOf,
  handsQueues,
  handsQueuesInUse,
  MAX_HANDS_QUEUES,
} from './hands-queues.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('hands queues', () => {
  it('queue 0 is the queue Felt always had; the others are hands-i, each with a hash tag of its own on a cluster', () => {
    const single = { prefix: 'felt:', name: 'hands', cluster: false };
    expect(handsQueues(single, 3)).toEqual([
      { index: 0, name: 'hands', prefix: 'felt' },
      { index: 1, name: 'hands-1', prefix: 'felt' },
      { index: 2, name: 'hands-2', prefix: 'felt' },
    ]);
    expect(handsQueues({ ...single, cluster: true }, 3)).toEqual([
      { index: 0, name: 'hands', prefix: '{felt}' },
      { index: 1, name: 'hands-1', prefix: '{felt-1}' },
      { index: 2, name: 'hands-2', prefix: '{felt-2}' },
    ]);
    expect(handsQueue({ prefix: 't1:', name: 'h', cluster: false }, MAX_HANDS_QUEUES - 1).name).toBe(
      `h-${MAX_HANDS_QUEUES - 1}`,
    );
    expect(() => handsQueue(single, MAX_HANDS_QUEUES)).toThrow(RangeError);
    expect(() => handsQueue(single, -1)).toThrow(RangeError);
  });

  it('sends a table to one queue, the same every time, and spreads tables evenly', () => {
    expect(handsQueueIndexOf('any', 1)).toBe(0);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) {
      const table = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      const at = handsQueueIndexOf(table, 3);
      expect(handsQueueIndexOf(table, 3)).toBe(at);
      counts[at]!++;
    }
    // 1000 each on average; MurmurHash3 keeps every queue within 10 %.
    for (const n of counts) expect(Math.abs(n - 1000)).toBeLessThan(100);
  });

  it('FELT_HANDS_QUEUES: 1 by default, 1 to the maximum, whole numbers only', () => {
    expect(envHandsQueues.parse(undefined)).toBe(1);
    expect(envHandsQueues.parse('3')).toBe(3);
    for (const bad of ['0', String(MAX_HANDS_QUEUES + 1), '1.5', 'two']) {
      expect(envHandsQueues.safeParse(bad).success, bad).toBe(false);
    }
  });

  describe('the queues a persister consumes (shared Redis)', () => {
    let redis: Redis;
    const prefix = `thq${randomBytes(4).toString('hex')}:`;
    beforeAll(() => {
      redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    });
    afterAll(async () => {
      const found = await redis.keys(`${prefix}*`);
      if (found.length > 0) await redis.del(...found);
      redis.disconnect();
    });

    it('are the configured ones, and any past them that still holds an unfinished or failed job', async () => {
      const spec = { prefix, name: 'hands', cluster: false };
      expect((await handsQueuesInUse(redis, spec, 2)).map((q) => q.name)).toEqual(['hands', 'hands-1']);
      // Queue 5 keeps a delayed job, queue 7 a failed one, queue 9 only finished ones.
      await redis.zadd(`${prefix}hands-5:delayed`, 1, 'job-a');
      await redis.zadd(`${prefix}hands-7:failed`, 1, 'job-b');
      await redis.zadd(`${prefix}hands-9:completed`, 1, 'job-c');
      expect((await handsQueuesInUse(redis, spec, 2)).map((q) => q.name)).toEqual([
        'hands',
        'hands-1',
        'hands-5',
        'hands-7',
      ]);
      expect((await handsQueuesInUse(redis, spec, 8)).map((q) => q.name)).toHaveLength(8);
    });
  });
});
