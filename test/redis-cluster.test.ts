// What a Redis Cluster asks of Felt's Redis use, shown on a real 3-master cluster with a replica each
// (test/harness/private-redis-cluster.ts; docs/dev/scale-out.md, steps 1 and 2):
// - the worker's multi-key scripts (lease acquire, checkpoint save) run because a table's keys share a
//   hash tag (key layout 2); layout 1's keys of a table hashed apart, and a script over them is refused;
// - a pipeline over several tables' keys cannot span nodes: the worker's lease renewals go one by one
//   on a cluster (RedisLeases.renew), all at once;
// - sharded pub/sub (SSUBSCRIBE through ioredis's per-shard subscribers) delivers a table's events;
// - the replica wait (FELT_REDIS_WAIT_REPLICAS) asks the master of the write's slot, on the
//   connection that carried the write.
import { randomUUID } from 'node:crypto';
import { layoutOneKeys, redisKeys, replicated, ReplicationLagError } from '@felt/platform';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCheckpointStore } from '../services/table-worker/src/adapters/redis-checkpoint-store.js';
import { RedisLeases } from '../services/table-worker/src/adapters/redis-lease.js';
import { PrivateRedisCluster } from './harness/private-redis-cluster.js';
import { waitFor } from './harness/wait.js';

let cluster: PrivateRedisCluster;
let client: Cluster;

beforeAll(async () => {
  cluster = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 1 });
  client = await cluster.client({ redisOptions: { maxRetriesPerRequest: 2 } });
}, 90_000);

afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

/** The id of the master serving a key (CLUSTER SLOTS: [start, end, [host, port, id], ...]). */
async function masterOf(key: string): Promise<string> {
  const slot = Number(await client.cluster('KEYSLOT', key));
  const ranges = await client.cluster('SLOTS');
  return ranges.find(([from, to]) => slot >= from && slot <= to)![2]![2];
}

const leases = (prefix: string) =>
  new RedisLeases({ redis: client as unknown as Redis, prefix, workerId: 'w1', instance: 'i1', ttlMs: 10_000 });

