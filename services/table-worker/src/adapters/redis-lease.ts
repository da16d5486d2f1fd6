import { redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { AcquireResult, LeaseGrant, LeaseHolder, TableLeases } from '../ports.js';
import { leaseValue, parseLeaseHolder } from './lease-value.js';

/**
 * Acquisition: `SET NX PX` and `INCR` of the epoch in one script, so every acquisition gets an
 * epoch above every earlier one. A lease held by another process of the same worker id (a
 * restarted pod) is taken over at once: that process is gone, and fencing refuses it anyway.
 * KEYS: lease, epoch. ARGV: worker id, instance, ttl ms.
 * Returns {1, epoch} or {0, holder value, remaining ms}.
 */
const ACQUIRE_SCRIPT = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local sep = string.find(cur, '|', 1, true)
  local holder = sep and string.sub(cur, 1, sep - 1) or cur
  if holder ~= ARGV[1] then
    return {0, cur, redis.call('PTTL', KEYS[1])}
  end
end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2] .. '|' .. epoch, 'PX', ARGV[3])
return {1, epoch}
`;

/** KEYS: epoch. ARGV: the floor. */
const RAISE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1])
end
return 1
`;

/** KEYS: lease. ARGV: the value this holder set, ttl ms. 1: renewed, 0: not ours any more. */
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`;

/** KEYS: lease. ARGV: the value this holder set. 1: released, 0: not ours. */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

export type { AcquireResult, LeaseGrant, LeaseHolder } from '../ports.js';

export interface RedisLeaseOptions {
  readonly redis: Redis;
  readonly prefix: string;
  readonly workerId: string;
  /** Distinguishes this process from an earlier one with the same worker id. */
  readonly instance: string;
  readonly ttlMs: number;
}

const RENEW_COMMAND = 'feltLeaseRenew';

/** An ioredis Cluster (it has `isCluster: true`); a single node or a Sentinel-managed one does not. */
function isCluster(redis: Redis): boolean {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

/**
 * Per-table leases in Redis (`P lease:<tableId>`, `P epoch:<tableId>`): a worker serves a table
 * only while it holds the lease, and writes its checkpoints fenced by the lease's epoch.
 */
export class RedisLeases implements TableLeases {
  private readonly keys: RedisKeys;

  constructor(private readonly options: RedisLeaseOptions) {
    this.keys = redisKeys(options.prefix);
    // Every held table's lease is renewed each beat: by EVALSHA, not the script's text each time.
    options.redis.defineCommand(RENEW_COMMAND, { numberOfKeys: 1, lua: RENEW_SCRIPT });
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  get workerId(): string {
    return this.options.workerId;
  }

  async acquire(tableId: string): Promise<AcquireResult> {
    const { redis, workerId, instance, ttlMs } = this.options;
    const r = (await redis.eval(
      ACQUIRE_SCRIPT,
      2,
      this.keys.lease(tableId),
      this.keys.epoch(tableId),
      workerId,
      instance,
      String(ttlMs),
    )) as [number, number | string, number?];
    if (r[0] === 1) {
      const epoch = Number(r[1]);
      return { acquired: true, grant: { tableId, epoch, value: leaseValue(workerId, instance, epoch) } };
    }
    return { acquired: false, holder: parseLeaseHolder(String(r[1]), Number(r[2] ?? 0)) };
  }

  /**
   * Renews every grant in one round trip; the answer says, per grant, whether it is still ours. On a
   * Redis Cluster one pipeline cannot span nodes (ioredis refuses it), so there each renewal goes on
   * its own, all at once, each in flight at the same time (docs/dev/scale-out.md, step 2).
   */
  async renew(grants: readonly LeaseGrant[]): Promise<boolean[]> {
    if (grants.length === 0) return [];
    if (isCluster(this.options.redis)) {
      const redis = this.options.redis as unknown as Record<
        typeof RENEW_COMMAND,
        (lease: string, value: string, ttlMs: string) => Promise<unknown>
      >;
      const ttl = String(this.options.ttlMs);
      const replies = await Promise.all(
        grants.map((g) => redis[RENEW_COMMAND](this.keys.lease(g.tableId), g.value, ttl)),
      );
      return replies.map((value) => value === 1);
    }
    const pipeline = this.options.redis.pipeline() as ReturnType<Redis['pipeline']> & {
      [RENEW_COMMAND](lease: string, value: string, ttlMs: string): unknown;
    };
    for (const g of grants) pipeline[RENEW_COMMAND](this.keys.lease(g.tableId), g.value, String(this.options.ttlMs));
    const results = (await pipeline.exec()) ?? [];
    return grants.map((_, i) => {
      const [err, value] = results[i] ?? [new Error('no reply'), null];
      if (err) throw err;
      return value === 1;
    });
  }

  /** Gives the lease up (so the next owner need not wait for it to expire). */
  async release(grant: LeaseGrant): Promise<boolean> {
    const r = await this.options.redis.eval(RELEASE_SCRIPT, 1, this.keys.lease(grant.tableId), grant.value);
    return r === 1;
  }

  /** Who holds the table's lease now, or null. */
  async holder(tableId: string): Promise<LeaseHolder | null> {
    const [value, ttl] = await Promise.all([
      this.options.redis.get(this.keys.lease(tableId)),
      this.options.redis.pttl(this.keys.lease(tableId)),
    ]);
    return value === null ? null : parseLeaseHolder(value, Math.max(0, ttl));
  }

  /**
   * Raises the table's epoch counter to at least `atLeast` (never lowers it). For a Redis that lost
   * its counters while Postgres kept `rooms.owner_epoch`: the next acquisition is above the fence
   * again instead of climbing one refused epoch at a time.
   */
  async raiseEpoch(tableId: string, atLeast: number): Promise<void> {
    await this.options.redis.eval(RAISE_SCRIPT, 1, this.keys.epoch(tableId), String(atLeast));
  }

  /** The table's current epoch (0 when it was never acquired). */
  async epoch(tableId: string): Promise<number> {
    return Number((await this.options.redis.get(this.keys.epoch(tableId))) ?? 0);
  }
}
