import { Queue } from 'bullmq';
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
  bullmqPrefix,
  HandJobName,
  handJobOptions,
  NO_REPLICA_ACKS,
  queueTelemetry,
  replicated,
  type CompletedHandJob,
  type Redis,
  type ReplicaAcks,
} from '@felt/platform';
import type { MoneyJobSink } from '../money/ports.js';

/**
 * Completed and voided hands and cash-out requests onto the BullMQ hands queue (FELT_HANDS_QUEUE), job id =
 * hand id or `cash-out-<request id>`, so a job enqueued again (a retry, or the next owner replaying
 * the outbox) is the same job.
 */
export class BullmqHandSink implements MoneyJobSink {
  private readonly queue: Queue;

  /**
   * `connection` needs maxRetriesPerRequest: null; BullMQ does not close it, the caller does. With
   * `replicas`, a job counts as sent (and leaves the table's outbox) only once that many Redis
   * replicas hold it: the queue uses this very connection, and WAIT counts its writes.
   */
  constructor(
    private readonly connection: Redis,
    prefix: string,
    queueName: string,
    private readonly replicas: ReplicaAcks = NO_REPLICA_ACKS,
  ) {
    this.queue = new Queue(queueName, {
      connection,
      prefix: bullmqPrefix(prefix, connection.isCluster),
      telemetry: queueTelemetry(),
    });
  }

  async enqueue(job: CompletedHandJob): Promise<void> {
    await this.queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
    await replicated(this.connection, this.replicas);
  }

  async cashOut(job: CashOutJob): Promise<void> {
    // A request that does not match the contract fails here, loudly, not in the persister.
    const parsed = cashOutJobSchema.parse(job);
    await this.queue.add(MoneyJobName.CASH_OUT_REQUESTED, parsed, cashOutJobOptions(parsed.request_id));
    await replicated(this.connection, this.replicas);
  }

  async voided(job: VoidedHandJob): Promise<void> {
    const parsed = voidedHandJobSchema.parse(job);
    await this.queue.add(MoneyJobName.HAND_VOIDED, parsed, voidedHandJobOptions(parsed.hand_id));
    await replicated(this.connection, this.replicas);
  }

  async pendingHandsOf(roomId: string): Promise<number> {
    // A scan of the unfinished jobs: only a table rebuilt without its checkpoint asks.
    const jobs = await this.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
    return jobs.filter(
      (j) =>
        j !== undefined &&
        j.name === HandJobName.HAND_COMPLETED &&
        (j.data as { room_id?: unknown } | null)?.room_id === roomId,
    ).length;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
