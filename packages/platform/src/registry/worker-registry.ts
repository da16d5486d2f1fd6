import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from '../redis/keys.js';

/** A live worker as gateways and workers see it in the registry. */
export interface RingMember {
  readonly id: string;
  /** host:port of its gRPC server, as gateways dial it. */
  readonly addr: string;
  /** host:port of its operations HTTP server. */
  readonly httpAddr: string;
  readonly startedAt: number;
  readonly draining: boolean;
}

// Expiry uses Redis's clock on both sides, so that clock skew between machines cannot make a live
// worker look dead (or a dead one live).
const HEARTBEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local added = redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('HSET', KEYS[2], 'addr', ARGV[3], 'httpAddr', ARGV[4], 'startedAt', ARGV[5], 'draining', ARGV[6])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) * 2)
return added
`;

const LIVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

export interface WorkerRegistration {
  readonly id: string;
  readonly addr: string;
  readonly httpAddr: string;
}

export interface WorkerRegistryOptions {
  readonly redis: Redis;
  readonly prefix: string;
  readonly member: WorkerRegistration;
  readonly heartbeatMs: number;
  readonly ttlMs: number;
  /** Called when a heartbeat fails (Redis down); the registry keeps trying. */
  readonly onError?: (err: unknown) => void;
}

/**
 * A worker's entry in the registry: `P workers` (zset of expiries) and `P worker:<id>` (where to
 * dial it), refreshed every heartbeat. Joins, leaves and drain changes are announced on `P ring`
 * so that rings elsewhere rebuild at once instead of at their next periodic refresh.
 */
export class WorkerRegistry {
  private readonly keys: RedisKeys;
  private readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  private registered = false;

  constructor(private readonly options: WorkerRegistryOptions) {
    this.keys = redisKeys(options.prefix);
  }

  get isRegistered(): boolean {
    return this.registered;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async start(): Promise<void> {
    await this.beat(true);
    this.timer = setInterval(() => {
      this.beat(false).catch((err: unknown) => this.options.onError?.(err));
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  async setDraining(draining: boolean): Promise<void> {
    if (this.draining === draining) return;
    this.draining = draining;
    await this.beat(true);
  }

  /** Leaves the registry and tells everyone, so the ring moves this worker's tables at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.registered) return;
    this.registered = false;
    const { redis, member } = this.options;
    await redis.multi().zrem(this.keys.workers, member.id).del(this.keys.worker(member.id)).exec();
    await redis.publish(this.keys.ring, member.id);
  }

  private async beat(announce: boolean): Promise<void> {
    const { redis, member, ttlMs } = this.options;
    const added = await redis.eval(
      HEARTBEAT_SCRIPT,
      2,
      this.keys.workers,
      this.keys.worker(member.id),
      member.id,
      String(ttlMs),
      member.addr,
      member.httpAddr,
      String(this.startedAt),
      this.draining ? '1' : '0',
    );
    this.registered = true;
    // added === 1: we were missing (first beat, or expired after a stall or a Redis restart).
    if (announce || added === 1) await redis.publish(this.keys.ring, member.id);
  }
}

/** The workers whose heartbeat has not expired, with their addresses, sorted by id. */
export async function readLiveMembers(redis: Redis, prefix: string): Promise<RingMember[]> {
  const keys = redisKeys(prefix);
  const ids = (await redis.eval(LIVE_SCRIPT, 1, keys.workers)) as string[];
  if (ids.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hgetall(keys.worker(id));
  const rows = (await pipeline.exec()) ?? [];
  const members: RingMember[] = [];
  ids.forEach((id, i) => {
    const [err, row] = rows[i] ?? [null, null];
    if (err || !row || typeof row !== 'object') return;
    const h = row as Record<string, string>;
    // The hash outlives a crash by at most 2 TTLs; without an address the member is unusable anyway.
    if (!h.addr) return;
    members.push({
      id,
      addr: h.addr,
      httpAddr: h.httpAddr ?? '',
      startedAt: Number(h.startedAt ?? 0),
      draining: h.draining === '1',
    });
  });
  return members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
