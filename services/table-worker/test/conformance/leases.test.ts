// The TableLeases contract, run against the memory leases and the Redis ones.
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { MemoryLeases } from '../../src/adapters/memory-leases.js';
import { MemoryOwnershipStore } from '../../src/adapters/memory-ownership.js';
import { RedisLeases } from '../../src/adapters/redis-lease.js';
import { describeLeases } from './describe-leases.js';
import { RedisNamespace } from './redis-namespace.js';

const instance = () => randomBytes(4).toString('hex');

describeLeases('memory', () => {
  const store = new MemoryOwnershipStore();
  return Promise.resolve({
    leases: (workerId, o = {}) =>
      new MemoryLeases({ store, workerId, instance: o.instance ?? instance(), ttlMs: o.ttlMs ?? 5_000 }),
  });
});

const ns = new RedisNamespace('leases-conformance');
afterAll(() => ns.close());

describeLeases('redis', () => {
  const prefix = ns.prefix();
  return Promise.resolve({
    leases: (workerId, o = {}) =>
      new RedisLeases({
        redis: ns.redis,
        prefix,
        workerId,
        instance: o.instance ?? instance(),
        ttlMs: o.ttlMs ?? 5_000,
      }),
  });
});
