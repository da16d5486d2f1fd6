// The CheckpointStore contract, run against the memory store and the Redis one.
import { redisKeys } from '@felt/platform';
import { afterAll } from 'vitest';
import { MemoryCheckpointStore } from '../../src/adapters/memory-checkpoint-store.js';
import { MemoryLeases } from '../../src/adapters/memory-leases.js';
import { MemoryOwnershipStore } from '../../src/adapters/memory-ownership.js';
import { RedisCheckpointStore } from '../../src/adapters/redis-checkpoint-store.js';
import { RedisLeases } from '../../src/adapters/redis-lease.js';
import type { TableLeases } from '../../src/ports.js';
import { describeCheckpointStore } from './describe-checkpoint-store.js';
import { RedisNamespace } from './redis-namespace.js';

/** A new owner each time: a worker id of its own, which takes the lease and gives it back. */
function takeOver(leases: (workerId: string) => TableLeases) {
  let owners = 0;
  return async (tableId: string): Promise<number> => {
    const result = await leases(`w${++owners}`).acquire(tableId);
    if (!result.acquired) throw new Error(`lease of ${tableId} held by ${result.holder.workerId}`);
    await leases(`w${owners}`).release(result.grant);
    return result.grant.epoch;
  };
}

describeCheckpointStore('memory', ({ bufferSize }) => {
  const ownership = new MemoryOwnershipStore();
  const store = new MemoryCheckpointStore({ ownership, bufferSize });
  return Promise.resolve({
    store,
    takeOver: takeOver((workerId) => new MemoryLeases({ store: ownership, workerId, instance: 'i', ttlMs: 60_000 })),
    storedText: (tableId) => Promise.resolve(store.text(tableId) ?? null),
    dropCheckpoint: (tableId) => Promise.resolve(store.dropCheckpoint(tableId)),
    overwriteCheckpoint: (tableId, text) => Promise.resolve(store.overwrite(tableId, text)),
  });
});

const ns = new RedisNamespace('checkpoint-store-conformance');
afterAll(() => ns.close());

describeCheckpointStore('redis', ({ bufferSize }) => {
  const { redis } = ns;
  const prefix = ns.prefix();
  const keys = redisKeys(prefix);
  return Promise.resolve({
    store: new RedisCheckpointStore(redis, prefix, bufferSize),
    takeOver: takeOver((workerId) => new RedisLeases({ redis, prefix, workerId, instance: 'i', ttlMs: 60_000 })),
    storedText: (tableId) => redis.get(keys.tableCheckpoint(tableId)),
    dropCheckpoint: async (tableId) => void (await redis.del(keys.tableCheckpoint(tableId))),
    overwriteCheckpoint: async (tableId, text) => void (await redis.set(keys.tableCheckpoint(tableId), text)),
  });
});
