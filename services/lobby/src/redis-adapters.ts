import { redisKeys, type Redis } from '@felt/platform';
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

export class RedisRevocationList implements RevocationList {
  private readonly keys: ReturnType<typeof redisKeys>;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  async revoke(sessionId: string, expiresAt: Date): Promise<void> {
    // At least a second, so a session that expires this instant is still listed while in flight.
    const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
    await this.redis.set(this.keys.revoked(sessionId), '1', 'PX', ttlMs);
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(this.keys.revoked(sessionId))) === 1;
  }
}
