/**
 * Nearest-rank percentile of an ascending-sorted sample: the smallest value with at least p% of the
 * sample at or below it. Undefined for an empty sample, so "no data" never prints as a latency.
 */
export function percentile(sortedAsc: readonly number[], p: number): number | undefined {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const n = sortedAsc.length;
  if (n === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  return sortedAsc[rank - 1];
}

/** Counters and round-trip samples of one run; every virtual user writes into the same instance. */
export class LoadStats {
  connected = 0;
  /** Users whose join_table was answered with the table's snapshot (progress only; not in the summary). */
  joined = 0;
  msgsIn = 0;
  msgsOut = 0;
  private readonly rtts: number[] = [];
  private readonly errorsByKind = new Map<string, number>();

  recordRtt(ms: number): void {
    this.rtts.push(ms);
  }

  /** Counts one error under a short stable kind (e.g. `signup_http_409`, `ping_timeout`). */
  recordError(kind: string): void {
    this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + 1);
  }

  get errors(): number {
    let total = 0;
    for (const n of this.errorsByKind.values()) total += n;
    return total;
  }

  /** One progress line for stderr while a run is going. */
  progressLine(elapsedS: number): string {
    return `load: t=${Math.round(elapsedS)}s connected=${this.connected} joined=${this.joined} pings=${this.rtts.length} errors=${this.errors}`;
  }

  get rttCount(): number {
    return this.rtts.length;
  }

  errorBreakdown(): ReadonlyMap<string, number> {
    return new Map([...this.errorsByKind].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The one line a run prints; fields are stable so that scripts can parse them. */
  summaryLine(users: number): string {
    const sorted = [...this.rtts].sort((a, b) => a - b);
    const fmt = (v: number | undefined): string => (v === undefined ? 'na' : v.toFixed(1));
    return [
      'LOAD',
      `users=${users}`,
      `connected=${this.connected}`,
      `msgs_in=${this.msgsIn}`,
      `msgs_out=${this.msgsOut}`,
      `errors=${this.errors}`,
      `p50_rtt_ms=${fmt(percentile(sorted, 50))}`,
      `p99_rtt_ms=${fmt(percentile(sorted, 99))}`,
    ].join(' ');
  }
}
