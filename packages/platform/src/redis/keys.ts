/**
 * Every Redis key and channel name, per docs/dev/contracts.md. `prefix` is FELT_REDIS_PREFIX and
 * is prepended verbatim (it normally ends with a colon).
 */
export interface RedisKeys {
  /** zset member=workerId score=expiry (ms, Redis clock). */
  readonly workers: string;
  /** hash {addr, httpAddr, startedAt, draining}. */
  worker(workerId: string): string;
  /** channel: worker membership changed; payload = workerId. */
  readonly ring: string;
  /** channel: events for everyone at a table (spectator view). */
  table(tableId: string): string;
  /** channel: events for one user (their own view). */
  user(userId: string): string;
  /** string with TTL: the session was revoked. */
  revoked(sessionId: string): string;
  /** channel: lobby membership changes. */
  readonly roomEvents: string;
  /** string: the table actor's last checkpoint (JSON). */
  tableCheckpoint(tableId: string): string;
  /** list: the table's bounded event buffer for resync (JSON events, oldest first). */
  tableEvents(tableId: string): string;
  /** string: an operator runs this room as a bot-only table ("1"). */
  botsOnly(tableId: string): string;
  /** channel: operator commands to tables, `{"room_id","type":"refresh"}`. */
  readonly tableOps: string;
}

export function redisKeys(prefix: string): RedisKeys {
  return {
    workers: `${prefix}workers`,
    worker: (id) => `${prefix}worker:${id}`,
    ring: `${prefix}ring`,
    table: (id) => `${prefix}table:${id}`,
    user: (id) => `${prefix}user:${id}`,
    revoked: (sid) => `${prefix}revoked:${sid}`,
    roomEvents: `${prefix}room-events`,
    tableCheckpoint: (id) => `${prefix}checkpoint:${id}`,
    tableEvents: (id) => `${prefix}events:${id}`,
    botsOnly: (id) => `${prefix}bots-only:${id}`,
    tableOps: `${prefix}table-ops`,
  };
}

/**
 * BullMQ joins its prefix and queue name with a colon itself, so the Felt prefix goes in without its
 * trailing colon: `felt:` gives keys `felt:hands:...`.
 */
export function bullmqPrefix(prefix: string): string {
  const trimmed = prefix.replace(/:+$/, '');
  return trimmed.length > 0 ? trimmed : 'felt';
}
