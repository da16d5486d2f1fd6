import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { watchSentinelFailovers } from './sentinel-watch.js';

export { Redis } from 'ioredis';

export interface CreateRedisOptions {
  /** Shown in CLIENT LIST; helps when reading a busy Redis. */
  readonly name: string;
  /**
   * BullMQ needs `null` (block until Redis is back). Request/response paths such as the gateway's
   * revocation check want a bound, so that an outage turns into a refusal instead of a hang.
   */
  readonly maxRetriesPerRequest?: number | null;
  /**
   * On a Redis Cluster: one subscriber connection per shard for SSUBSCRIBE (ChannelSubscriber's
   * `sharded` channels). Ignored elsewhere.
   */
  readonly shardedSubscribers?: boolean;
}

/** The scheme of a Redis reached through Sentinel: `redis+sentinel://…` (docs/operations.md, "Redis"). */
export const SENTINEL_SCHEME = 'redis+sentinel:';

/** The schemes of a Redis Cluster: `redis+cluster://…`, and `rediss+cluster://…` for TLS. */
export const CLUSTER_SCHEMES = ['redis+cluster:', 'rediss+cluster:'] as const;

/** A Redis Cluster, as `redis+cluster://` names it. */
export interface ClusterTarget {
  /** Nodes to read the slot map from (any of the cluster's; more than one survives one being down). */
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  /** The nodes' ACL user and password (the URL's user info). */
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
}

/** A Redis reached through Sentinel, as `redis+sentinel://` names it. */
export interface SentinelTarget {
  /** The Sentinels to ask for the master, in order. */
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  /** The master's name in the Sentinels' configuration (`sentinel monitor <name> …`). */
  readonly name: string;
  /** The data nodes' ACL user and password (the URL's user info). */
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  /** The Sentinels' own user and password, when they require one (`?sentinelUsername=&sentinelPassword=`). */
  readonly sentinelUsername?: string;
  readonly sentinelPassword?: string;
}

export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

const SENTINEL_PARAMS = new Set(['db', 'sentinelUsername', 'sentinelPassword']);

/**
 * Reads `redis+sentinel://[user:password@]host[:port][,host[:port]…]/<master name>[?db=N&sentinelPassword=…]`
 * (port 26379 when left out). The user info is the data nodes'; the Sentinels' is in the query.
 * Throws a RedisUrlError saying what is wrong; undefined for any other scheme.
 */
export function parseSentinelUrl(url: string): SentinelTarget | undefined {
  if (!url.startsWith(`${SENTINEL_SCHEME}//`)) return undefined;
  const rest = url.slice(SENTINEL_SCHEME.length + 2);
  const slash = rest.indexOf('/');
  if (slash < 0)
    throw new RedisUrlError(
      'a redis+sentinel URL names the master after the hosts: redis+sentinel://host:26379/<master>',
    );
  const authority = rest.slice(0, slash);
  const [pathPart = '', query = ''] = rest.slice(slash + 1).split('?', 2);
  const at = authority.lastIndexOf('@');
  const userInfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostList = at >= 0 ? authority.slice(at + 1) : authority;
  const sentinels = hostsOf(hostList, 26379, "a redis+sentinel URL's hosts");
  const name = decodeURIComponent(pathPart.replace(/\/$/, ''));
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
    throw new RedisUrlError(`a redis+sentinel URL's path is the master's name (letters, digits, _ . -); got "${name}"`);
  }
  const params = new URLSearchParams(query);
  for (const key of params.keys()) {
    if (!SENTINEL_PARAMS.has(key)) {
      throw new RedisUrlError(
        `a redis+sentinel URL takes ${[...SENTINEL_PARAMS].join(', ')} in its query; not "${key}"`,
      );
    }
  }
  const dbText = params.get('db');
  const db = dbText === null ? undefined : Number(dbText);
  if (db !== undefined && !(Number.isInteger(db) && db >= 0 && db <= 15)) {
    throw new RedisUrlError(`a redis+sentinel URL's db is a number from 0 to 15; got "${dbText}"`);
  }
  const { username, password } = userInfoOf(userInfo);
  const sentinelUsername = params.get('sentinelUsername') ?? undefined;
  const sentinelPassword = params.get('sentinelPassword') ?? undefined;
  return {
    sentinels,
    name,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(db === undefined ? {} : { db }),
    ...(sentinelUsername === undefined ? {} : { sentinelUsername }),
    ...(sentinelPassword === undefined ? {} : { sentinelPassword }),
  };
}

/**
 * `host[:port],host[:port]…` of a URL's authority (a bracketed IPv6 address allowed), `defaultPort`
 * where a port is left out. Throws a RedisUrlError naming the entry that is not one (`what` says
 * whose hosts they are).
 */
function hostsOf(list: string, defaultPort: number, what: string): { host: string; port: number }[] {
  return list.split(',').map((entry) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
    const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
    if (m === null || port < 1 || port > 65535) {
      throw new RedisUrlError(`${what} are host[:port] separated by commas; "${entry}" is not`);
    }
    return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port };
  });
}

/** `[user:password@]` of a URL's authority, percent-decoded; an empty user is none (`:password@`). */
function userInfoOf(userInfo: string | undefined): { username?: string; password?: string } {
  if (userInfo === undefined) return {};
  const colon = userInfo.indexOf(':');
  const user = decodeURIComponent(colon >= 0 ? userInfo.slice(0, colon) : userInfo);
  return {
    ...(user === '' ? {} : { username: user }),
    ...(colon >= 0 ? { password: decodeURIComponent(userInfo.slice(colon + 1)) } : {}),
  };
}

