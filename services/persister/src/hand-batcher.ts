import type { HandWrite, HandWriteOutcome } from './money-store.js';

export interface HandBatcherOptions {
  /** Hands written together at most. */
  readonly maxSize: number;
  /** How long the first hand of a batch waits for others before the batch is written. */
  readonly waitMs: number;
  /** Writes the hand jobs and says, in the same order, what became of each. */
  readonly write: (jobs: readonly unknown[]) => Promise<readonly HandWriteOutcome[]>;
}

interface Waiting {
  readonly job: unknown;
  readonly resolve: (w: HandWrite) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Gathers the hand jobs the queue hands the persister at about the same time and writes them in
 * one call (one transaction for the plain ones: persistHands in @felt/db), so that a backlog costs
 * a few statements per batch rather than per hand. Each job still gets its own outcome: its
 * promise settles as persistHand's call for it alone would have.
 */
export class HandBatcher {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: HandBatcherOptions) {}

  submit(job: unknown): Promise<HandWrite> {
    return new Promise<HandWrite>((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      if (this.waiting.length >= this.o.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.o.waitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.o.write(batch.map((w) => w.job)).then(
      (outcomes) => {
        batch.forEach((w, i) => {
          const out = outcomes[i];
          if (!out) w.reject(new Error('the batch gave no outcome for this hand'));
          else if (out.ok) w.resolve(out.write);
          else w.reject(out.error);
        });
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
