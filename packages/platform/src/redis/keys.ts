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
  worker(workerId: string): string;
  /** channel: worker membership changed; payload = workerId. */
  readonly ring: string;

  // Event fan-out (workers publish, gateways subscribe).

  /** channel: events for everyone at a table (spectator view). */
  table(tableId: string): string;
  /** channel: events for one user (their own view). */
  user(userId: string): string;

  // Table state and ownership (the table's lease holder writes them).

  /** string: the table actor's last checkpoint (JSON), 7-day TTL. */
  tableCheckpoint(tableId: string): string;
  /** list: the table's bounded event buffer for resync (JSON events, oldest first), 7-day TTL. */
  tableEvents(tableId: string): string;
  /**
   * hash {tableSeq, epoch, handId, handNo}, 7-day TTL: written with every checkpoint by the same
   * script, read when the checkpoint itself is missing or corrupt.
   */
  checkpointMark(tableId: string): string;
  /** string `<workerId>|<instance>|<epoch>` with a PX TTL: who serves the table now. */
  lease(tableId: string): string;
  /** integer, no TTL: the table's fencing epoch, incremented on every lease acquisition; only grows. */
  epoch(tableId: string): string;
  /** string "1": an operator runs this room as a bot-only table. */
  botsOnly(tableId: string): string;
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
  wallet(userId: string): string;
  /** string "1" with TTL (the session's remaining life): the session was revoked. */
  revoked(sessionId: string): string;
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
  rateLimit(limit: RateLimitName): string;
  /**
   * The key prefix of a limit's strikes (how often `<key>` was blocked in the last day, which doubles
   * its next block): `P rl:<limit>:strikes:<key>`.
   */
  rateLimitStrikes(limit: RateLimitName): string;

  // The persister.

  /** channel: the outcome of each hands-queue job (@felt/platform `PersistOutcome`). */
  readonly persistOutcomes: string;
  /**
   * string (the job id), 10-minute TTL: the hand job `handNo` of a room, napping in the delayed set
   * until hand `handNo - 1` is written, which wakes it.
   */
  persistWait(roomId: string, handNo: number): string;

  // The scheduled money audit (the persister runs it).

  /** string (the runner's id), PX about one period: the replica running this period's audit. */
  readonly auditLock: string;
  /** hash {finishedAt (unix s), violations, ok}: the last scheduled audit's result, no TTL. */
  readonly auditLast: string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    workers: `${prefix}workers`,
    worker: (id) => `${prefix}worker:${id}`,
    ring: `${prefix}ring`,
    table: (id) => `${prefix}table:${id}`,
    user: (id) => `${prefix}user:${id}`,
    tableCheckpoint: (id) => `${prefix}checkpoint:${id}`,
    tableEvents: (id) => `${prefix}events:${id}`,
    checkpointMark: (id) => `${prefix}checkpoint-mark:${id}`,
    lease: (id) => `${prefix}lease:${id}`,
    epoch: (id) => `${prefix}epoch:${id}`,
    botsOnly: (id) => `${prefix}bots-only:${id}`,
    tableOps: `${prefix}table-ops`,
    roomEvents: `${prefix}room-events`,
    lobbyFeed: `${prefix}lobby-feed`,
    lobbyFeedRooms: `${prefix}lobby-feed:rooms`,
    lobbyFeedLock: `${prefix}lobby-feed:lock`,
    lobbyFeedWatchers: `${prefix}lobby-feed:watchers`,
    lobbyFeedWallets: `${prefix}lobby-feed:wallets`,
    wallet: (id) => `${prefix}wallet:${id}`,
    revoked: (sid) => `${prefix}revoked:${sid}`,
    sessionsRevoked: `${prefix}sessions-revoked`,
    revocationsSeq: `${prefix}revocations:seq`,
    revocationsLoaded: `${prefix}revocations:loaded`,
    revocationsLoading: `${prefix}revocations:loading`,
    rateLimit: (limit) => `${prefix}rl:${limit}`,
    rateLimitStrikes: (limit) => `${prefix}rl:${limit}:strikes`,
    persistOutcomes: `${prefix}persist-outcomes`,
    persistWait: (roomId, handNo) => `${prefix}persist-wait:${roomId}:${handNo}`,
    auditLock: `${prefix}audit:lock`,
    auditLast: `${prefix}audit:last`,
  };
}

/**
 * BullMQ's prefix for the hands queue. BullMQ joins its prefix and queue name with a colon itself,
 * so the Felt prefix goes in without its trailing colon: `felt:` gives keys `felt:hands:...`.
 */
export function bullmqPrefix(prefix: string): string {
  const trimmed = prefix.replace(/:+$/, '');
  return trimmed.length > 0 ? trimmed : 'felt';
}
