import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** How many finished spans FELT_TRACE_MEMORY keeps: the newest, so a long run cannot grow without end. */
export const RECENT_SPANS_KEPT = 20_000;

/**
 * The in-memory exporter of FELT_TRACE_MEMORY (tests, GET /debug/spans), keeping only the newest
 * `keep` spans: Redis and Postgres calls are traced too, and a long chaos run would otherwise hold
 * every one of them.
 */
export class RecentSpansExporter implements SpanExporter {
  private spans: ReadableSpan[] = [];

  constructor(private readonly keep = RECENT_SPANS_KEPT) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.spans.push(...spans);
    const excess = this.spans.length - this.keep;
    // Trimmed in chunks, so that a full buffer does not copy itself on every span.
    if (excess > this.keep / 10) this.spans = this.spans.slice(excess);
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  /** The newest finished spans, oldest first (at most `keep`). */
  getFinishedSpans(): ReadableSpan[] {
    const excess = this.spans.length - this.keep;
    return excess > 0 ? this.spans.slice(excess) : [...this.spans];
  }

  shutdown(): Promise<void> {
    this.spans = [];
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}
