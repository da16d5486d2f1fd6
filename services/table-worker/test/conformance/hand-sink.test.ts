// The hand sink contract, run against the memory queue and the BullMQ one.
import { bullmqPrefix, closeRedis } from '@felt/platform';
import { Queue, Worker } from 'bullmq';
import { afterAll, expect, vi } from 'vitest';
import { BullmqHandSink } from '../../src/adapters/bullmq-hand-sink.js';
import { MemoryHandSink, type QueuedJob } from '../../src/adapters/memory-hand-sink.js';
import { describeHandSink } from './describe-hand-sink.js';
import { RedisNamespace } from './redis-namespace.js';

describeHandSink('memory', () => {
  const sink = new MemoryHandSink();
  return Promise.resolve({
    sink,
    queued: () => Promise.resolve(sink.queued()),
    drain: () => Promise.resolve(sink.drain()),
  });
});

const ns = new RedisNamespace('hand-sink-conformance');
afterAll(() => ns.close());

describeHandSink('bullmq', () => {
  const prefix = ns.prefix();
  const QUEUE = 'hands';
  const sink = new BullmqHandSink(ns.redis, prefix, QUEUE);
  const queue = new Queue(QUEUE, { connection: ns.redis, prefix: bullmqPrefix(prefix) });
  return Promise.resolve({
    sink,
    queued: async () => {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'completed', 'failed']);
      return jobs
        .sort((a, b) => a.timestamp - b.timestamp || Number(a.processedOn ?? 0) - Number(b.processedOn ?? 0))
        .map((j): QueuedJob => ({ name: j.name as QueuedJob['name'], id: j.id!, data: j.data as unknown }));
    },
    drain: async () => {
      const connection = ns.redis.duplicate();
      const worker = new Worker(QUEUE, () => Promise.resolve(), { connection, prefix: bullmqPrefix(prefix) });
      try {
        await vi.waitFor(
          async () => {
            const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
            expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
          },
          { timeout: 10_000, interval: 25 },
        );
      } finally {
        await worker.close();
        await closeRedis(connection);
      }
    },
    close: async () => {
      await queue.close();
      await sink.close();
    },
  });
});
