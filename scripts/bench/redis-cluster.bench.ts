// What a table costs Redis, on one node and on a 3-master Redis Cluster, in the same run
// (docs/dev/scale-out.md, step 2; docs/operations.md, "Capacity planning"): lease renewals, checkpoint
// saves and event publishes a second, each by the worker's own adapters (RedisLeases, the checkpoint
// store's fenced save script) or command, from FELT_BENCH_REDIS_TABLES tables at once, each table with
// one operation in flight, as a worker's actors run them.
//
// Each table's keys carry its hash tag (`bench:{table:<id>}:…`, the key layout's own spelling), so a
// table's multi-key scripts stay in one slot and the tables spread over the masters. On the cluster the
// events go out both ways: PUBLISH (copied to every node over the cluster bus) and SPUBLISH (sharded
// pub/sub, Redis 7: only the shard owning the slot). Everything runs on this machine: the load, one
// Redis and the three masters share its cores, so the cluster's figure here is a floor, not its
// capacity on three machines.
import { randomUUID } from 'node:crypto';
import { redisKeys } from '@felt/platform';
import { Redis, type Cluster } from 'ioredis';
import { RedisCheckpointStore } from '../../services/table-worker/src/adapters/redis-checkpoint-store.js';
import { RedisLeases } from '../../services/table-worker/src/adapters/redis-lease.js';
import type { LeaseGrant } from '../../services/table-worker/src/ports.js';
import type { BufferedEvent } from '../../services/table-worker/src/table/event-buffer.js';
import { PrivateRedisCluster } from '../../test/harness/private-redis-cluster.js';
import { PrivateRedis } from '../../test/harness/private-redis.js';
import type { BenchReporter } from './bench-api.js';
import { onCleanup } from './cleanup.js';
import { envInt, fixed } from './measure.js';

const TABLES = envInt('FELT_BENCH_REDIS_TABLES', 64);
const SECONDS = envInt('FELT_BENCH_REDIS_SECONDS', 3);
/** About one state checkpoint of a 6-max hold'em table mid-hand, and one event envelope. */
const STATE = JSON.stringify({ filler: 'x'.repeat(3_000) });
const EVENT = JSON.stringify({ filler: 'y'.repeat(500) });

/** A buffered event of about an action's size (its shape does not matter to Redis). */
function event(tableSeq: number): BufferedEvent {
  return {
    tableSeq,
    audience: { kind: 'all' },
    message: { type: 'action', table_seq: tableSeq, filler: 'z'.repeat(400) } as unknown as BufferedEvent['message'],
  };
}

interface Table {
  readonly id: string;
  readonly leases: RedisLeases;
  readonly store: RedisCheckpointStore;
  readonly channel: string;
  grant: LeaseGrant;
  seq: number;
}

type Client = Redis | Cluster;

async function tables(redis: Client): Promise<Table[]> {
  const out: Table[] = [];
  const prefix = 'bench:';
  const keys = redisKeys(prefix);
  for (let i = 0; i < TABLES; i++) {
    const id = randomUUID();
    // The adapters type their connection as a single node's; a Cluster has every method they call.
    const leases = new RedisLeases({
      redis: redis as Redis,
      prefix,
      workerId: 'bench',
      instance: 'bench',
      ttlMs: 30_000,
    });
    const acquired = await leases.acquire(id);
    if (!acquired.acquired) throw new Error('bench: lease not acquired');
    out.push({
      id,
      leases,
      store: new RedisCheckpointStore(redis as Redis, prefix),
      channel: keys.table(id),
      grant: acquired.grant,
      seq: 0,
    });
  }
  return out;
}

/** Runs `op` for every table, one in flight each, for SECONDS; operations a second. */
async function rate(list: readonly Table[], op: (t: Table) => Promise<unknown>): Promise<number> {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    list.map(async (t) => {
      while (Date.now() < until) {
        await op(t);
        done++;
      }
    }),
  );
  return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

interface Rates {
  readonly renew: number;
  readonly checkpoint: number;
  readonly publish: number;
  readonly spublish?: number;
}

async function measure(redis: Client, sharded: boolean): Promise<Rates> {
  const list = await tables(redis);
  const renew = await rate(list, async (t) => {
    const [ok] = await t.leases.renew([t.grant]);
    if (!ok) throw new Error('bench: lease lost');
  });
  const checkpoint = await rate(list, (t) =>
    t.store.save(t.id, ++t.seq, STATE, [event(t.seq)], {
      fence: { epoch: t.grant.epoch },
    }),
  );
  const publish = await rate(list, (t) => redis.publish(t.channel, EVENT));
  const spublish = sharded ? await rate(list, (t) => redis.spublish(t.channel, EVENT)) : undefined;
  return { renew, checkpoint, publish, ...(spublish !== undefined ? { spublish } : {}) };
}

export async function run(report: BenchReporter): Promise<void> {
  const single = await PrivateRedis.start({ inMemory: true });
  const undoSingle = onCleanup(() => single.stop());
  const cluster = await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 0 });
  const undoCluster = onCleanup(() => cluster.stop());
  const one = new Redis(single.url, { maxRetriesPerRequest: null });
  const many = await cluster.client({ redisOptions: { maxRetriesPerRequest: null } });
  try {
    const a = await measure(one, false);
    const b = await measure(many, true);
    report.info(
      `${TABLES} tables, ${SECONDS} s per operation; one node, then 3 masters (no replicas), all on this machine`,
    );
    const line = (op: string, single: number, clustered: number) =>
      report.figure('redis-cluster', {
        op,
        tables: TABLES,
        single_per_s: Math.round(single),
        cluster_per_s: Math.round(clustered),
        ratio: fixed(clustered / single, 2),
      });
    line('lease_renew', a.renew, b.renew);
    line('checkpoint_save', a.checkpoint, b.checkpoint);
    line('publish', a.publish, b.publish);
    line('spublish', a.publish, b.spublish ?? 0);
  } finally {
    one.disconnect();
    many.disconnect();
    await cluster.stop();
    undoCluster();
    await single.stop();
    undoSingle();
  }
}
