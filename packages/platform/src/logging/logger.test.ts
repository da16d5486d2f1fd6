import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough } from 'node:stream';
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager, type SpanContext } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { stream, lines };
}

/** The NodeSDK installs an AsyncLocalStorage context manager; the test installs a minimal one. */
class TestContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.als.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

describe('createLogger', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new TestContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it('writes JSON with the service name and the active span ids', async () => {
    const { stream, lines } = capture();
    const log = createLogger('gateway', { destination: stream, level: 'info' });
    const spanContext: SpanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
    };
    // A non-recording span is enough: the mixin only reads the active span's context.
    context.with(trace.setSpan(context.active(), trace.wrapSpanContext(spanContext)), () => {
      log.info({ event: 'ready', port: 1 }, 'ready');
    });
    log.info('outside');
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines[0]).toMatchObject({
      service: 'gateway',
      event: 'ready',
      port: 1,
      trace_id: spanContext.traceId,
      span_id: spanContext.spanId,
    });
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('censors tokens, seeds and cards', async () => {
    const { stream, lines } = capture();
    const log = createLogger('worker', { destination: stream });
    log.info({ token: 'abc', seed: 'def', player: { cards: ['As', 'Kd'], turn_token: 't' } }, 'x');
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('abc');
    expect(text).not.toContain('def');
    expect(text).not.toContain('As');
    expect(text).toContain('[redacted]');
  });
});
