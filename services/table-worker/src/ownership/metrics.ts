import { Counter, Gauge, type Registry } from 'prom-client';
import type { LossReason, OwnershipMetrics } from './table-ownership.js';

/** Lease and fencing metrics (docs/operations.md, "Failover"). */
export function createOwnershipMetrics(registry: Registry, heldLeases: () => number): OwnershipMetrics {
  new Gauge({
    name: 'felt_worker_leases_held',
    help: 'Table leases this worker holds',
    registers: [registry],
    collect() {
      this.set(heldLeases());
    },
  });
  const acquired = new Counter({
    name: 'felt_worker_lease_acquisitions_total',
    help: 'Table leases acquired (each with a new epoch)',
    registers: [registry],
  });
  const lost = new Counter<'reason'>({
    name: 'felt_worker_leases_lost_total',
    help: 'Tables this worker stopped serving because their lease was lost, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const staleWrites = new Counter({
    name: 'felt_worker_stale_writes_refused_total',
    help: 'Checkpoint writes refused because their lease epoch was stale',
    registers: [registry],
  });
  return {
    acquired: { inc: () => acquired.inc() },
    lost: { inc: (labels: { reason: LossReason }) => lost.inc(labels) },
    staleWrites: { inc: () => staleWrites.inc() },
  };
}
