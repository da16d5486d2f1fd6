/**
 * The abuse limits of the lobby that Redis keeps (rate-limiter-flexible), each under its own key
 * prefix `P rl:<limit>`: log-ins per user name and per address, sign-ups per address, joins by code
 * that seat nobody per user and per address, and the sign-up grants per address per day.
 */
export const RateLimitName = {
  LOGIN_NAME: 'login-name',
  LOGIN_ADDRESS: 'login-addr',
  SIGNUP_ADDRESS: 'signup-addr',
  JOIN_USER: 'join-user',
  JOIN_ADDRESS: 'join-addr',
  GRANTS_ADDRESS: 'grants-addr',
  WAITLIST_USER: 'waitlist-user',
  TOURNAMENT_USER: 'tournament-user',
} as const;
export type RateLimitName = (typeof RateLimitName)[keyof typeof RateLimitName];

/**
 * Every Redis key and channel name of every service, per docs/dev/contracts.md ("Redis layout").
 * `prefix` is FELT_REDIS_PREFIX and is prepended verbatim (it normally ends with a colon); BullMQ's
 * queue keys are the one exception, see `bullmqPrefix`. Nothing else in the repository's services
 * spells a key: a new key is added here, documented, and listed in the contracts table.
 */
export interface RedisKeys {
  // Worker membership (packages/platform/src/registry).

  /** zset member=workerId score=expiry (ms, Redis clock): the live workers. */
  readonly workers: string;
  /** hash {addr, httpAddr, startedAt, draining}: where to dial a worker. */
  readonly worker: (workerId: string) => string;
  /** channel: worker membership changed; payload = workerId. */
  readonly ring: string;

  // Event fan-out (workers publish, gateways subscribe).

  /** channel: events for everyone at a table (spectator view). */
  readonly table: (tableId: string) => string;
  /**
   * channel: events for one user at one table (their own view). Under the table's hash tag, so that
   * all of a table's channels live on one shard and its events reach a gateway in the order published.
   */
  readonly userAtTable: (tableId: string, userId: string) => string;

  // Table state and ownership (the table's lease holder writes them).

  /** string: the table actor's last checkpoint (JSON), 7-day TTL. */
  readonly tableCheckpoint: (tableId: string) => string;
  /** list: the table's bounded event buffer for resync (JSON events, oldest first), 7-day TTL. */
  readonly tableEvents: (tableId: string) => string;
  /**
   * hash {tableSeq, epoch, handId, handNo}, 7-day TTL: written with every checkpoint by the same
   * script, read when the checkpoint itself is missing or corrupt.
   */
  readonly checkpointMark: (tableId: string) => string;
  /** string `<workerId>|<instance>|<epoch>` with a PX TTL: who serves the table now. */
  readonly lease: (tableId: string) => string;
  /** integer, no TTL: the table's fencing epoch, incremented on every lease acquisition; only grows. */
  readonly epoch: (tableId: string) => string;
  /** string "1": an operator runs this room as a bot-only table. */
  readonly botsOnly: (tableId: string) => string;
  /** channel: operator commands to tables, `{"room_id"}` (refresh the room; start a bot-only table). */
  readonly tableOps: string;

  // Lobby.

