// The hand sink contract, run against the memory queue and the BullMQ one.
import { closeRedis, handsQueues } from '@felt/platform';
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
const QUEUE = 'hands';
afterAll(() => ns.close());

/** The BullMQ sink over `count` hands queues, seen through every one of them. */
function bullmqSink(count: number) {
  return () => {
    const prefix = ns.prefix();
    const sink = new BullmqHandSink(ns.redis, prefix, QUEUE, undefined, count);
    const queues = handsQueues({ prefix, name: QUEUE, cluster: false }, count).map(
      (q) => new Queue(q.name, { connection: ns.redis, prefix: q.prefix }),
    );
    return Promise.resolve({
      sink,
      queued: async () => {
        const jobs = [];
        for (const queue of queues) {
          jobs.push(...(await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'completed', 'failed'])));
        }
        return jobs
          .sort((a, b) => a.timestamp - b.timestamp || Number(a.processedOn ?? 0) - Number(b.processedOn ?? 0))
          .map((j): QueuedJob => ({ name: j.name as QueuedJob['name'], id: j.id!, data: j.data as unknown }));
      },
      drain: async () => {
        const connection = ns.redis.duplicate();
        const workers = queues.map(
          (q) => new Worker(q.name, () => Promise.resolve(), { connection, prefix: q.opts.prefix! }),
        );
        try {
          await vi.waitFor(
            async () => {
              let left = 0;
              for (const queue of queues) {
                const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
                left += Object.values(counts).reduce((a, b) => a + b, 0);
              }
              expect(left).toBe(0);
            },
            { timeout: 10_000, interval: 25 },
          );
        } finally {
          await Promise.all(workers.map((w) => w.close()));
          await closeRedis(connection);
        }
      },
      close: async () => {
        await Promise.all(queues.map((q) => q.close()));
        await sink.close();
      },
    });
  };
}

describeHandSink('bullmq', bullmqSink(1));
// FELT_HANDS_QUEUES=3: the same contract whichever queue a table's jobs hash to.
describeHandSink('bullmq, 3 queues', bullmqSink(3));
