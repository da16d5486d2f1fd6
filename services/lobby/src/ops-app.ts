import type { PrismaClient } from '@felt/db';
import { debugSpans, type Redis, type Registry } from '@felt/platform';
import { Hono } from 'hono';
import { ApiErrorCode } from './errors.js';
import { errorBody } from './routes/http.js';

/**
 * The operations port (LOBBY_OPS_PORT): readiness, metrics and debug captures, which the Ingress
 * never routes. The public app keeps only /healthz, a liveness answer that says nothing.
 */
export function createOpsApp(deps: {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  readonly metrics: Registry;
}): Hono {
  const { metrics } = deps;
  const ops = new Hono();
  ops.get('/healthz', (c) => c.json({ ok: true }));
  ops.get('/readyz', async (c) => {
    const within = <T>(p: Promise<T>): Promise<boolean> =>
      Promise.race([
        p.then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
      ]);
    const checks = {
      postgres: await within(deps.prisma.$queryRaw`SELECT 1`),
      redis: await within(deps.redis.ping()),
    };
    const ready = checks.postgres && checks.redis;
    return c.json({ ready, checks }, ready ? 200 : 503);
  });
  ops.get('/metrics', async (c) => c.body(await metrics.metrics(), 200, { 'content-type': metrics.contentType }));
  ops.get('/debug/spans', (c) => {
    const spans = debugSpans();
    return spans ? c.json({ spans }) : c.json(errorBody(ApiErrorCode.NOT_FOUND, 'span capture is off'), 404);
  });
  return ops;
}
