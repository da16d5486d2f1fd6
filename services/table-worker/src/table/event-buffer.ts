import type { TableEvent } from '@felt/protocol';

/** Who may see a buffered event: everyone at the table, or one user only (their private events). */
export type BufferAudience = { readonly kind: 'all' } | { readonly kind: 'user'; readonly userId: string };

export interface BufferedEvent {
  readonly tableSeq: number;
  readonly audience: BufferAudience;
  /** The event as sent, without prev_table_seq (that belongs to one recipient's stream). */
  readonly message: TableEvent;
}

/** Events kept per table for resync_response (docs/protocol.md: 512). */
export const EVENT_BUFFER_SIZE = 512;

/**
 * The bounded per-table event buffer that serves resync_response. Each entry remembers its
 * audience, so a replay carries only what that recipient was allowed to see.
 */
export interface EventBufferJSON {
  readonly events: readonly BufferedEvent[];
  /** The highest table_seq dropped to keep the bound (0: none yet). */
  readonly evictedThrough: number;
}

export class EventBuffer {
  /** The kept events are `all[head..]`; those before `head` are dropped, removed a bound's worth at once. */
  private all: BufferedEvent[];
  private head = 0;
  private evictedThrough: number;

  constructor(
    data: EventBufferJSON = { events: [], evictedThrough: 0 },
    private readonly size = EVENT_BUFFER_SIZE,
  ) {
    this.all = [...data.events];
    this.evictedThrough = data.evictedThrough;
    this.trim();
  }

  push(event: BufferedEvent): void {
    this.all.push(event);
    this.trim();
  }

  /** The kept events, oldest first. */
  private get events(): BufferedEvent[] {
    this.compact();
    return this.all;
  }

  /** Removes the dropped events. */
  private compact(): void {
    if (this.head === 0) return;
    this.all = this.all.slice(this.head);
    this.head = 0;
  }

  /**
   * Drops the oldest past the bound. Moving the array down by one at each event (splice) was about 1 %
   * of a busy worker, so dropped events are only skipped, and removed once a bound's worth of them is.
   */
  private trim(): void {
    const over = this.all.length - this.head - this.size;
    if (over <= 0) return;
    this.head += over;
    this.evictedThrough = Math.max(this.evictedThrough, this.all[this.head - 1]!.tableSeq);
    if (this.head >= this.size) this.compact();
  }

  /**
   * Events after `fromTableSeq` visible to `viewer` (a user id, or null for a spectator), in
   * table_seq order, and whether the buffer still held everything after `fromTableSeq`.
   */
  since(fromTableSeq: number, viewer: string | null): { events: TableEvent[]; complete: boolean } {
    const complete = this.evictedThrough <= fromTableSeq;
    const events = this.events
      .filter((e) => e.tableSeq > fromTableSeq && visible(e.audience, viewer))
      .map((e) => e.message);
    return { events, complete };
  }

  /**
   * The last `hand_voided` when no hand has finished since: what a connection attaching now must
   * still be told (it may have been away, or on its way from the worker that lost the hand; the
   * rebuilt table may already be dealing the next one).
   */
  pendingVoid(): TableEvent | null {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const { message: m, audience } = this.events[i]!;
      // The announcement to everyone, not a copy told again to one player at a later table_seq.
      if (m.type === 'hand_voided' && audience.kind === 'all') return m;
      if (m.type === 'hand_result') return null;
    }
    return null;
  }

  get length(): number {
    return this.all.length - this.head;
  }

  toJSON(): EventBufferJSON {
    return { events: [...this.events], evictedThrough: this.evictedThrough };
  }
}

function visible(audience: BufferAudience, viewer: string | null): boolean {
  return audience.kind === 'all' || (viewer !== null && audience.userId === viewer);
}
