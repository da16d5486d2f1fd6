// countedCheckpoints around the Redis store, on real Redis: what felt_worker_checkpoints_total and
// felt_worker_checkpoint_bytes_total say of saves that stood, were refused, or failed.
import { closeRedis, createRedis, redisKeys } from '@felt/platform';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { countedCheckpoints } from '../src/adapters/counted-checkpoints.js';
import { RedisCheckpointStore } from '../src/adapters/redis-checkpoint-store.js';
import { createWorkerMetrics } from '../src/metrics.js';
import { StaleEpochError } from '../src/ports.js';
import { RedisNamespace } from './conformance/redis-namespace.js';

const ns = new RedisNamespace('counted-checkpoints');
afterAll(() => ns.close());

// A name past ASCII: bytes are counted as Redis stores them (UTF-8), not as JavaScript counts characters.
const STATE = JSON.stringify({ format: 'felt-live-table/1', tableSeq: 3, note: 'a state', name: 'Zoë' });
const STATE_BYTES = Buffer.byteLength(STATE);

function setup(redis = ns.redis) {
  const registry = new Registry();
  const metrics = createWorkerMetrics(registry, () => 0);
  const prefix = ns.prefix();
  const store = countedCheckpoints(new RedisCheckpointStore(redis, prefix), metrics.checkpoints);
  const count = async (result: string) =>
    (await metrics.checkpoints.saves.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
  const bytes = async () => (await metrics.checkpoints.bytes.get()).values[0]?.value ?? 0;
  return { store, prefix, count, bytes, registry };
}

describe('countedCheckpoints', () => {
  it('counts a save that stands, and the bytes of its state, and passes it to the store whole', async () => {
    const { store, count, bytes, registry } = setup();
    await store.save('t1', 3, STATE, [], { mark: { handId: null, handNo: 0 } });
    await store.save('t1', 4, STATE, []);
    expect(await count('saved')).toBe(2);
    expect(await bytes()).toBe(2 * STATE_BYTES);
    expect(STATE_BYTES).toBe(STATE.length + 1);
    expect(await count('failed')).toBe(0);
    // The store got what was given: the state reads back, and so does the mark.
    const loaded = await store.load('t1');
    expect(loaded?.checkpoint.tableSeq).toBe(4);
    expect(await store.mark?.('t1')).toMatchObject({ tableSeq: 4 });
    // Exposed by the worker's registry under the documented names.
    const page = await registry.metrics();
    expect(page).toContain('felt_worker_checkpoints_total{result="saved"} 2');
    expect(page).toContain(`felt_worker_checkpoint_bytes_total ${2 * STATE_BYTES}`);
  });

  it('counts a save refused for a stale epoch as stale_epoch, and still throws it', async () => {
    const { store, prefix, count, bytes } = setup();
    // Another worker holds the table now: its epoch is past the writer's.
    await ns.redis.set(redisKeys(prefix).epoch('t2'), '7');
    await expect(store.save('t2', 1, STATE, [], { fence: { epoch: 6 } })).rejects.toBeInstanceOf(StaleEpochError);
    expect(await count('stale_epoch')).toBe(1);
    expect(await count('saved')).toBe(0);
    expect(await bytes()).toBe(0);
    expect(await store.load('t2')).toBeNull();
  });

  it('counts a save Redis never took as failed, and still throws it', async () => {
    const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      name: 'counted-checkpoints-closed',
      maxRetriesPerRequest: 0,
    });
    const { store, count, bytes } = setup(redis);
    await closeRedis(redis);
    await expect(store.save('t3', 1, STATE, [])).rejects.toThrow();
    expect(await count('failed')).toBe(1);
    expect(await count('saved')).toBe(0);
    expect(await bytes()).toBe(0);
  });
});
