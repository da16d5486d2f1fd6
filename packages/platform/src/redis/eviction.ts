import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';

/**
 * The Redis the workers and the persister share evicts keys under memory pressure: a lease, an
 * epoch counter, a checkpoint or a queued hand could vanish without a trace, and with them the
 * fence and the money state. Felt refuses to start against it (docs/operations.md, "Redis").
 */
export class EvictingRedisError extends Error {
  override readonly name = 'EvictingRedisError';
  readonly code = 'evicting_redis';
  constructor(readonly policy: string) {
    super(
      `Redis maxmemory-policy is "${policy}": it may evict leases, checkpoints and queued hands. ` +
        'Set maxmemory-policy noeviction (CONFIG SET maxmemory-policy noeviction, or in redis.conf) and start again.',
    );
  }
}

/**
 * Reads `maxmemory-policy` and throws EvictingRedisError unless it is `noeviction`. Resolves
 * `noeviction`, or `unknown` when the server does not let this client read its configuration (a
 * managed Redis that renames or forbids CONFIG): the operator must then make sure of it.
 */
export async function requireNoEviction(redis: Redis): Promise<'noeviction' | 'unknown'> {
  let reply: unknown;
  try {
    reply = await redis.config('GET', 'maxmemory-policy');
  } catch {
    return 'unknown';
  }
  const pair = Array.isArray(reply) ? (reply as unknown[]) : [];
  const policy = typeof pair[1] === 'string' ? pair[1] : undefined;
  if (policy === undefined) return 'unknown';
  if (policy !== 'noeviction') throw new EvictingRedisError(policy);
  return 'noeviction';
}

/**
 * At a service's start: exits with status 1 and one clear line when Redis evicts keys; warns when
 * its policy cannot be read (the operator must make sure of it); says nothing when it is right.
 */
export async function refuseEvictingRedis(
  redis: Redis,
  logger: Pick<Logger, 'warn' | 'fatal'>,
  exit: (code: number) => never = (code) => process.exit(code),
): Promise<void> {
  try {
    if ((await requireNoEviction(redis)) === 'unknown') {
      logger.warn(
        { event: 'redis_policy_unknown' },
        'could not read Redis maxmemory-policy (CONFIG is not allowed here): make sure it is noeviction',
      );
    }
  } catch (err) {
    if (!(err instanceof EvictingRedisError)) throw err;
    logger.fatal({ event: 'redis_evicting', policy: err.policy }, err.message);
    exit(1);
  }
}
