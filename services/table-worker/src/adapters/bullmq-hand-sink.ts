import { Queue, type JobsOptions } from 'bullmq';
import {
  cashOutJobOptions,
  cashOutJobSchema,
  MoneyJobName,
  voidedHandJobOptions,
  voidedHandJobSchema,
  type CashOutJob,
  type VoidedHandJob,
} from '@felt/db';
import {
  HandJobName,
  handJobOptions,
  handsQueueIndexOf,
  handsQueues,
  NO_REPLICA_ACKS,
  queueTelemetry,
  replicated,
  type CompletedHandJob,
  type Redis,
  type ReplicaAcks,
} from '@felt/platform';
import type { MoneyJobSink } from '../money/ports.js';

/**
 * Completed and voided hands and cash-out requests onto the BullMQ hands queues (FELT_HANDS_QUEUE,
 * FELT_HANDS_QUEUES): every job of a table on the queue its id hashes to (`handsQueueIndexOf`), job
 * id = hand id or `cash-out-<request id>`, so a job enqueued again (a retry, or the next owner
 * replaying the outbox) is the same job.
 */
export class BullmqHandSink implements MoneyJobSink {
  /** Each hands queue, with a key of its hash tag for the replica wait on a Redis Cluster (`replicated`). */
  private readonly queues: { readonly queue: Queue; readonly slotKey: string }[];

  /**
   * `connection` needs maxRetriesPerRequest: null; BullMQ does not close it, the caller does. With
   * `replicas`, a job counts as sent (and leaves the table's outbox) only once that many Redis
   * replicas hold it: the queues use this very connection, and WAIT counts its writes.
   */
  constructor(
    private readonly connection: Redis,
    prefix: string,
    queueName: string,
    private readonly replicas: ReplicaAcks = NO_REPLICA_ACKS,
    queueCount = 1,
  ) {
    this.queues = handsQueues({ prefix, name: queueName, cluster: connection.isCluster }, queueCount).map((q) => ({
      queue: new Queue(q.name, { connection, prefix: q.prefix, telemetry: queueTelemetry() }),
      slotKey: `${q.prefix}:${q.name}:id`,
    }));
  }

  /** Adds a job of table `roomId` to the table's queue, then waits for the replicas (FELT_REDIS_WAIT_REPLICAS). */
  private async add(roomId: string, name: string, data: unknown, options: JobsOptions): Promise<void> {
    const { queue, slotKey } = this.queues[handsQueueIndexOf(roomId, this.queues.length)]!;
    await queue.add(name, data, options);
    await replicated(this.connection, this.replicas, slotKey);
  }

  async enqueue(job: CompletedHandJob): Promise<void> {
    await this.add(job.room_id, HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
  }

  async cashOut(job: CashOutJob): Promise<void> {
    // A request that does not match the contract fails here, loudly, not in the persister.
    const parsed = cashOutJobSchema.parse(job);
    await this.add(parsed.room_id, MoneyJobName.CASH_OUT_REQUESTED, parsed, cashOutJobOptions(parsed.request_id));
  }

  async voided(job: VoidedHandJob): Promise<void> {
    const parsed = voidedHandJobSchema.parse(job);
    await this.add(parsed.room_id, MoneyJobName.HAND_VOIDED, parsed, voidedHandJobOptions(parsed.hand_id));
  }

  async pendingHandsOf(roomId: string): Promise<number> {
    // A scan of the unfinished jobs of every queue (a table's earlier hands may sit on another queue
    // if FELT_HANDS_QUEUES changed): only a table rebuilt without its checkpoint asks.
    let pending = 0;
    for (const { queue } of this.queues) {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
      pending += jobs.filter(
        (j) =>
          j !== undefined &&
          j.name === HandJobName.HAND_COMPLETED &&
          (j.data as { room_id?: unknown } | null)?.room_id === roomId,
      ).length;
    }
    return pending;
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map(({ queue }) => queue.close()));
  }
}
