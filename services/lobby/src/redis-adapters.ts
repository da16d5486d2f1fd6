import { redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { RevocationList, RoomEvent, RoomEventPublisher, WaitlistNotices } from './ports.js';

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

/** Waitlist messages on each player's `P wallet:<userId>` channel, one pipeline per change. */
export class RedisWaitlistNotices implements WaitlistNotices {
  private readonly keys: RedisKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  async send(messages: Parameters<WaitlistNotices['send']>[0]): Promise<void> {
    if (messages.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const m of messages) pipeline.publish(this.keys.wallet(m.userId), JSON.stringify(m.message));
    await pipeline.exec();
  }
}

/** KEYS: revoked:<sid>, revocations:seq. ARGV: sid, TTL (ms), the channel. */
const REVOKE = `
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
local n = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[3], n .. ' ' .. ARGV[1])
return n`;

/** At least a second, so a session that expires this instant is still listed while in flight. */
export function revocationTtlMs(expiresAt: Date, now = Date.now()): number {
  return Math.max(1000, expiresAt.getTime() - now);
}

/**
 * `P {revocations}:revoked:<sid>` keys for the gateways. Postgres (sessions.revoked_at) is written first and is
 * the truth; a key that Redis refused is kept here and written again by the revocation sync's next
 * check, and the completeness marker is dropped (when Redis lets us), so that gateways fail closed
 * instead of trusting an incomplete list.
 *
 * With each key (one script, so atomically), `P {revocations}:seq` is incremented and `<n> <sid>`
 * published on `P sessions-revoked`, n the new count: every gateway ends that session's open sockets
 * at once, and a gateway that missed a message sees the count differ from its last message's and
 * re-reads its open sessions (GATEWAY_SESSION_CHECK_MS).
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

  /** The key, the count and the message to the gateways, in one script; rejects if it did not run. */
  private async write(sessionId: string, expiresAt: Date): Promise<void> {
    await this.redis.eval(
      REVOKE,
      2,
      this.keys.revoked(sessionId),
      this.keys.revocationsSeq,
      sessionId,
      revocationTtlMs(expiresAt),
      this.keys.sessionsRevoked,
    );
  }
}
