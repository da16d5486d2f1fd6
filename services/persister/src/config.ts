import { commonEnv, databaseEnv, envHandsQueueName, envHandsQueues, envPort, envPositiveInt } from '@felt/platform';
import { z } from 'zod';

export const persisterEnv = {
  ...commonEnv,
  ...databaseEnv,
  PERSISTER_HTTP_PORT: envPort.default(9092),
  FELT_HANDS_QUEUE: envHandsQueueName,
  /** The workers' FELT_HANDS_QUEUES: the persister consumes those queues, and drains any left past them. */
  FELT_HANDS_QUEUES: envHandsQueues,
  /** How often the persister looks for queues past FELT_HANDS_QUEUES that hold jobs, to consume them too. */
  PERSISTER_QUEUE_SCAN_MS: envPositiveInt.default(30_000),
  PERSISTER_CONCURRENCY: envPositiveInt.default(4),
  /** Hands written in one transaction at most; the consumer takes this many jobs at once. 1: no batches. */
  PERSISTER_BATCH_MAX: envPositiveInt.default(16),
  /** How long a hand waits for others to share its transaction (milliseconds). */
  PERSISTER_BATCH_WAIT_MS: envPositiveInt.default(20),
  /** A job's lock; when a persister dies, its jobs run again once their locks lapse. */
  PERSISTER_LOCK_MS: envPositiveInt.default(30_000),
  /** How often lapsed locks (stalled jobs) are looked for. */
  PERSISTER_STALLED_INTERVAL_MS: envPositiveInt.default(30_000),
  /**
   * How often the cluster's money is audited (ledger, hands, live stacks, failed jobs); one replica
   * runs each period and every replica exports the result. 0 turns the schedule off.
   */
  PERSISTER_AUDIT_EVERY_MS: z.coerce.number().int().min(0).max(86_400_000).default(900_000),
};