/**
 * Reads `redis+cluster://[user:password@]host[:port][,host[:port]…]` (`rediss+cluster://` for TLS; port
 * 6379 when left out; no path or query: a cluster has one database). Throws a RedisUrlError saying
 * what is wrong; undefined for any other scheme.
 */
export function parseClusterUrl(url: string): ClusterTarget | undefined {
  const scheme = CLUSTER_SCHEMES.find((s) => url.startsWith(`${s}//`));
  if (scheme === undefined) return undefined;
  const rest = url.slice(scheme.length + 2).replace(/\/$/, '');
  if (/[/?#]/.test(rest)) {
    throw new RedisUrlError(
      'a redis+cluster URL is only its nodes: redis+cluster://host:6379,host:6380 (no path or query)',
    );
  }
  const at = rest.lastIndexOf('@');
  const hostList = at >= 0 ? rest.slice(at + 1) : rest;
  const nodes = hostsOf(hostList, 6379, "a redis+cluster URL's nodes");
  return { nodes, ...userInfoOf(at >= 0 ? rest.slice(0, at) : undefined), tls: scheme === 'rediss+cluster:' };
}

/**
 * What ioredis needs for a Redis Cluster: the slot map read from the nodes given and followed through
 * `MOVED` and failovers, and every command sent to its slot's master. Auto-pipelining stays off: with
 * it, ioredis batches commands per node, and when a slot moves (a master failed over) the batch's
 * commands for that slot come back as `MOVED` errors instead of being sent again to the new master
 * (ioredis issue #2075); the chaos run on a cluster met it as a failed `GET` right after a failover.
 */
export function clusterOptions(target: ClusterTarget, redisOptions: RedisOptions): ClusterOptions {
  return {
    redisOptions: {
      ...redisOptions,
      ...(target.username === undefined ? {} : { username: target.username }),
      ...(target.password === undefined ? {} : { password: target.password }),
      ...(target.tls ? { tls: { ...(redisOptions.tls ?? {}) } } : {}),
    },
    enableAutoPipelining: false,
    enableReadyCheck: true,
    scaleReads: 'master',
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
  };
}

/**
 * What ioredis needs to reach the master of a Sentinel-watched Redis and follow it through a
 * failover: it asks the Sentinels for the master (and checks its ROLE), and a write refused by a node
 * that has just become a replica (`READONLY`) reconnects to the new master and is sent again: Redis
 * ran none of it, so sending it again cannot apply it twice. ioredis's own `failoverDetector` stays
 * off: a `+switch-master` heard while the client is reconnecting ends the client for good
 * (sentinel-watch.ts); createRedis listens for it instead (watchSentinelFailovers).
 */
export function sentinelOptions(target: SentinelTarget): RedisOptions {
  return {
    sentinels: target.sentinels.map((s) => ({ host: s.host, port: s.port })),
    name: target.name,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.db === undefined ? {} : { db: target.db }),
    ...(target.sentinelUsername === undefined ? {} : { sentinelUsername: target.sentinelUsername }),
    ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
    failoverDetector: false,
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
  };
}

/** `host:port` of a Redis URL for messages (the Sentinels' list for a redis+sentinel URL); never the password. */
export function redisAddress(url: string): string {
  try {
    const cluster = parseClusterUrl(url);
    if (cluster !== undefined) return `a cluster via ${cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
    const sentinel = parseSentinelUrl(url);
    if (sentinel !== undefined) {
      return `${sentinel.name} via sentinels ${sentinel.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
    }
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'an unreadable REDIS_URL';
  }
}

/**
 * A connection to the Redis the URL names: `redis://` or `rediss://` for one server,
 * `redis+sentinel://` for the master a group of Sentinels watches (followed through failovers), or
 * `redis+cluster://` for a Redis Cluster. `extra` adds client options (a test's TLS CA, for one).
 *
 * A cluster's client is an ioredis `Cluster`, returned as the `Redis` every caller types it as: it
 * has the commands, scripts (`defineCommand`, `eval`), pipelines and pub/sub the services use, and
 * `isCluster` is true on it. What it does not do, callers check `isCluster` for: a pipeline or
 * multi-key command must stay in one slot (the key layout's hash tags see to it), `SCAN` walks one
 * node (use `redisNodes`), and BullMQ needs a hash tag in its prefix (`bullmqPrefix`).
 */
export function createRedis(url: string, options: CreateRedisOptions, extra: RedisOptions = {}): Redis {
  const redisOptions: RedisOptions = {
    connectionName: options.name,
    maxRetriesPerRequest: options.maxRetriesPerRequest === undefined ? 2 : options.maxRetriesPerRequest,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    enableReadyCheck: true,
    ...extra,
  };
  const cluster = parseClusterUrl(url);
  if (cluster !== undefined) {
    return new Cluster(
      cluster.nodes.map((n) => ({ host: n.host, port: n.port })),
      { ...clusterOptions(cluster, redisOptions), shardedSubscribers: options.shardedSubscribers ?? false },
    ) as unknown as Redis;
  }
  const sentinel = parseSentinelUrl(url);
  if (sentinel !== undefined) {
    const client = new Redis({ ...redisOptions, ...sentinelOptions(sentinel) });
    watchSentinelFailovers(client, sentinel);
    return client;
  }
  return new Redis(url, redisOptions);
}

/** The connections a `SCAN` must walk: each master of a cluster, or the one server. */
export function redisNodes(redis: Redis): Redis[] {
  return redis.isCluster ? (redis as unknown as Cluster).nodes('master') : [redis];
}

/** QUIT, falling back to a hard disconnect when Redis does not answer. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  try {
    await Promise.race([
      redis.quit(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('quit timeout')), 1000).unref()),
    ]);
  } catch {
    redis.disconnect();
  }
}
