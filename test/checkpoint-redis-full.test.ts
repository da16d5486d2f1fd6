// What FeltCheckpointWritesFailing rests on (docs/operations.md): a Redis that is full refuses the
// worker's checkpoint saves while it still answers PING, so the dependency gauge stays up and only
// felt_worker_checkpoints_total{result="failed"} tells. On a Redis of the test's own (its memory limit
// is changed), never the shared one.
import { closeRedis, createRedis, type Redis } from '@felt/platform';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedCheckpoints } from '../services/table-worker/src/adapters/counted-checkpoints.js';
import { RedisCheckpointStore } from '../services/table-worker/src/adapters/redis-checkpoint-store.js';
import { createWorkerMetrics } from '../services/table-worker/src/metrics.js';
import { PrivateRedis } from './harness/private-redis.js';

let server: PrivateRedis;
let redis: Redis;

beforeAll(async () => {
  server = await PrivateRedis.start({ inMemory: true });
  redis = createRedis(server.url, { name: 'checkpoint-redis-full', maxRetriesPerRequest: 0 });
});

afterAll(async () => {
  await closeRedis(redis);
  await server.stop();
});

describe('a full Redis (maxmemory reached, noeviction)', () => {
  it('refuses checkpoint saves, counted as failed, while PING still answers; saves stand again once there is room', async () => {
    const registry = new Registry();
    const metrics = createWorkerMetrics(registry, () => 0);
    const store = countedCheckpoints(new RedisCheckpointStore(redis, 'full:'), metrics.checkpoints);
    const state = JSON.stringify({ format: 'felt-live-table/1', padding: 'x'.repeat(4096) });
    const count = async (result: string) =>
      (await metrics.checkpoints.saves.get()).values.find((v) => v.labels.result === result)?.value ?? 0;

    await store.save('t1', 1, state, []);
    // Below what the server already uses: with noeviction, every write is refused from now on.
    await redis.config('SET', 'maxmemory', '1');
    await expect(store.save('t1', 2, state, [])).rejects.toThrow(/OOM/);
    await expect(store.save('t1', 2, state, [])).rejects.toThrow(/OOM/);
    expect(await redis.ping()).toBe('PONG');
    expect(await count('failed')).toBe(2);
    expect(await count('saved')).toBe(1);
    // Nothing of the refused saves was written: the table is still at its first checkpoint.
    expect((await store.load('t1'))?.checkpoint.tableSeq).toBe(1);

    await redis.config('SET', 'maxmemory', '0');
    await store.save('t1', 2, state, []);
    expect(await count('saved')).toBe(2);
    expect((await store.load('t1'))?.checkpoint.tableSeq).toBe(2);
    expect(await registry.metrics()).toContain('felt_worker_checkpoints_total{result="failed"} 2');
  });
});
