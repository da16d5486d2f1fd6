import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const preload = fileURLToPath(new URL('./preload.ts', import.meta.url));
const index = fileURLToPath(new URL('../index.ts', import.meta.url));

/** Runs a fresh Node process that starts telemetry, opens one span, logs inside it and reports. */
function probe(env: Record<string, string>) {
  const script = `
    import { startTelemetry } from ${JSON.stringify(preload)};
    startTelemetry('probe');
    const { trace } = await import('@opentelemetry/api');
    const { createLogger, debugSpans, injectTraceContext, shutdownTelemetry, telemetryHandle } = await import(${JSON.stringify(index)});
    const log = createLogger('probe');
    let carrier;
    trace.getTracer('t').startActiveSpan('probe-span', (span) => {
      log.info({ event: 'inside' }, 'inside');
      carrier = injectTraceContext();
      span.end();
    });
    // The memory exporter gets a span once the SDK's resource attributes are resolved: wait for it.
    const provider = trace.getTracerProvider();
    await (provider.getDelegate?.() ?? provider).forceFlush?.();
    process.stdout.write('RESULT ' + JSON.stringify({ carrier, spans: debugSpans(), instrumented: telemetryHandle().instrumented }) + '\\n');
    await shutdownTelemetry();
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', OTEL_ESM_HOOK: '0', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.split('\n');
  const log = JSON.parse(lines.find((l) => l.includes('"event":"inside"'))!) as Record<string, unknown>;
  const result = JSON.parse(lines.find((l) => l.startsWith('RESULT '))!.slice(7)) as {
    carrier: Record<string, string>;
    spans: { name: string; service: string; traceId: string }[] | null;
    instrumented: string[];
  };
  return { log, ...result };
}

describe('telemetry preload', () => {
  it('keeps trace ids in logs and propagation working even with no exporter configured', () => {
    const { log, carrier, spans, instrumented } = probe({});
    expect(log.trace_id).toMatch(/^[0-9a-f]{32}$/);
    // Redis and Postgres commands are not wrapped: their spans could go nowhere.
    expect(instrumented).toEqual(['grpc', 'http']);
    expect(log.service).toBe('probe');
    // Nothing exports, so nothing is recorded: the context goes on unsampled (flags 00).
    expect(carrier.traceparent).toBe(`00-${String(log.trace_id)}-${String(log.span_id)}-00`);
    expect(spans).toBeNull();
  });

  it('samples with no exporter when OTEL_TRACES_SAMPLER asks for it', () => {
    const { log, carrier } = probe({ OTEL_TRACES_SAMPLER: 'always_on' });
    expect(carrier.traceparent).toBe(`00-${String(log.trace_id)}-${String(log.span_id)}-01`);
  });

  it('keeps finished spans in memory with FELT_TRACE_MEMORY=1', () => {
    const { log, spans, instrumented } = probe({ FELT_TRACE_MEMORY: '1' });
    expect(instrumented).toEqual(['grpc', 'http', 'ioredis', 'pg']);
    expect(spans).toEqual([expect.objectContaining({ name: 'probe-span', service: 'probe', traceId: log.trace_id })]);
  });
});