  /** channel: lobby membership changes (`room-events`), published after the transaction commits. */
  readonly roomEvents: string;
  /** channel: the live lobby's list changes (`lobby_delta` JSON), published by the feed's leader. */
  readonly lobbyFeed: string;
  /** string: the live lobby's current list (`lobby_rooms` JSON), written before each delta. */
  readonly lobbyFeedRooms: string;
  /** string with PX TTL: the lobby replica computing the feed (its token). */
  readonly lobbyFeedLock: string;
  /** sorted set: users with the live lobby open, scored by when their gateway's last word expires. */
  readonly lobbyFeedWatchers: string;
  /** hash: userId -> wallet balance, as last published, for the users watching. */
  readonly lobbyFeedWallets: string;
  /** channel: one user's wallet balance changed (`wallet` JSON). */
  readonly wallet: (userId: string) => string;
  /** string "1" with TTL (the session's remaining life): the session was revoked. */
  readonly revoked: (sessionId: string) => string;
  /**
   * channel: a session was revoked; payload = `<n> <sessionId>`, n the `revocations:seq` it took.
   * Published by the lobby in the script that writes `revoked:<sid>`, so that gateways close that
   * session's open sockets at once.
   */
  readonly sessionsRevoked: string;
  /**
   * integer, no TTL: how many revocations were published on `sessions-revoked`. A gateway whose
   * last message's number differs from it missed one, and re-reads its open sessions.
   */
  readonly revocationsSeq: string;
  /** string (no TTL), an ISO time: the `revoked:` keys are complete (gateways fail closed without it). */
  readonly revocationsLoaded: string;
  /** string with PX TTL: the token of the lobby replica reloading the revocation keys from Postgres. */
  readonly revocationsLoading: string;
  /**
   * rate-limiter-flexible's key prefix of one limit: the library stores the count of `<key>` (a user
   * name, an address, a user id) at `P rl:<limit>:<key>`.
   */
  readonly rateLimit: (limit: RateLimitName) => string;
  /**
   * The key prefix of a limit's strikes (how often `<key>` was blocked in the last day, which doubles
   * its next block): `P rl:<limit>:strikes:<key>`.
   */
  readonly rateLimitStrikes: (limit: RateLimitName) => string;

  // The persister.

  /** channel: the outcome of each hands-queue job (@felt/platform `PersistOutcome`). */
  readonly persistOutcomes: string;
  /**
   * string (the job id), 10-minute TTL: the hand job `handNo` of a room, napping in the delayed set
   * until hand `handNo - 1` is written, which wakes it.
   */
  readonly persistWait: (roomId: string, handNo: number) => string;

  // The scheduled money audit (the persister runs it).

  /** string (the runner's id), PX about one period: the replica running this period's audit. */
  readonly auditLock: string;
  /** hash {finishedAt (unix s), violations, ok}: the last scheduled audit's result, no TTL. */
  readonly auditLast: string;

  /** string, no TTL: the key layout's version (`REDIS_LAYOUT`), set by the first service to start. */
  readonly layout: string;
}

/**
 * The version of the key layout `redisKeys` spells, kept in Redis at `P layout` (layout.ts). Layout 1
 * (no `P layout` key) spelled every key `P <kind>:<id>`; layout 2 puts every key that a script
 * touches together with another under one hash tag, so that each script touches one slot of a Redis
 * Cluster: a table's keys and channels under `{table:<id>}` (its users' channels too), the
 * worker registry under `{workers}`, the live lobby's keys under `{lobby-feed}` and the revocation keys
 * under `{revocations}`. `npm run redis:migrate` moves a layout-1 Redis to layout 2.
 */
export const REDIS_LAYOUT = 2;

export function redisKeys(prefix: string): RedisKeys {
  const table = (id: string): string => `${prefix}{table:${id}}:`;
  return {
    workers: `${prefix}{workers}:live`,
    worker: (id) => `${prefix}{workers}:worker:${id}`,
    ring: `${prefix}ring`,
    table: (id) => `${table(id)}channel`,
    userAtTable: (tableId, userId) => `${table(tableId)}user:${userId}`,
    tableCheckpoint: (id) => `${table(id)}checkpoint`,
    tableEvents: (id) => `${table(id)}events`,
    checkpointMark: (id) => `${table(id)}checkpoint-mark`,
    lease: (id) => `${table(id)}lease`,
    epoch: (id) => `${table(id)}epoch`,
    botsOnly: (id) => `${table(id)}bots-only`,
    tableOps: `${prefix}table-ops`,
    roomEvents: `${prefix}room-events`,
    lobbyFeed: `${prefix}lobby-feed`,
    lobbyFeedRooms: `${prefix}{lobby-feed}:rooms`,
    lobbyFeedLock: `${prefix}{lobby-feed}:lock`,
    lobbyFeedWatchers: `${prefix}{lobby-feed}:watchers`,
    lobbyFeedWallets: `${prefix}{lobby-feed}:wallets`,
    wallet: (id) => `${prefix}wallet:${id}`,
    revoked: (sid) => `${prefix}{revocations}:revoked:${sid}`,
    sessionsRevoked: `${prefix}sessions-revoked`,
    revocationsSeq: `${prefix}{revocations}:seq`,
    revocationsLoaded: `${prefix}{revocations}:loaded`,
    revocationsLoading: `${prefix}{revocations}:loading`,
    rateLimit: (limit) => `${prefix}rl:${limit}`,
    rateLimitStrikes: (limit) => `${prefix}rl:${limit}:strikes`,
    persistOutcomes: `${prefix}persist-outcomes`,
    persistWait: (roomId, handNo) => `${prefix}persist-wait:${roomId}:${handNo}`,
    auditLock: `${prefix}audit:lock`,
    auditLast: `${prefix}audit:last`,
    layout: `${prefix}layout`,
  };
}

