import type { Clock } from '../ports.js';
import { systemClock } from './system.js';

/**
 * The tables' leases and fencing epochs of an in-process cluster: what MemoryLeases and
 * MemoryCheckpointStore share, as RedisLeases and RedisCheckpointStore share one Redis
 * (`P lease:<tableId>`, `P epoch:<tableId>`). Leases expire on `clock`.
 */
export class MemoryOwnershipStore {
  private readonly epochs = new Map<string, number>();
  private readonly leases = new Map<string, { value: string; expiresAt: number }>();

  constructor(readonly clock: Clock = systemClock) {}

  /** The table's epoch (0: never acquired). */
  epoch(tableId: string): number {
    return this.epochs.get(tableId) ?? 0;
  }

  /** Increments the table's epoch and returns it (an acquisition). */
  nextEpoch(tableId: string): number {
    const epoch = this.epoch(tableId) + 1;
    this.epochs.set(tableId, epoch);
    return epoch;
  }

  /** Raises the epoch to at least `atLeast`. */
  raiseEpoch(tableId: string, atLeast: number): void {
    if (this.epoch(tableId) < atLeast) this.epochs.set(tableId, atLeast);
  }

  /** The lease's value and the time it has left, or null once it expired (it is then gone). */
  lease(tableId: string): { readonly value: string; readonly ttlMs: number } | null {
    const lease = this.leases.get(tableId);
    if (!lease) return null;
    const ttlMs = lease.expiresAt - this.clock.now();
    if (ttlMs <= 0) {
      this.leases.delete(tableId);
      return null;
    }
    return { value: lease.value, ttlMs };
  }

  setLease(tableId: string, value: string, ttlMs: number): void {
    this.leases.set(tableId, { value, expiresAt: this.clock.now() + ttlMs });
  }

  deleteLease(tableId: string): void {
    this.leases.delete(tableId);
  }
}
