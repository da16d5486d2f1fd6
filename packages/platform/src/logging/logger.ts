import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Field names that may hold secrets or private game data. Logs must never carry cards, seeds or
 * tokens (docs/operations.md, "Logs"), so these are censored wherever a caller passes them by mistake.
 */
const SECRET_FIELDS = [
  'token',
  'cookie',
  'authorization',
  'password',
  'secret',
  'seed',
  'server_seed',
  'client_seed',
  'deck_seed',
  'deck',
  'cards',
  'hole_cards',
  'turn_token',
];

const redactPaths = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers.cookie',
  'req.headers.cookie',
  'req.headers.authorization',
];

export interface CreateLoggerOptions {
  readonly level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them back. */
  readonly destination?: NodeJS.WritableStream;
}

/**
 * A pino JSON logger whose every line carries `service` and, inside a span, `trace_id` and
 * `span_id`, so that logs join traces without callers threading ids around.
 */
export function createLogger(service: string, options: CreateLoggerOptions = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service, pid: process.pid },
    redact: { paths: redactPaths, censor: '[redacted]' },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const ctx = span.spanContext();
      return { trace_id: ctx.traceId, span_id: ctx.spanId };
    },
  };
  return options.destination ? pino(opts, options.destination) : pino(opts);
}
