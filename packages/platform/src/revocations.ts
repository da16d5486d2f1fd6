import type { Redis } from 'ioredis';
import { revokedSessionKey } from './auth/session-token.js';
import { redisKeys } from './redis/keys.js';

/**
 * Durable logout, as the gateways see it. The lobby's `sessions` rows (revoked_at) are the truth;
 * Redis holds a cache of them for the gateways, which never call the database:
 *
 * - `P {revocations}:revoked:<sid>`: the session was revoked (TTL: the session's remaining life);
 * - `P {revocations}:loaded` (no TTL): the revoked keys are complete. Each lobby replica checks it
 *   at start and every few seconds, and when it is missing (Redis restarted without persistence,
 *   was flushed, or evicted it) reloads every revoked, unexpired session from Postgres and then sets
 *   it again.
 *
 * Without the marker, a missing `{revocations}:revoked:<sid>` proves nothing, so a reader must fail closed.
 */
export const RevocationState = {
  /** The session was revoked (logout, log out everywhere). */
  REVOKED: 'revoked',
  /** Not revoked, and the revocation keys are known to be complete. */
  LIVE: 'live',
  /** Not listed, but the list is incomplete (no marker): refuse until a lobby has reloaded it. */
  UNKNOWN: 'unknown',
} as const;
export type RevocationState = (typeof RevocationState)[keyof typeof RevocationState];

/**
 * `P {revocations}:loaded` (`redisKeys(prefix).revocationsLoaded`): present (no TTL) while the
 * revocation keys are complete.
 */
export function revocationsLoadedKey(prefix: string): string {
  return redisKeys(prefix).revocationsLoaded;
}

/**
 * `P {revocations}:loading` (`redisKeys(prefix).revocationsLoading`): the token of the lobby replica
 * reloading the keys. A flush during the reload deletes it, and the replica then does not set the
 * marker (it reloads again instead).
 */
export function revocationsLoadingKey(prefix: string): string {
  return redisKeys(prefix).revocationsLoading;
}

/** The state of one session: one MULTI of two EXISTS, so both are read at the same instant. */
export async function revocationState(redis: Redis, prefix: string, sessionId: string): Promise<RevocationState> {
  const [state] = await revocationStates(redis, prefix, [sessionId]);
  return state ?? RevocationState.UNKNOWN;
}

/**
 * The states of many sessions in one round trip (a gateway re-checking its open sockets). Rejects
 * when Redis does not answer; the caller fails closed.
 */
export async function revocationStates(
  redis: Redis,
  prefix: string,
  sessionIds: readonly string[],
): Promise<RevocationState[]> {
  if (sessionIds.length === 0) return [];
  const multi = redis.multi().exists(revocationsLoadedKey(prefix));
  for (const sid of sessionIds) multi.exists(revokedSessionKey(prefix, sid));
  const results = await multi.exec();
  if (!results) throw new Error('revocation check aborted');
  const counts = results.map(([err, n]) => {
    if (err) throw err;
    return Number(n);
  });
  const loaded = counts[0] === 1;
  return sessionIds.map((_, i) => {
    if (counts[i + 1] === 1) return RevocationState.REVOKED;
    return loaded ? RevocationState.LIVE : RevocationState.UNKNOWN;
  });
}
