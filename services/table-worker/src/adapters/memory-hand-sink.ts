import {
  cashOutJobOptions,
  cashOutJobSchema,
  HandJobName,
  handJobOptions,
  MoneyJobName,
  voidedHandJobOptions,
  voidedHandJobSchema,
  type CashOutJob,
  type CompletedHandJob,
  type VoidedHandJob,
} from '@felt/platform';
import type { MoneyJobSink } from '../money/ports.js';

/** A job as the queue holds it. */
export interface QueuedJob {
  readonly name: HandJobName | MoneyJobName;
  readonly id: string;
  readonly data: unknown;
}

/**
 * The hands queue in memory, with BullmqHandSink's behaviour: the same job names, ids and payloads
 * (cash-outs and voids checked against their schemas, so a bad one is refused here too), one job
 * per id whatever its kind (a re-send is a no-op), and a completed hand pending until the consumer
 * has taken it (`drain`).
 */
export class MemoryHandSink implements MoneyJobSink {
  /** Completed hands, once each, in the order they arrived. */
  readonly jobs: CompletedHandJob[] = [];
  /** Cash-out requests as the queue holds them (parsed: defaults filled in), once each. */
  readonly cashOuts: CashOutJob[] = [];
  /** Voided hands as the queue holds them, once each. */
  readonly voids: VoidedHandJob[] = [];
  /** Every send in the order it arrived, re-sends included: `hand:<no>`, `voided:<id>`, `cash_out:<request id>`. */
  readonly log: string[] = [];
  /** While set, every send fails as a queue that is down does. */
  fail = false;
  private readonly queue: (QueuedJob & { done: boolean })[] = [];

  enqueue(job: CompletedHandJob): Promise<void> {
    if (this.fail) return Promise.reject(new Error('queue down'));
    this.log.push(`hand:${job.hand_no}`);
    if (this.add(HandJobName.HAND_COMPLETED, handJobOptions(job.hand_id).jobId, job)) {
      this.jobs.push(structuredClone(job));
    }
    return Promise.resolve();
  }

  cashOut(job: CashOutJob): Promise<void> {
    if (this.fail) return Promise.reject(new Error('queue down'));
    const parsed = cashOutJobSchema.safeParse(job);
    if (!parsed.success) return Promise.reject(parsed.error);
    this.log.push(`cash_out:${parsed.data.request_id}`);
    if (this.add(MoneyJobName.CASH_OUT_REQUESTED, cashOutJobOptions(parsed.data.request_id).jobId, parsed.data)) {
      this.cashOuts.push(structuredClone(parsed.data));
    }
    return Promise.resolve();
  }

  voided(job: VoidedHandJob): Promise<void> {
    if (this.fail) return Promise.reject(new Error('queue down'));
    const parsed = voidedHandJobSchema.safeParse(job);
    if (!parsed.success) return Promise.reject(parsed.error);
    this.log.push(`voided:${parsed.data.hand_id}`);
    if (this.add(MoneyJobName.HAND_VOIDED, voidedHandJobOptions(parsed.data.hand_id).jobId, parsed.data)) {
      this.voids.push(structuredClone(parsed.data));
    }
    return Promise.resolve();
  }

  pendingHandsOf(roomId: string): Promise<number> {
    return Promise.resolve(
      this.queue.filter(
        (j) =>
          !j.done &&
          j.name === HandJobName.HAND_COMPLETED &&
          (j.data as { room_id?: unknown } | null)?.room_id === roomId,
      ).length,
    );
  }

  /** Every job the queue holds (finished ones included), oldest first. */
  queued(): QueuedJob[] {
    return this.queue.map(({ name, id, data }) => ({ name, id, data: structuredClone(data) }));
  }

  /** The consumer (the persister) has taken every job: none is pending any more. */
  drain(): void {
    for (const j of this.queue) j.done = true;
  }

  /** Adds the job unless one with its id is there already; true when added. */
  private add(name: QueuedJob['name'], id: string, data: unknown): boolean {
    if (this.queue.some((j) => j.id === id)) return false;
    this.queue.push({ name, id, data: structuredClone(data), done: false });
    return true;
  }
}
