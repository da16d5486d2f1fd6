import type { TimerHandle, Timers } from '../../src/sdk/timers.js';

interface Pending {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

/** A manual clock: nothing fires until `advance` moves time past it. */
export class FakeTimers implements Timers {
  private time = 1_000_000;
  private nextId = 1;
  private pending: Pending[] = [];
  /** Every delay ever scheduled, in order. */
  readonly scheduled: number[] = [];

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.scheduled.push(ms);
    this.pending.push({ id, at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Moves the clock forward, firing due timers in order (including ones they schedule). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.pending.filter((p) => p.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.pending = this.pending.filter((p) => p !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
  }
}
