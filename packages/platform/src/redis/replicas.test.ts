// WAIT against the shared Redis, which has no replicas: every wait for one times out with 0. What is
// checked is how the callers share WAITs, not the replication (test/redis-sentinel.test.ts has real
// replicas).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeRedis, createRedis, type Redis } from './connect.js';
import { NO_REPLICA_ACKS, ReplicationLagError, replicated } from './replicas.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let redis: Redis;

beforeAll(() => {
  redis = createRedis(REDIS_URL, { name: 'replicas-test' });
});

afterAll(async () => {
  await closeRedis(redis);
});

describe('replicated', () => {
  it('asks nothing when no replica is wanted', async () => {
    const wait = vi.spyOn(redis, 'wait');
    await replicated(redis, NO_REPLICA_ACKS);
    expect(wait).not.toHaveBeenCalled();
    wait.mockRestore();
  });

  it('refuses with ReplicationLagError when fewer replicas confirmed in time', async () => {
    await expect(replicated(redis, { replicas: 1, timeoutMs: 20 })).rejects.toMatchObject({
      code: 'redis_not_replicated',
      wanted: 1,
      confirmed: 0,
    });
  });

  it('shares WAITs: many callers at once put at most two on the connection, and each gets the answer', async () => {
    const wait = vi.spyOn(redis, 'wait');
    const first = Array.from({ length: 20 }, () => replicated(redis, { replicas: 1, timeoutMs: 50 }));
    // Callers that come while the first WAIT is out share the next one.
    await Promise.resolve();
    await Promise.resolve();
    const later = Array.from({ length: 20 }, () => replicated(redis, { replicas: 1, timeoutMs: 50 }));
    const settled = await Promise.allSettled([...first, ...later]);
    expect(settled.every((s) => s.status === 'rejected' && s.reason instanceof ReplicationLagError)).toBe(true);
    expect(wait.mock.calls.length).toBeLessThanOrEqual(2);
    // Once they are done, the next caller sends a WAIT of its own.
    await expect(replicated(redis, { replicas: 1, timeoutMs: 20 })).rejects.toBeInstanceOf(ReplicationLagError);
    expect(wait.mock.calls.length).toBeLessThanOrEqual(3);
    wait.mockRestore();
  });
});
