import type { Logger } from 'pino';

export interface ShutdownOptions {
  readonly logger: Logger;
  /** After this long, exit anyway with status 1. */
  readonly graceMs?: number;
  readonly signals?: readonly NodeJS.Signals[];
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0 (1 if it failed or overran the grace period).
 * A second signal during shutdown is ignored: the grace timer is the backstop.
 */
export function onShutdown(stop: (signal: NodeJS.Signals) => Promise<void>, options: ShutdownOptions): void {
  const { logger, graceMs = 10_000, signals = ['SIGTERM', 'SIGINT'] } = options;
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'shutdown', signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ event: 'shutdown_timeout', graceMs }, 'shutdown overran its grace period');
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop(signal).then(
      () => {
        logger.info({ event: 'stopped' }, 'stopped');
        logger.flush();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ event: 'shutdown_failed', err }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, handler);
}
