import { randomBytes } from 'node:crypto';
import { bullmqPrefix, closeRedis, createRedis, type Redis } from '@felt/platform';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The real Redis for one conformance test file: each adapter instance gets a fresh key prefix, and
 * every key under them is deleted at the end.
 */
export class RedisNamespace {
  readonly redis: Redis;
  private readonly prefixes: string[] = [];

  constructor(name: string) {
    // maxRetriesPerRequest: null, as BullMQ requires of its connections.
    this.redis = createRedis(REDIS_URL, { name, maxRetriesPerRequest: null });
  }

  /** A prefix no other test uses (FELT_REDIS_PREFIX of one adapter under test). */
  prefix(): string {
    const p = `tconf${randomBytes(4).toString('hex')}:`;
    this.prefixes.push(p);
    return p;
  }

  async close(): Promise<void> {
    for (const p of this.prefixes) {
      // BullMQ's keys start with the prefix less its colon, so this pattern covers them too.
      const keys = await this.redis.keys(`${bullmqPrefix(p)}*`);
      if (keys.length > 0) await this.redis.del(...keys);
    }
    await closeRedis(this.redis);
  }
}
