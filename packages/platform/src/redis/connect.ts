import { Redis, type RedisOptions } from 'ioredis';

export { Redis } from 'ioredis';

export interface CreateRedisOptions {
  /** Shown in CLIENT LIST; helps when reading a busy Redis. */
  readonly name: string;
  /**
   * BullMQ needs `null` (block until Redis is back). Request/response paths such as the gateway's
   * revocation check want a bound, so that an outage turns into a refusal instead of a hang.
   */
  readonly maxRetriesPerRequest?: number | null;
}

export function createRedis(url: string, options: CreateRedisOptions): Redis {
  const redisOptions: RedisOptions = {
    connectionName: options.name,
    maxRetriesPerRequest: options.maxRetriesPerRequest === undefined ? 2 : options.maxRetriesPerRequest,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    enableReadyCheck: true,
  };
  return new Redis(url, redisOptions);
}

/** QUIT, falling back to a hard disconnect when Redis does not answer. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await Promise.race([
      redis.quit(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('quit timeout')), 1000).unref()),
    ]);
  } catch {
    redis.disconnect();
  }
}
