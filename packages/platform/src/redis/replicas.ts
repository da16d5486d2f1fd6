import type { Cluster, Redis } from 'ioredis';
import calculateSlot from 'cluster-key-slot';
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

/** One connection's WAITs: the one on the wire, and the next, which every caller until it is sent shares. */
interface Waits {
  inFlight: Promise<unknown> | undefined;
  next: Promise<number> | undefined;
}

const waitsOf = new WeakMap<Redis, Waits>();

/**
 * Waits (`WAIT`) until `acks.replicas` replicas hold every write this connection sent so far, and
 * throws ReplicationLagError when fewer did within `acks.timeoutMs`. Nothing with no replicas asked.
 * Run it on the connection that made the writes: WAIT counts that client's writes only.
 *
 * On a Redis Cluster `key` names the write's slot (any key of its hash tag): WAIT goes to the
 * connection the cluster client keeps to that slot's master, the one that carried the write, and
 * counts that master's replicas. A slot whose master the client does not know (a failover under way)
 * throws ReplicationLagError: the write is not known to be safe.
 *
 * WAIT blocks its connection until it returns, so the callers share them: one WAIT at a time on a
 * connection, and every caller that comes while it is out shares the one sent after it (which
 * covers all their writes). However many tables save at once, a connection waits for at most two
 * WAITs, not one per save, when the replicas lag.
 */
export function replicated(client: Redis, acks: ReplicaAcks, key?: string): Promise<void> {
  if (acks.replicas <= 0) return Promise.resolve();
  if (client.isCluster && key === undefined) {
    return Promise.reject(new Error('replicated: a Redis Cluster needs the key of the write'));
  }
  const redis = client.isCluster ? masterConnectionOf(client as unknown as Cluster, key) : client;
  if (redis === undefined) return Promise.reject(new ReplicationLagError(acks.replicas, 0));
  let waits = waitsOf.get(redis);
  if (waits === undefined) {
    waits = { inFlight: undefined, next: undefined };
    waitsOf.set(redis, waits);
  }
  if (waits.next === undefined) {
    const w = waits;
    const previous = w.inFlight ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => {
        // Sent now: later callers need a WAIT of their own, after this one.
        w.next = undefined;
        return redis.wait(acks.replicas, acks.timeoutMs);
      });
    w.next = next;
    w.inFlight = next;
    void next.then(
      () => (w.inFlight === next ? (w.inFlight = undefined) : undefined),
      () => (w.inFlight === next ? (w.inFlight = undefined) : undefined),
    );
  }
  return waits.next!.then((confirmed) => {
    if (confirmed < acks.replicas) throw new ReplicationLagError(acks.replicas, confirmed);
  });
}

/** The cluster client's own connection to the master of `key`'s slot, or undefined when unknown. */
function masterConnectionOf(cluster: Cluster, key: string | undefined): Redis | undefined {
  if (key === undefined) return undefined;
  const master = cluster.slots[calculateSlot(key)]?.[0];
  if (master === undefined) return undefined;
  return cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === master);
}
