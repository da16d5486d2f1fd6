// The actor's clock as the table shows it. The server sends absolute times (deadline, server ms) that
// never move on reconnect or resync, so a reloaded page shows the same countdown: the client only
// needs its offset from the server clock, learned from each snapshot's `ts`.

export const ClockPhase = {
  /** The action clock is running. */
  ACTION: 'action',
  /** The action clock ran out; the time bank is being used. */
  BANK: 'bank',
  /** Both are used up: the table is about to act for the player. */
  EXPIRED: 'expired',
} as const;
export type ClockPhase = (typeof ClockPhase)[keyof typeof ClockPhase];

export interface ClockReading {
  readonly phase: ClockPhase;
  /** Time left in the current phase, ms. */
  readonly remainingMs: number;
  /** Time bank left, ms (all of it while the action clock still runs). */
  readonly bankMs: number;
  /** Share of the current phase left, 0..1, for the ring around the seat. */
  readonly fraction: number;
}

/**
 * Reads the clock at `serverNow`. `actionMs` is the room's action clock (for the ring's scale);
 * the clock acts at deadline + timeBankMs.
 */
export function readClock(deadline: number, timeBankMs: number, serverNow: number, actionMs: number): ClockReading {
  const actionLeft = deadline - serverNow;
  if (actionLeft > 0) {
    return {
      phase: ClockPhase.ACTION,
      remainingMs: actionLeft,
      bankMs: timeBankMs,
      fraction: actionMs > 0 ? Math.min(1, actionLeft / actionMs) : 1,
    };
  }
  const bankLeft = timeBankMs + actionLeft;
  if (bankLeft > 0) {
    return {
      phase: ClockPhase.BANK,
      remainingMs: bankLeft,
      bankMs: bankLeft,
      fraction: timeBankMs > 0 ? bankLeft / timeBankMs : 0,
    };
  }
  return { phase: ClockPhase.EXPIRED, remainingMs: 0, bankMs: 0, fraction: 0 };
}

/**
 * Tracks server time from snapshots. Each sample is `ts - localNow` at receipt; the largest one is
 * the one with the least network delay in it (delay only ever makes a sample smaller), so it is kept,
 * with a slow decay so that a local clock change is followed eventually.
 */
export class ServerClock {
  private offset: number | null = null;

  constructor(private readonly localNow: () => number = () => Date.now()) {}

  sample(serverTs: number, receivedAt = this.localNow()): void {
    const o = serverTs - receivedAt;
    // Decay toward new samples by 1 ms per sample so a stale maximum does not stick forever.
    this.offset = this.offset === null ? o : Math.max(o, this.offset - 1);
  }

  /** Current server time, ms since the epoch (local time until the first sample). */
  now(): number {
    return this.localNow() + (this.offset ?? 0);
  }

  get offsetMs(): number {
    return this.offset ?? 0;
  }
}
