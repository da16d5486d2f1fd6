import type { Redis } from 'ioredis';
import { CodedError } from '@felt/engine';

/** How many replicas must confirm a write before it counts, and how long to wait for them. */
export interface ReplicaAcks {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export const NO_REPLICA_ACKS: ReplicaAcks = { replicas: 0, timeoutMs: 0 };

/** Fewer replicas than asked confirmed a write in time: it may be lost in a failover. */
export class ReplicationLagError extends CodedError<'redis_not_replicated'> {
  override readonly name = 'ReplicationLagError';
  constructor(
    readonly wanted: number,
    readonly confirmed: number,
  ) {
    super('redis_not_replicated', `${confirmed} of ${wanted} Redis replicas confirmed the write in time`);
  }
}

/**
 * Waits (`WAIT`) until `acks.replicas` replicas hold every write this connection sent so far, and
 * throws ReplicationLagError when fewer did within `acks.timeoutMs`. Nothing with no replicas asked.
 * Run it on the connection that made the writes: WAIT counts that client's writes only.
 */
export async function replicated(redis: Redis, acks: ReplicaAcks): Promise<void> {
  if (acks.replicas <= 0) return;
  const confirmed = await redis.wait(acks.replicas, acks.timeoutMs);
  if (confirmed < acks.replicas) throw new ReplicationLagError(acks.replicas, confirmed);
}
