import { voidedHandJobSchema, type Logger } from '@felt/platform';
import type { MoneyJobSink, OutboxJob } from '../money/ports.js';
import type { TournamentReportSink } from '../ports.js';
import { outboxJobId, type Outbox } from '../table/outbox.js';

/**
 * Sends a table's outbox to the hands queue once the state holding it is checkpointed, in order
 * (docs/dev/money-flows.md §1). A crash before a job is in the queue leaves it in the checkpoint's
 * outbox: the next owner sends it (the job id makes a second copy a no-op), and it sends nothing
 * after it first, so hand N+1 is never queued before hand N.
 */
export class OutboxSender {
  private lastFailed = false;

  constructor(
    private readonly hands: MoneyJobSink,
    private readonly logger: Logger,
    private readonly tableId: string,
    /** A tournament table's director (reports go there, not to the hands queue). */
    private readonly reports?: TournamentReportSink,
  ) {}

  /** The queue refused the last try: the next waits a little. */
  get failed(): boolean {
    return this.lastFailed;
  }

  async flush(outbox: Outbox): Promise<void> {
    for (let item = outbox.peek(); item !== undefined; item = outbox.peek()) {
      try {
        await this.send(item);
      } catch (err) {
        // Kept in the checkpoint's outbox and retried by a timer (or by the next owner).
        this.lastFailed = true;
        this.logger.warn(
          { err, tableId: this.tableId, job: item.kind, id: outboxJobId(item) },
          item.kind === 'tournament_report' ? 'tournament report not delivered' : 'money job enqueue failed',
        );
        return;
      }
      this.lastFailed = false;
      outbox.shift();
    }
  }

  private async send(item: OutboxJob): Promise<void> {
    if (item.kind === 'hand') {
      await this.hands.enqueue(item.job);
      return;
    }
    if (item.kind === 'tournament_report') {
      if (this.reports === undefined) {
        // A worker without tournaments (unit tests of cash tables) has no director to tell: loud.
        this.logger.error({ tableId: this.tableId, handNo: item.job.hand_no }, 'no director link: report dropped');
        return;
      }
      await this.reports.report(item.job);
      return;
    }
    if (item.kind === 'voided') {
      const parsed = voidedHandJobSchema.safeParse(item.job);
      // The void itself is done (the stacks are back); only its record is missing. A record that can
      // never be valid must not hold up the cash-outs queued behind it.
      if (this.hands.voided === undefined || !parsed.success) {
        // A record that does not match the contract is a bug: loud. A sink without voids is a
        // table without Postgres: nothing to record.
        this.logger[parsed.success ? 'warn' : 'error'](
          {
            event: 'void_not_recorded',
            tableId: this.tableId,
            handId: item.job.hand_id,
            invalid: parsed.success ? undefined : parsed.error.message,
          },
          'voided hand not recorded',
        );
        return;
      }
      await this.hands.voided(parsed.data);
      return;
    }
    if (this.hands.cashOut === undefined) {
      // A table without a cash-out queue (no Postgres) has nobody to pay: dropped, loudly.
      this.logger.error({ tableId: this.tableId, id: item.job.request_id }, 'no cash-out queue: dropped');
      return;
    }
    await this.hands.cashOut(item.job);
  }
}
