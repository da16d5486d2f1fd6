import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RecentSpansExporter } from './recent-spans.js';

/**
 * The preload and the service's own modules are separate module graphs as far as load order goes,
 * so the SDK handle travels through a global symbol rather than a module export.
 */
export const TELEMETRY_GLOBAL = Symbol.for('felt.telemetry');

export interface TelemetryHandle {
  readonly serviceName: string;
  /** Present when FELT_TRACE_MEMORY=1. */
  readonly memoryExporter: RecentSpansExporter | undefined;
  /** The libraries whose calls make spans: grpc and http always; ioredis and pg when spans are exported. */
  readonly instrumented: readonly string[];
  shutdown(): Promise<void>;
}

/** The span fields tests assert on, as served at GET /debug/spans. */
export interface DebugSpan {
  readonly service: string;
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly startTimeUnixNano: string;
  readonly attributes: Record<string, unknown>;
}

export function telemetryHandle(): TelemetryHandle | undefined {
  return (globalThis as Record<symbol, TelemetryHandle | undefined>)[TELEMETRY_GLOBAL];
}

/** The finished spans kept in memory, or null when FELT_TRACE_MEMORY is off. */
export function debugSpans(): DebugSpan[] | null {
  const handle = telemetryHandle();
  if (!handle?.memoryExporter) return null;
  return handle.memoryExporter.getFinishedSpans().map((s: ReadableSpan) => ({
    service: handle.serviceName,
    name: s.name,
    kind: s.kind,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? null,
    startTimeUnixNano: (BigInt(s.startTime[0]) * 1_000_000_000n + BigInt(s.startTime[1])).toString(),
    attributes: { ...s.attributes },
  }));
}

/** Flushes and stops the SDK if the preload started one. */
export async function shutdownTelemetry(): Promise<void> {
  await telemetryHandle()?.shutdown();
}
