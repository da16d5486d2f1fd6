// The live-hands suite (test/suites/live-hands.ts) with every service on a Redis Cluster of the test's
// own: 3 masters with a replica each (test/harness/private-redis-cluster.ts), reached by
// `redis+cluster://`. Every table's keys and channels share one hash tag (key layout 2), the tables'
// events go by sharded pub/sub (SPUBLISH to the shard owning the table's slot, SSUBSCRIBE there), and
// the hands queue carries a hash tag in its prefix.
import { bullmqPrefix, redisKeys } from '@felt/platform';
import type { Cluster as RedisCluster } from 'ioredis';
import { expect, it } from 'vitest';
import { PrivateRedisCluster } from './harness/private-redis-cluster.js';
import { liveHandsSuite } from './suites/live-hands.js';

let redis: PrivateRedisCluster | undefined;

liveHandsSuite(
  'live hands on a Redis Cluster',
  async () => {
    redis = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 1 });
    const started = redis;
    return { url: started.url, stop: () => started.stop() };
  },
  ({ cluster }) => {
    it("puts each table's channels on its shard, subscribed sharded, and the hands queue under one tag", async () => {
      const client: RedisCluster = await redis!.client();
      try {
        const prefix = cluster().prefix;
        const keys = redisKeys(prefix);
        const masters = client.nodes('master');
        // PUBSUB's pattern is not used here: the node filters shard channels by the pattern's slot.
        const mine = (channels: string[]) => channels.filter((c) => c.startsWith(`${prefix}{table:`));
        // The tables the suite played are still open: their channels are subscribed on the shards.
        const sharded = (
          await Promise.all(masters.map(async (m) => mine((await m.call('PUBSUB', 'SHARDCHANNELS')) as string[])))
        ).flat();
        expect(sharded.length).toBeGreaterThan(0);
        const tableIds = new Set(sharded.map((c) => /\{table:([^}]+)\}/.exec(c)![1]!));
        for (const id of tableIds) {
          // Each table's channel, and its users' channels, are subscribed on the master owning its slot.
          const owner = await masterOf(client, keys.table(id));
          const onOwner = mine((await owner.call('PUBSUB', 'SHARDCHANNELS')) as string[]);
          expect(onOwner).toContain(keys.table(id));
          expect(onOwner.some((c) => c.startsWith(keys.userAtTable(id, '')))).toBe(true);
        }
        // No table's events go by plain pub/sub, which a cluster copies to every node.
        for (const m of masters) expect(mine((await m.call('PUBSUB', 'CHANNELS')) as string[])).toEqual([]);
        // The hands queue's keys share the tag in BullMQ's prefix: one slot, one master.
        const tag = bullmqPrefix(prefix, true);
        const queueKeys = (await Promise.all(masters.map((m) => m.keys(`${tag}:*`)))).map((k) => k.length);
        expect(queueKeys.filter((n) => n > 0)).toHaveLength(1);
        // The key layout was set on the cluster by the first service.
        expect(await client.get(keys.layout)).toBe('2');
      } finally {
        client.disconnect();
      }
    });
  },
);

/** The master serving a key's slot (CLUSTER SLOTS: [start, end, [host, port, id], ...]). */
async function masterOf(client: RedisCluster, key: string) {
  const slot = Number(await client.cluster('KEYSLOT', key));
  const ranges = await client.cluster('SLOTS');
  const [, , [, port]] = ranges.find(([from, to]) => slot >= from && slot <= to)! as unknown as [
    number,
    number,
    [string, number],
  ];
  return client.nodes('master').find((n) => n.options.port === port)!;
}
