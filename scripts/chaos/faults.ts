// The faults a chaos run injects into a local cluster, one function each, so a test can inject one
// at an exact moment and the chaos loop can inject them at random.
import type { Redis } from 'ioredis';
import type { Cluster, GatewayHandle, WorkerHandle } from '../../test/harness/cluster.js';
import { leaseHolder } from '../../test/harness/failover-play.js';
import type { PrivatePostgres } from '../../test/harness/private-postgres.js';
import { pause } from '../../test/harness/wait.js';

/**
 * Fault kinds `npm run chaos -- --faults …` injects. `worker`: a worker SIGKILLed and restarted
 * under its name, and an owner SIGSTOPped past its lease. `gateway`: a gateway SIGKILLed and
 * replaced behind its service (its clients reconnect through the other and resync). `persister`: the
 * persister SIGKILLed mid-batch and restarted (its interrupted jobs run again once their locks
 * lapse, and each hand is written once). `redis`: the cluster's own Redis SIGKILLed and restarted
 * from its disk (every connection of every service drops at once). `postgres`: the cluster's own
 * Postgres stopped as a crash stops it and started again after POSTGRES_DOWNTIME_MS (the lobby
 * answers 503 meanwhile, the persister retries, the tables play on from Redis). `link`: one
 * worker's link to Redis stalled past its lease, then let through.
 */
export const FAULT_KINDS = ['worker', 'gateway', 'persister', 'redis', 'postgres', 'link'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Fault kinds of the design that this chaos does not inject yet: named so a request for one is
 * refused clearly. None now.
 */
export const PLANNED_FAULT_KINDS: readonly string[] = [];

export class FaultListError extends Error {
  override readonly name = 'FaultListError';
}

/** `worker,gateway` → the kinds, in FAULT_KINDS order; throws FaultListError on an unknown or planned kind. */
export function parseFaults(text: string): FaultKind[] {
  const asked = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (asked.length === 0) throw new FaultListError(`--faults needs at least one of: ${FAULT_KINDS.join(', ')}`);
  for (const kind of asked) {
    if (PLANNED_FAULT_KINDS.includes(kind)) {
      throw new FaultListError(
        `--faults ${kind}: not injected yet (this chaos injects ${FAULT_KINDS.join(', ')}); see docs/operations.md, "Chaos"`,
      );
    }
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new FaultListError(`--faults: unknown fault kind "${kind}" (one of: ${FAULT_KINDS.join(', ')})`);
    }
  }
  return FAULT_KINDS.filter((k) => asked.includes(k));
}

/** How long a killed gateway or persister stays down before its replacement starts (a pod restart). */
export const DOWNTIME_MS = 1_000;

/** How long a Postgres restart keeps it down: long enough for the persister's retries to matter. */
export const POSTGRES_DOWNTIME_MS = 3_000;

/**
 * SIGSTOPs the worker holding `tableId`'s lease for `pauseMs` (past its lease and membership), then
 * SIGCONTs it. Resolves when the pause is over; null when nobody holds the lease among `candidates`.
 */
export async function pauseOwner(
  cluster: Cluster,
  redis: Redis,
  tableId: string,
  candidates: readonly WorkerHandle[],
  pauseMs: number,
): Promise<{ owner: WorkerHandle; resumed: Promise<void> } | null> {
  const holder = await leaseHolder(redis, cluster.prefix, tableId);
  const owner = holder ? candidates.find((w) => w.id === holder.workerId) : undefined;
  if (!owner) return null;
  process.kill(owner.proc.pid, 'SIGSTOP');
  const resumed = pause(pauseMs, 'the owner stays stopped past its lease').then(() => {
    if (owner.proc.alive) process.kill(owner.proc.pid, 'SIGCONT');
  });
  return { owner, resumed };
}

/** SIGKILLs a gateway; after DOWNTIME_MS a new one takes its place behind its service. Resolves with the new one. */
export async function killGateway(
  cluster: Cluster,
  victim: GatewayHandle,
  downtimeMs = DOWNTIME_MS,
): Promise<GatewayHandle> {
  await victim.proc.kill('SIGKILL');
  await pause(downtimeMs, 'the gateway is down until its replacement starts');
  return cluster.restartGateway(victim);
}

/** SIGKILLs the persister wherever it is in its batch; after DOWNTIME_MS it starts again. */
export async function killPersister(cluster: Cluster, downtimeMs = DOWNTIME_MS): Promise<void> {
  if (!cluster.persister) throw new Error('the cluster has no persister');
  await cluster.persister.proc.kill('SIGKILL');
  await pause(downtimeMs, 'the persister is down until it restarts');
  await cluster.startPersister();
}

/** Stalls `worker`'s link to Redis for `ms` (the cluster needs `workerLinks`), then lets it through. */
export async function stallLink(cluster: Cluster, worker: WorkerHandle, ms: number): Promise<void> {
  const link = cluster.workerLinks.get(worker.id);
  if (!link) throw new Error(`worker ${worker.id} has no link of its own (start the cluster with workerLinks)`);
  link.stall();
  try {
    await pause(ms, 'the link stays stalled past the lease');
  } finally {
    link.resume();
  }
}

/**
 * Stops the cluster's own Postgres as a crash does, waits `downtimeMs`, and starts it again with
 * its data (crash recovery replays the WAL).
 */
export async function restartPostgres(server: PrivatePostgres, downtimeMs = POSTGRES_DOWNTIME_MS): Promise<void> {
  await server.kill();
  await pause(downtimeMs, 'a Postgres outage of a fixed length: the fault itself');
  await server.startServer();
}
