/** How waiting for a table_state ended when none had arrived yet. */
export const ArrivalMiss = {
  /** None came within the timeout. */
  TIMEOUT: 'timeout',
  /** The run ended (the player's client closed) first. */
  CANCELLED: 'cancelled',
} as const;
export type ArrivalMiss = (typeof ArrivalMiss)[keyof typeof ArrivalMiss];

interface Waiter {
  readonly seq: number;
  readonly resolve: (result: number | ArrivalMiss) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * When each table_state reached one player: the observer side of the broadcast latency. An action's
 * ack names the table_seq of its batch (`at_table_seq`); the batch's table_state reaches the other
 * players before or after that ack reaches the actor, so arrivals are kept for a while and looked up.
 */
export class StateArrivals {
  private readonly recent: { seq: number; at: number }[] = [];
  private readonly waiters = new Set<Waiter>();

  /** `keep`: arrivals remembered; far more than the table_states one action's ack can lag behind. */
  constructor(private readonly keep = 512) {}

  /** A table_state with `seq` arrived at `at` (the caller's clock, ms). */
  record(seq: number, at: number): void {
    this.recent.push({ seq, at });
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
    for (const w of this.waiters) {
      if (seq < w.seq) continue;
      clearTimeout(w.timer);
      this.waiters.delete(w);
      w.resolve(at);
    }
  }

  /**
   * When the first table_state with table_seq ≥ `seq` arrived: at once if one has, else when one
   * does, or a miss after `timeoutMs` or on {@link cancel}.
   */
  arrivalOf(seq: number, timeoutMs: number): Promise<number | ArrivalMiss> {
    const seen = this.recent.find((r) => r.seq >= seq);
    if (seen) return Promise.resolve(seen.at);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        seq,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(ArrivalMiss.TIMEOUT);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait with {@link ArrivalMiss.CANCELLED}. */
  cancel(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(ArrivalMiss.CANCELLED);
    }
    this.waiters.clear();
  }
}
