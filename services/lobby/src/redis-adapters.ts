import { redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { RevocationList, RoomEvent, RoomEventPublisher } from './ports.js';

export class RedisRoomEventPublisher implements RoomEventPublisher {
  private readonly channel: string;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.channel = redisKeys(prefix).roomEvents;
  }

  async publish(event: RoomEvent): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(event));
  }
}

/** At least a second, so a session that expires this instant is still listed while in flight. */
export function revocationTtlMs(expiresAt: Date, now = Date.now()): number {
  return Math.max(1000, expiresAt.getTime() - now);
}

/**
 * `P revoked:<sid>` keys for the gateways. Postgres (sessions.revoked_at) is written first and is
 * the truth; a key that Redis refused is kept here and written again by the revocation sync's next
 * check, and the completeness marker is dropped (when Redis lets us), so that gateways fail closed
 * instead of trusting an incomplete list.
 *
 * With each key, the session id is published on `P sessions-revoked` (in the same MULTI), so that
 * every gateway ends that session's open sockets at once; a gateway that missed the message finds
 * the key at its next sweep (GATEWAY_SESSION_CHECK_MS).
 */
export class RedisRevocationList implements RevocationList {
  private readonly keys: RedisKeys;
  private readonly pending = new Map<string, Date>();

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  async revoke(sessionId: string, expiresAt: Date): Promise<void> {
    try {
      await this.write(sessionId, expiresAt);
      this.pending.delete(sessionId);
    } catch {
      this.pending.set(sessionId, expiresAt);
      await this.redis.del(this.keys.revocationsLoaded).catch(() => undefined);
    }
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.revoked(sessionId))) === 1;
  }

  /** Revocations Redis refused so far. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes the revocations Redis refused earlier; rejects (keeping them) while it still refuses. */
  async retryPending(): Promise<void> {
    for (const [sessionId, expiresAt] of [...this.pending]) {
      if (expiresAt.getTime() <= Date.now()) {
        this.pending.delete(sessionId);
        continue;
      }
      await this.write(sessionId, expiresAt);
      this.pending.delete(sessionId);
    }
  }

  /** The key, and the message to the gateways, in one round trip; rejects if the key was not written. */
  private async write(sessionId: string, expiresAt: Date): Promise<void> {
    const results = await this.redis
      .multi()
      .set(this.keys.revoked(sessionId), '1', 'PX', revocationTtlMs(expiresAt))
      .publish(this.keys.sessionsRevoked, sessionId)
      .exec();
    if (!results) throw new Error('revocation aborted');
    const [setErr] = results[0] ?? [new Error('revocation not written')];
    if (setErr) throw setErr;
  }
}