/**
 * The id a key of one kind was spelled with (`spell` is that kind, such as `keys.botsOnly`), for a key
 * a SCAN with `spell('*')` found; null for a key of another shape.
 */
export function idInKey(spell: (id: string) => string, key: string): string | null {
  const [head = '', tail = ''] = spell('\u0000').split('\u0000');
  if (key.length < head.length + tail.length || !key.startsWith(head) || !key.endsWith(tail)) return null;
  return key.slice(head.length, key.length - tail.length);
}

/**
 * The keys layout 1 spelled differently from layout 2, for `npm run redis:migrate` (layout.ts) and
 * nothing else: the per-table keys as `P <kind>:<id>` (`kinds`, matched with `P <kind>:*`), and the
 * fixed keys by their old names (`fixed`: old name → the layout-2 key). The keys both layouts spell
 * alike (rate limits, persist-wait, audit, the channels other than a table's and a user's) are not
 * listed; channels hold nothing to move.
 */
export function layoutOneKeys(prefix: string): {
  /** The worker registry's zset (layout 2: `P {workers}:live`), also listed in `fixed`. */
  readonly workers: string;
  readonly tableKinds: readonly { readonly old: string; readonly to: (tableId: string) => string }[];
  readonly workerHashes: { readonly old: string; readonly to: (workerId: string) => string };
  readonly revoked: { readonly old: string; readonly to: (sessionId: string) => string };
  readonly fixed: readonly { readonly old: string; readonly to: string }[];
} {
  const k = redisKeys(prefix);
  const workers = `${prefix}workers`;
  return {
    workers,
    // `checkpoint-mark:` before `checkpoint:` does not matter (their patterns do not overlap), but the
    // order is the one the worker writes them in.
    tableKinds: [
      { old: `${prefix}epoch:`, to: k.epoch },
      { old: `${prefix}lease:`, to: k.lease },
      { old: `${prefix}checkpoint:`, to: k.tableCheckpoint },
      { old: `${prefix}events:`, to: k.tableEvents },
      { old: `${prefix}checkpoint-mark:`, to: k.checkpointMark },
      { old: `${prefix}bots-only:`, to: k.botsOnly },
    ],
    workerHashes: { old: `${prefix}worker:`, to: k.worker },
    revoked: { old: `${prefix}revoked:`, to: k.revoked },
    fixed: [
      { old: workers, to: k.workers },
      { old: `${prefix}revocations:seq`, to: k.revocationsSeq },
      { old: `${prefix}revocations:loaded`, to: k.revocationsLoaded },
      { old: `${prefix}revocations:loading`, to: k.revocationsLoading },
      { old: `${prefix}lobby-feed:rooms`, to: k.lobbyFeedRooms },
      { old: `${prefix}lobby-feed:lock`, to: k.lobbyFeedLock },
      { old: `${prefix}lobby-feed:watchers`, to: k.lobbyFeedWatchers },
      { old: `${prefix}lobby-feed:wallets`, to: k.lobbyFeedWallets },
    ],
  };
}

/**
 * BullMQ's prefix for the hands queue. BullMQ joins its prefix and queue name with a colon itself,
 * so the Felt prefix goes in without its trailing colon: `felt:` gives keys `felt:hands:...`. On a
 * Redis Cluster every key of a queue must share a slot, which BullMQ leaves to a hash tag in its
 * prefix: `{felt}` gives keys `{felt}:hands:...` (a single node keeps the untagged keys, so that an
 * installed Redis's queued jobs stay where its persister reads them).
 */
export function bullmqPrefix(prefix: string, cluster = false): string {
  const trimmed = prefix.replace(/:+$/, '');
  const name = trimmed.length > 0 ? trimmed : 'felt';
  return cluster ? `{${name}}` : name;
}