describe('Felt on a Redis Cluster', () => {
  it('has three masters, each with a replica, serving every slot', async () => {
    const flags = ((await client.cluster('NODES')) as string)
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[2]!.split(','));
    expect(flags.filter((f) => f.includes('master')).length).toBe(3);
    expect(flags.filter((f) => f.includes('slave')).length).toBe(3);
    expect(await client.cluster('INFO')).toContain('cluster_slots_assigned:16384');
  });

  it("runs a table's scripts with the key layout's keys, every key of a table in one slot", async () => {
    const id = randomUUID();
    const keys = redisKeys('felt:');
    const slot = async (key: string) => Number(await client.cluster('KEYSLOT', key));
    // Layout 2 (REDIS_LAYOUT): one hash tag per table, so the lease, checkpoint and channel share a slot.
    const slots = await Promise.all(
      [
        keys.lease(id),
        keys.epoch(id),
        keys.tableCheckpoint(id),
        keys.tableEvents(id),
        keys.checkpointMark(id),
        keys.table(id),
      ].map(slot),
    );
    expect(new Set(slots).size).toBe(1);
    // Layout 1 spelled `felt:lease:<id>` and `felt:epoch:<id>`, which hash apart: its scripts were
    // refused here (CROSSSLOT); `npm run redis:migrate` exists for single nodes only.
    const old = layoutOneKeys('felt:').tableKinds.map((kind) => `${kind.old}${id}`);
    expect(new Set(await Promise.all(old.map(slot))).size).toBeGreaterThan(1);
    await expect(client.eval("return redis.call('GET', KEYS[1])", 2, ...old.slice(0, 2))).rejects.toThrow(/CROSSSLOT/);

    const acquired = await leases('felt:').acquire(id);
    expect(acquired.acquired).toBe(true);
    if (!acquired.acquired) return;
    const store = new RedisCheckpointStore(client as unknown as Redis, 'felt:');
    await store.save(id, 1, '{"state":1}', [], { fence: { epoch: acquired.grant.epoch } });
    expect((await store.load(id))?.checkpoint.tableSeq).toBe(1);
    // The fence still holds: an older epoch's save changes nothing.
    await expect(
      store.save(id, 2, '{"state":2}', [], { fence: { epoch: acquired.grant.epoch - 1 } }),
    ).rejects.toThrow();
    expect((await store.load(id))?.checkpoint.tableSeq).toBe(1);
  });

  it('renews leases of tables on different nodes only pipeline by pipeline per node', async () => {
    // Tables whose tags land on different masters.
    const grants = [];
    const masters = new Set<string>();
    for (let i = 0; grants.length < 2 && i < 50; i++) {
      const id = randomUUID();
      const prefix = 'felt:';
      const node = await masterOf(redisKeys(prefix).lease(id));
      if (masters.has(node)) continue;
      masters.add(node);
      const l = leases(prefix);
      const r = await l.acquire(id);
      if (r.acquired) grants.push({ l, grant: r.grant, prefix });
    }
    expect(grants.length).toBe(2);
    // One pipeline across nodes: ioredis refuses it (the worker's renew batches all its tables today).
    const pipeline = client.pipeline();
    for (const g of grants) pipeline.pexpire(redisKeys(g.prefix).lease(g.grant.tableId), 10_000);
    await expect(pipeline.exec()).rejects.toThrow(/same slot|slots allocation group/i);
    // Table by table, each renewal holds.
    for (const g of grants) expect(await g.l.renew([g.grant])).toEqual([true]);
  });

  it("RedisLeases.renew renews a worker's tables across every node in one call, and says which it lost", async () => {
    const l = leases('felt:');
    const keys = redisKeys('felt:');
    const grants = Array.from({ length: 24 }, (_, i) => ({
      tableId: randomUUID(),
      epoch: i + 1,
      value: `w1|i1|${i + 1}`,
    }));
    for (const g of grants) await client.set(keys.lease(g.tableId), g.value, 'PX', 1_000);
    // Another worker took the last one.
    await client.set(keys.lease(grants[23]!.tableId), 'w2|i2|99', 'PX', 1_000);
    const slots = await Promise.all(
      grants.map(async (g) => Number(await client.cluster('KEYSLOT', keys.lease(g.tableId)))),
    );
    expect(new Set(slots.map((slot) => Math.min(2, Math.floor(slot / 5462)))).size).toBeGreaterThan(1);
    expect(await l.renew(grants)).toEqual([...grants.slice(0, 23).map(() => true), false]);
    for (const g of grants.slice(0, 23)) expect(await client.pttl(keys.lease(g.tableId))).toBeGreaterThan(5_000);
    expect(await client.get(keys.lease(grants[23]!.tableId))).toBe('w2|i2|99');
  });

  it("delivers a table's events by sharded pub/sub to a subscriber on the shard that owns the slot", async () => {
    const subscriber = await cluster.client({ shardedSubscribers: true });
    try {
      const got: string[] = [];
      subscriber.on('smessage', (_channel: string, message: string) => got.push(message));
      const channels = [0, 1, 2].map(() => redisKeys('felt:').table(randomUUID()));
      for (const c of channels) await subscriber.ssubscribe(c);
      for (const [i, c] of channels.entries()) expect(await client.spublish(c, `event ${i}`)).toBe(1);
      await waitFor('three sharded messages', () => got.length === 3, 10_000);
      expect(got.sort()).toEqual(['event 0', 'event 1', 'event 2']);
    } finally {
      subscriber.disconnect();
    }
  });

  it("waits for the replica of the write's own master: a stopped replica there is noticed, one elsewhere is not", async () => {
    const keys = redisKeys('felt:');
    // CLUSTER NODES: `<id> <ip:port@bus> <flags> <master id> … <slot ranges>` a line (CLUSTER SLOTS
    // leaves out a replica until it has synced).
    const nodes = ((await client.cluster('NODES')) as string)
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    const portOf = (fields: string[]) => Number(/:(\d+)@/.exec(fields[1]!)![1]);
    const servedBy = async (key: string) => {
      const slot = Number(await client.cluster('KEYSLOT', key));
      const master = nodes.find(
        (f) =>
          f[2]!.includes('master') &&
          f.slice(8).some((r) => {
            const [from, to = from] = r.split('-').map(Number);
            return slot >= from! && slot <= to!;
          }),
      )!;
      const replica = nodes.find((f) => f[2]!.includes('slave') && f[3] === master[0])!;
      return { master: portOf(master), replica: portOf(replica) };
    };
    const a = keys.tableCheckpoint(randomUUID());
    let b = keys.tableCheckpoint(randomUUID());
    while ((await servedBy(b)).master === (await servedBy(a)).master) b = keys.tableCheckpoint(randomUUID());
    const acks = { replicas: 1, timeoutMs: 300 };
    // Both confirmed while every replica runs.
    await client.set(a, 'x');
    await client.set(b, 'y');
    await replicated(client as unknown as Redis, acks, a);
    await replicated(client as unknown as Redis, acks, b);

    const resume = cluster.pause((await servedBy(a)).replica);
    try {
      await client.set(a, 'x2');
      await expect(replicated(client as unknown as Redis, acks, a)).rejects.toBeInstanceOf(ReplicationLagError);
      // b's master has its replica: b's write is confirmed (a WAIT sent to b's node for a, or to a's
      // node for b, would answer wrongly one way or the other).
      await client.set(b, 'y2');
      await replicated(client as unknown as Redis, acks, b);
    } finally {
      resume();
    }
    await waitFor('a confirmed once its replica runs again', () =>
      replicated(client as unknown as Redis, acks, a).then(() => true),
    );
    // A cluster cannot guess which master to ask.
    await expect(replicated(client as unknown as Redis, acks)).rejects.toThrow(/needs the key/);
  });
});
