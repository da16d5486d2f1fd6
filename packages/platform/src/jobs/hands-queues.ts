import { z } from 'zod';
import type { Redis } from '../redis/connect.js';
import { bullmqPrefix } from '../redis/keys.js';
import { murmur3 } from '../ring/murmur3.js';

// The hands queues (FELT_HANDS_QUEUE, FELT_HANDS_QUEUES): the workers spread a table's jobs over
// `count` BullMQ queues by the hash of its id, and the persister consumes every one of them. On a
// Redis Cluster each queue has a hash tag of its own, so the queues' keys (and the job traffic) land
// on different slots, hence on different masters, instead of all on the one slot of `{felt}`.

/** The most hands queues an installation may use (FELT_HANDS_QUEUES), and how far a persister looks. */
export const MAX_HANDS_QUEUES = 16;

/** FELT_HANDS_QUEUES: how many queues the workers spread hand jobs over (1 to MAX_HANDS_QUEUES). */
export const envHandsQueues = z.coerce.number().int().min(1).max(MAX_HANDS_QUEUES).default(1);

/** FELT_HANDS_QUEUE: the first queue's name, and the stem of the others'. */
export const envHandsQueueName = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[A-Za-z0-9_.-]+$/, { message: 'expected letters, digits, _ . or -' })
  .default('hands');

/** One hands queue: its BullMQ name and prefix. */
export interface HandsQueue {
  readonly index: number;
  readonly name: string;
  /** BullMQ's prefix (without a trailing colon): the queue's keys are `<prefix>:<name>:…`. */
  readonly prefix: string;
}

export interface HandsQueueSpec {
  /** FELT_REDIS_PREFIX. */
  readonly prefix: string;
  /** FELT_HANDS_QUEUE. */
  readonly name: string;
  /** Whether Redis is a cluster (each queue then gets its own hash tag). */
  readonly cluster: boolean;
}

/**
 * Queue `index` of the installation. Queue 0 is the queue Felt always had (`hands` under `felt`, or
 * `{felt}` on a cluster), so an installation that goes from one queue to several keeps its queued
 * jobs where the persister reads them. Queue i > 0 is `hands-i`; on a cluster its prefix is
 * `{felt-i}`, a slot of its own.
 */
export function handsQueue(spec: HandsQueueSpec, index: number): HandsQueue {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_HANDS_QUEUES) {
    throw new RangeError(`a hands queue's index is 0 to ${MAX_HANDS_QUEUES - 1}; got ${index}`);
  }
  if (index === 0) return { index, name: spec.name, prefix: bullmqPrefix(spec.prefix, spec.cluster) };
  const stem = bullmqPrefix(spec.prefix);
  return { index, name: `${spec.name}-${index}`, prefix: spec.cluster ? `{${stem}-${index}}` : stem };
}

/** Queues 0 to count − 1. */
export function handsQueues(spec: HandsQueueSpec, count: number): HandsQueue[] {
  return Array.from({ length: count }, (_, i) => handsQueue(spec, i));
}

/**
 * The queue a table's jobs go to: the table id's MurmurHash3 modulo `count`. Every job of a table
 * (its hands, voids and cash-outs) goes to one queue, so with a fixed count a table's jobs never
 * race each other across queues. When the count changes a table's later jobs may go to another
 * queue than its earlier ones: the persister still writes a room's hands in hand order (a hand that
 * arrives first waits for its predecessor), and a hand id enqueued on two queues is written once.
 */
export function handsQueueIndexOf(tableId: string, count: number): number {
  return count <= 1 ? 0 : murmur3(tableId) % count;
}

/** BullMQ's lists and sets that hold a queue's unfinished or failed jobs. */
const JOB_SETS = ['wait', 'paused', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * The queues a persister consumes: 0 to count − 1, and any queue past them that still holds a job
 * (unfinished or failed), left by an installation that used more queues before. A job is never
 * stranded by lowering FELT_HANDS_QUEUES: the persister drains those queues too, and the audit
 * counts their failed jobs. One EXISTS per queue, each queue's keys in one slot.
 */
export async function handsQueuesInUse(redis: Redis, spec: HandsQueueSpec, count: number): Promise<HandsQueue[]> {
  const queues = handsQueues(spec, count);
  for (let i = count; i < MAX_HANDS_QUEUES; i++) {
    const q = handsQueue(spec, i);
    const held = await redis.exists(...JOB_SETS.map((set) => `${q.prefix}:${q.name}:${set}`));
    if (held > 0) queues.push(q);
  }
  return queues;
}
