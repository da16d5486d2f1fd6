// Loaded before the service itself (`node --import ./dist/telemetry.js dist/main.js`), through a
// one-line telemetry.ts in each service. Importing this module starts nothing: startTelemetry does.
import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NoopSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { TELEMETRY_GLOBAL, type TelemetryHandle } from './handle.js';
import { RecentSpansExporter } from './recent-spans.js';

export interface TelemetryOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Starts the OpenTelemetry NodeSDK for one service. Must run before @grpc/grpc-js or node:http are
 * imported by the service: in an ESM app the instrumentations only see modules loaded through the
 * import-in-the-middle hook registered here.
 */
export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): TelemetryHandle {
  const env = options.env ?? process.env;
  const existing = (globalThis as Record<symbol, TelemetryHandle | undefined>)[TELEMETRY_GLOBAL];
  if (existing) return existing;

  const spanProcessors: SpanProcessor[] = [];
  let memoryExporter: RecentSpansExporter | undefined;
  if (env.FELT_TRACE_MEMORY === '1' || env.FELT_TRACE_MEMORY === 'true') {
    memoryExporter = new RecentSpansExporter();
    spanProcessors.push(new SimpleSpanProcessor(memoryExporter));
  }
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (endpoint) {
    // OTLPTraceExporter reads OTEL_EXPORTER_OTLP_ENDPOINT itself and appends /v1/traces.
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  }

  // With no exporter the SDK would register no tracer provider at all, and spans (and the trace ids
  // in every log line) would vanish; a no-op processor keeps ids and propagation, exporting nothing.
  // Nothing records then either, unless OTEL_TRACES_SAMPLER says otherwise: the SDK's default
  // (parentbased_always_on) would build every span in full only to drop it, about 5% of a table
  // worker's CPU under play (docs/architecture.md, "Where a hand's CPU goes"). Unsampled spans
  // still carry trace ids, into the logs and across the hops.
  const exportsNothing = spanProcessors.length === 0;
  if (exportsNothing) spanProcessors.push(new NoopSpanProcessor());
  const sampler =
    exportsNothing && !env.OTEL_TRACES_SAMPLER?.trim()
      ? new ParentBasedSampler({ root: new AlwaysOffSampler() })
      : undefined;

  // Redis and Postgres calls carry no trace context: their spans are only ever seen in an exporter.
  // With none, the instrumentations would wrap every command for nothing (about 3 % of a table
  // worker's CPU under play, docs/architecture.md), so they are left out.
  const dataSpans = !exportsNothing;
  const instrumented = ['grpc', 'http', ...(dataSpans ? ['ioredis', 'pg'] : [])];

  if (env.OTEL_ESM_HOOK !== '0') {
    // Limit the hook to what we instrument: wrapping every module costs start-up time and has broken
    // native addons elsewhere.
    const include = ['@grpc/grpc-js', 'http', 'node:http', 'https', 'node:https'];
    if (dataSpans) include.push('ioredis', 'pg', 'pg-pool');
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });
  }

  const sdk = new NodeSDK({
    serviceName,
    spanProcessors,
    ...(sampler ? { sampler } : {}),
    // Felt's metrics are Prometheus (/metrics); without this the SDK would start an OTLP metric
    // exporter posting to localhost every 60 s.
    metricReaders: [],
    instrumentations: [
      new GrpcInstrumentation(),
      new HttpInstrumentation({
        // Scrapes and probes would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(metrics|healthz|readyz|debug\/)/.test(req.url ?? ''),
      }),
      // Redis and Postgres calls inside a traced operation (a player's action: the checkpoint, the
      // publish, the hand job; the persister's writes). Background work with no span (lease renewals,
      // heartbeats, scrapes) makes none, or they would drown the traces that matter.
      ...(dataSpans
        ? [new IORedisInstrumentation({ requireParentSpan: true }), new PgInstrumentation({ requireParentSpan: true })]
        : []),
    ],
  });
  sdk.start();

  const handle: TelemetryHandle = {
    serviceName,
    memoryExporter,
    instrumented,
    shutdown: () => sdk.shutdown(),
  };
  (globalThis as Record<symbol, TelemetryHandle | undefined>)[TELEMETRY_GLOBAL] = handle;
  return handle;
}
