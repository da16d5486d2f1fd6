import type { CompletedHandJob } from '@felt/platform';
import type { OutboxJob } from '../money/ports.js';

/** The id the hands queue knows a job by (a re-sent job with the same id is a no-op there). */
export function outboxJobId(item: OutboxJob): string {
  if (item.kind === 'tournament_report') return `report-${item.job.table_id}-${item.job.hand_no}`;
  return item.kind === 'cash_out' ? item.job.request_id : item.job.hand_id;
}

/**
 * Jobs for the hands queue, oldest first, kept in the checkpoint until the queue has them
 * (docs/dev/money-flows.md §1): the actor sends the first, and removes it once it is in the queue.
 */
export class Outbox {
  private readonly jobs: OutboxJob[];

  /** Older checkpoints held bare completed-hand jobs. */
  constructor(json: readonly (OutboxJob | CompletedHandJob)[] = []) {
    this.jobs = json.map((j) => ('kind' in j ? j : { kind: 'hand', job: j }));
  }

  get length(): number {
    return this.jobs.length;
  }

  /** The oldest job, next to send. */
  peek(): OutboxJob | undefined {
    return this.jobs[0];
  }

  /** The oldest job is in the queue: it is forgotten. */
  shift(): OutboxJob | undefined {
    return this.jobs.shift();
  }

  push(job: OutboxJob): void {
    this.jobs.push(job);
  }

  toJSON(): OutboxJob[] {
    return [...this.jobs];
  }
}
