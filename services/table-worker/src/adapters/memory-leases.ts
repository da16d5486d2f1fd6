import type { AcquireResult, LeaseGrant, LeaseHolder, TableLeases } from '../ports.js';
import { leaseValue, parseLeaseHolder } from './lease-value.js';
import type { MemoryOwnershipStore } from './memory-ownership.js';

export interface MemoryLeaseOptions {
  /** Shared by every worker of the in-process cluster (and its checkpoint store, for fencing). */
  readonly store: MemoryOwnershipStore;
  readonly workerId: string;
  /** Distinguishes this process from an earlier one with the same worker id. */
  readonly instance: string;
  readonly ttlMs: number;
}

/** Table leases in memory, with the same rules as RedisLeases (see TableLeases). */
export class MemoryLeases implements TableLeases {
  constructor(private readonly options: MemoryLeaseOptions) {}

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  get workerId(): string {
    return this.options.workerId;
  }

  acquire(tableId: string): Promise<AcquireResult> {
    const { store, workerId, instance, ttlMs } = this.options;
    const current = store.lease(tableId);
    if (current) {
      const holder = parseLeaseHolder(current.value, current.ttlMs);
      if (holder.workerId !== workerId) return Promise.resolve({ acquired: false, holder });
    }
    const epoch = store.nextEpoch(tableId);
    const value = leaseValue(workerId, instance, epoch);
    store.setLease(tableId, value, ttlMs);
    return Promise.resolve({ acquired: true, grant: { tableId, epoch, value } });
  }

  renew(grants: readonly LeaseGrant[]): Promise<boolean[]> {
    const { store, ttlMs } = this.options;
    return Promise.resolve(
      grants.map((g) => {
        if (store.lease(g.tableId)?.value !== g.value) return false;
        store.setLease(g.tableId, g.value, ttlMs);
        return true;
      }),
    );
  }

  release(grant: LeaseGrant): Promise<boolean> {
    const { store } = this.options;
    if (store.lease(grant.tableId)?.value !== grant.value) return Promise.resolve(false);
    store.deleteLease(grant.tableId);
    return Promise.resolve(true);
  }

  holder(tableId: string): Promise<LeaseHolder | null> {
    const current = this.options.store.lease(tableId);
    return Promise.resolve(current ? parseLeaseHolder(current.value, current.ttlMs) : null);
  }

  raiseEpoch(tableId: string, atLeast: number): Promise<void> {
    this.options.store.raiseEpoch(tableId, atLeast);
    return Promise.resolve();
  }

  epoch(tableId: string): Promise<number> {
    return Promise.resolve(this.options.store.epoch(tableId));
  }
}
