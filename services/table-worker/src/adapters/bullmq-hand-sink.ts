import { Queue } from 'bullmq';
import { bullmqPrefix, HandJobName, handJobOptions, type CompletedHandJob, type Redis } from '@felt/platform';
import type { HandSink } from '../ports.js';

/**
 * Completed hands onto the BullMQ hands queue (FELT_HANDS_QUEUE), job id = hand id, so a hand
 * enqueued again (a retry, or the next owner replaying the outbox) is the same job.
 */
export class BullmqHandSink implements HandSink {
  private readonly queue: Queue;

  /** `connection` needs maxRetriesPerRequest: null; BullMQ does not close it, the caller does. */
  constructor(connection: Redis, prefix: string, queueName: string) {
    this.queue = new Queue(queueName, { connection, prefix: bullmqPrefix(prefix) });
  }

  async enqueue(job: CompletedHandJob): Promise<void> {
    await this.queue.add(HandJobName.HAND_COMPLETED, job, handJobOptions(job.hand_id));
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
