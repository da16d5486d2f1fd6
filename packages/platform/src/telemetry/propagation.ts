import { context, propagation, type Context } from '@opentelemetry/api';

/**
 * W3C trace context of `ctx` as a plain map, for carrying per request over a long-lived stream,
 * where the stream's own gRPC metadata was sent once, long before this request.
 */
export function injectTraceContext(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context a remote caller injected with {@link injectTraceContext}; the active one if none. */
export function extractTraceContext(carrier: Readonly<Record<string, string>>): Context {
  return propagation.extract(context.active(), carrier);
}
