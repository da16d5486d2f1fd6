import type { CompletedHandJob } from '@felt/platform';
import type { MoneyJobSink } from './ports.js';

/** Hands kept per table at most; the oldest goes first (the persister that far behind has a bigger problem). */
export const UNCONFIRMED_PER_TABLE = 256;

/**
 * The completed hands this worker put in the hands queue and the persister has not yet confirmed
 * settled (`P persist-outcomes`: written, duplicate or superseded), and those a table still owed the
 * queue when it stopped here (TableDirectory keepOwedHands), per table, in memory.
 *
 * The queue lives in Redis. When Redis loses its data (a restart without persistence, a failover to
 * a replica that lagged), these jobs are gone from it, and so is the table's checkpoint: the table is
 * rebuilt from the room rows, which do not have these hands. The directory sends them again before
 * the table deals on and waits for the persister to write them (the job id is the hand id, and the
 * persister writes a hand once: a copy is a no-op), so no completed hand is lost while the worker that
 * played it lives.
 */
export class UnconfirmedHands {
  /** Per table, by hand id, in the order sent (hand order). */
  private readonly byTable = new Map<string, Map<string, CompletedHandJob>>();

  constructor(private readonly maxPerTable = UNCONFIRMED_PER_TABLE) {}

  /** A hand job is in the queue, or owed to it by a table that stopped here. */
  sent(job: CompletedHandJob): void {
    let jobs = this.byTable.get(job.room_id);
    if (jobs === undefined) {
      jobs = new Map();
      this.byTable.set(job.room_id, jobs);
    }
    jobs.set(job.hand_id, job);
    while (jobs.size > this.maxPerTable) jobs.delete(jobs.keys().next().value!);
  }

  /** The persister wrote the hand (or had it already, or refused it as superseded). */
  confirmed(tableId: string, handId: string): void {
    const jobs = this.byTable.get(tableId);
    if (jobs === undefined) return;
    jobs.delete(handId);
    if (jobs.size === 0) this.byTable.delete(tableId);
  }

  /**
   * The hands of the table the room rows do not hold yet (`persistedHandNo`: their last hand), in hand
   * order; the ones the rows hold are forgotten (their outcome may never have been heard).
   */
  pendingAfter(tableId: string, persistedHandNo: number): CompletedHandJob[] {
    const jobs = this.byTable.get(tableId);
    if (jobs === undefined) return [];
    for (const [id, job] of jobs) if (job.hand_no <= persistedHandNo) jobs.delete(id);
    if (jobs.size === 0) this.byTable.delete(tableId);
    return [...jobs.values()].sort((a, b) => a.hand_no - b.hand_no);
  }

  /** Hands kept, over every table. */
  get size(): number {
    let n = 0;
    for (const jobs of this.byTable.values()) n += jobs.size;
    return n;
  }
}

/** `sink` with its completed-hand enqueue replaced by `enqueue`; every other job goes through as it is. */
export function withHandEnqueue(sink: MoneyJobSink, enqueue: MoneyJobSink['enqueue']): MoneyJobSink {
  return {
    enqueue,
    ...(sink.cashOut ? { cashOut: (job) => sink.cashOut!(job) } : {}),
    ...(sink.voided ? { voided: (job) => sink.voided!(job) } : {}),
    ...(sink.pendingHandsOf ? { pendingHandsOf: (roomId) => sink.pendingHandsOf!(roomId) } : {}),
  };
}

/** The sink as tables see it: each hand job, once in the queue, is kept in `unconfirmed` too. */
export function rememberingSentHands(sink: MoneyJobSink, unconfirmed: UnconfirmedHands): MoneyJobSink {
  return withHandEnqueue(sink, async (job) => {
    await sink.enqueue(job);
    unconfirmed.sent(job);
  });
}
