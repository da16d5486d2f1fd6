import { percentile } from './stats.js';

/** What a play run prints its summary for. */
export interface PlayShape {
  readonly tables: number;
  /** Players in all: tables × players per table. */
  readonly players: number;
}

/**
 * Counters and latency samples of one play run. Hands, actions and latencies count only inside the
 * measured window ({@link measuring}); errors count from the first request to the last.
 */
export class PlayStats {
  /** Set while the measured window is open (after every table is seated and joined, until --duration ends). */
  measuring = false;
  /** Players whose table session is joined (progress only). */
  joined = 0;
  /** Rebuys (top-ups of busted players) the lobby accepted. */
  rebuys = 0;
  /** Lobby requests retried because it was busy hashing passwords (503 busy): not errors. */
  busyRetries = 0;
  /** Live messages a player found lost (prev_table_seq) and resynced: at-most-once delivery, recovered; not errors. */
  losses = 0;
  private windowStart = 0;
  private windowEnd: number | undefined;
  private readonly hands = new Set<string>();
  private acked = 0;
  private readonly ackMs: number[] = [];
  private readonly broadcastMs: number[] = [];
  private readonly errorsByKind = new Map<string, number>();

  /** Opens the measured window at `now` (performance.now() ms). */
  startWindow(now: number): void {
    this.measuring = true;
    this.windowStart = now;
    this.windowEnd = undefined;
  }

  endWindow(now: number): void {
    if (!this.measuring) return;
    this.measuring = false;
    this.windowEnd = now;
  }

  /** Seconds the window was (or has been, at `now`) open. */
  windowSeconds(now: number): number {
    return Math.max(0, ((this.windowEnd ?? now) - this.windowStart) / 1000);
  }

  /** A hand_result seen at any player of the table; each hand counts once. */
  recordHand(tableId: string, handId: string): void {
    if (this.measuring) this.hands.add(`${tableId}/${handId}`);
  }

  /** An action acked `ms` after it was sent. */
  recordAck(ms: number): void {
    this.acked += 1;
    this.ackMs.push(ms);
  }

  /** The table_state that resulted from an action reached another player `ms` after the action was sent. */
  recordBroadcast(ms: number): void {
    this.broadcastMs.push(ms);
  }

  /** Counts one error under a short stable kind (e.g. `ack_timeout`, `ws_closed_1006`). */
  recordError(kind: string): void {
    this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + 1);
  }

  get handCount(): number {
    return this.hands.size;
  }

  get actions(): number {
    return this.acked;
  }

  get errors(): number {
    let total = 0;
    for (const n of this.errorsByKind.values()) total += n;
    return total;
  }

  errorBreakdown(): ReadonlyMap<string, number> {
    return new Map([...this.errorsByKind].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** One progress line for stderr while a run is going; error kinds in brackets when there are any. */
  progressLine(elapsedS: number, shape: PlayShape): string {
    const ack = [...this.ackMs].sort((a, b) => a - b);
    const kinds = [...this.errorBreakdown()].map(([k, n]) => `${k}=${n}`).join(' ');
    return (
      `load: t=${Math.round(elapsedS)}s joined=${this.joined}/${shape.players} hands=${this.handCount} ` +
      `actions=${this.actions} ack_p50_ms=${fmt(percentile(ack, 50))} ack_p99_ms=${fmt(percentile(ack, 99))} ` +
      `rebuys=${this.rebuys} losses=${this.losses} busy_retries=${this.busyRetries} errors=${this.errors}` +
      (kinds ? ` (${kinds})` : '')
    );
  }

  /** The one line a play run prints; fields are stable so that scripts can parse them. */
  summaryLine(shape: PlayShape, now: number): string {
    const ack = [...this.ackMs].sort((a, b) => a - b);
    const broadcast = [...this.broadcastMs].sort((a, b) => a - b);
    const seconds = this.windowSeconds(now);
    return [
      'LOAD',
      `tables=${shape.tables}`,
      `players=${shape.players}`,
      `hands=${this.handCount}`,
      `actions=${this.actions}`,
      `hands_per_s=${seconds > 0 ? (this.handCount / seconds).toFixed(2) : 'na'}`,
      `ack_p50_ms=${fmt(percentile(ack, 50))}`,
      `ack_p99_ms=${fmt(percentile(ack, 99))}`,
      `broadcast_p50_ms=${fmt(percentile(broadcast, 50))}`,
      `broadcast_p99_ms=${fmt(percentile(broadcast, 99))}`,
      `errors=${this.errors}`,
    ].join(' ');
  }
}

function fmt(v: number | undefined): string {
  return v === undefined ? 'na' : v.toFixed(1);
}
