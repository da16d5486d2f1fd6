import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokedSessionKey } from './auth/session-token.js';
import { closeRedis, createRedis, type Redis } from './redis/connect.js';
import { revocationsLoadedKey, revocationState, revocationStates } from './revocations.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('revocation state (real Redis)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;

  beforeAll(() => {
    redis = createRedis(REDIS_URL, { name: 'revocations-test' });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
  });

  it('is unknown without the completeness marker, unless the session is listed as revoked', async () => {
    await redis.set(revokedSessionKey(prefix, 'gone'), '1', 'PX', 60_000);
    expect(await revocationState(redis, prefix, 'gone')).toBe('revoked');
    expect(await revocationState(redis, prefix, 'other')).toBe('unknown');

    await redis.set(revocationsLoadedKey(prefix), new Date().toISOString());
    expect(await revocationState(redis, prefix, 'gone')).toBe('revoked');
    expect(await revocationState(redis, prefix, 'other')).toBe('live');
    expect(await revocationStates(redis, prefix, ['other', 'gone', 'third'])).toEqual(['live', 'revoked', 'live']);
    expect(await revocationStates(redis, prefix, [])).toEqual([]);

    await redis.del(revocationsLoadedKey(prefix));
    expect(await revocationStates(redis, prefix, ['other', 'gone'])).toEqual(['unknown', 'revoked']);
  });

  it('rejects when Redis does not answer, so the caller can fail closed', async () => {
    const dead = createRedis('redis://127.0.0.1:1', { name: 'revocations-dead', maxRetriesPerRequest: 0 });
    dead.on('error', () => undefined);
    try {
      await expect(revocationState(dead, prefix, 'x')).rejects.toThrow();
    } finally {
      dead.disconnect();
    }
  });
});
