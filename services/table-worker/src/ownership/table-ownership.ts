import { performance } from 'node:perf_hooks';
import { CodedError } from '@felt/engine';
import type { Logger } from '@felt/platform';
import type { LeaseGrant, TableLeases } from '../ports.js';

/** A request for a table this worker does not (or no longer) serve; `ownerId` is its best guess. */
export class NotOwnerError extends CodedError<'not_owner'> {
  override readonly name = 'NotOwnerError';
  constructor(
    readonly tableId: string,
    /** The worker believed to own the table ('' when unknown). */
    readonly ownerId: string,
    readonly reason: string,
  ) {
    super('not_owner', `table ${tableId} is not served here (${reason})${ownerId ? `; owner ${ownerId}` : ''}`);
  }
}

/** Why this worker stopped serving a table. */
export type LossReason = 'stale_epoch' | 'renew_refused' | 'renew_failed' | 'expired';

/**
 * One acquisition of one table's lease. The actor created under it writes its checkpoints with
 * this epoch; once `lost`, every further write is refused here, before it reaches Redis.
 */
export class HeldLease {
  lost: LossReason | null = null;
  released = false;
  /** The monotonic clock's reading when the last successful acquisition or renewal was sent. */
  confirmedAt: number;

  constructor(
    readonly grant: LeaseGrant,
    sentAt: number,
  ) {
    this.confirmedAt = sentAt;
  }

  get tableId(): string {
    return this.grant.tableId;
  }

  get epoch(): number {
    return this.grant.epoch;
  }
}

export interface OwnershipMetrics {
  readonly acquired: { inc(): void };
  readonly lost: { inc(labels: { reason: LossReason }): void };
  readonly staleWrites: { inc(): void };
}

export interface TableOwnershipOptions {
  readonly leases: TableLeases;
  readonly logger: Logger;
  /** How long an acquisition waits for a lease held elsewhere to be released or expire. */
  readonly acquireWaitMs: number;
  readonly metrics?: OwnershipMetrics;
  /**
   * The monotonic clock leases are timed by, in ms (default `performance.now`): never the wall
   * clock, which can jump. Tests inject one to make a lease lapse without waiting.
   */
  readonly monotonicNow?: () => number;
}

const POLL_MS = 50;

/**
 * The leases of the tables this worker serves: acquired before an actor is created, renewed every
 * ttl/3 in one round trip, released on eviction and on drain. A lease that cannot be renewed in
 * time (refused: another worker holds it; or Redis did not answer before the lease could have
 * expired) is lost: the table's actor is evicted at once and its writes are refused.
 */
export class TableOwnership {
  private readonly held = new Map<string, HeldLease>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  private readonly lostListeners = new Set<(lease: HeldLease, reason: LossReason) => void>();

  private readonly now: () => number;

  constructor(private readonly options: TableOwnershipOptions) {
    this.now = options.monotonicNow ?? (() => performance.now());
  }

  get workerId(): string {
    return this.options.leases.workerId;
  }

  get ttlMs(): number {
    return this.options.leases.ttlMs;
  }

  /** Leases held now (not lost, not released). */
  get size(): number {
    return this.held.size;
  }

  heldLease(tableId: string): HeldLease | undefined {
    return this.held.get(tableId);
  }

  onLost(listener: (lease: HeldLease, reason: LossReason) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        void this.renewAll();
      },
      Math.max(10, Math.floor(this.ttlMs / 3)),
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Acquires the table's lease, waiting up to acquireWaitMs for another holder to release it or
   * for it to expire. Throws NotOwnerError naming the holder when it stays held.
   */
  async acquire(tableId: string): Promise<HeldLease> {
    const existing = this.held.get(tableId);
    if (existing && !this.lapsed(existing)) return existing;
    const deadline = this.now() + this.options.acquireWaitMs;
    for (;;) {
      const sentAt = this.now();
      const r = await this.options.leases.acquire(tableId);
      if (r.acquired) {
        const lease = new HeldLease(r.grant, sentAt);
        const before = this.held.get(tableId);
        if (before) this.lose(before, 'stale_epoch');
        this.held.set(tableId, lease);
        this.options.metrics?.acquired.inc();
        this.options.logger.info({ event: 'lease_acquired', tableId, epoch: r.grant.epoch }, 'table lease acquired');
        return lease;
      }
      const wait = Math.min(POLL_MS, Math.max(1, r.holder.ttlMs));
      if (this.now() + wait > deadline) {
        throw new NotOwnerError(tableId, r.holder.workerId, `lease held by ${r.holder.workerId}`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Whether the lease may have expired in Redis by now: no renewal confirmed in time. */
  lapsed(lease: HeldLease): boolean {
    if (lease.lost !== null || lease.released) return true;
    // A margin for Redis's and this process's clocks drifting apart while the lease runs.
    return this.now() - lease.confirmedAt > this.ttlMs * 0.8;
  }

  /** Throws NotOwnerError unless `lease` still allows writes (a lapsed one is lost at once). */
  check(lease: HeldLease): void {
    if (lease.lost === null && !lease.released && this.lapsed(lease)) this.lose(lease, 'expired');
    if (lease.lost !== null || lease.released) {
      throw new NotOwnerError(lease.tableId, '', lease.lost ?? 'lease released');
    }
  }

  /** A checkpoint write with this lease was refused by the epoch compare-and-set. */
  staleWrite(lease: HeldLease, current: number): void {
    this.options.metrics?.staleWrites.inc();
    this.options.logger.warn(
      { event: 'stale_write_refused', tableId: lease.tableId, epoch: lease.epoch, current },
      'checkpoint refused: another worker owns this table',
    );
    this.lose(lease, 'stale_epoch');
  }

  /**
   * A Postgres write with this lease was refused: Postgres saw epoch `current`, above this one. The
   * lease is lost like after a refused checkpoint, and the table's epoch counter is raised to it, so
   * that the next acquisition passes the fence (a Redis that lost its counters would otherwise climb
   * back one refused epoch at a time).
   */
  async staleDbWrite(lease: HeldLease, current: number): Promise<void> {
    this.staleWrite(lease, current);
    try {
      await this.options.leases.raiseEpoch(lease.tableId, current);
    } catch (err) {
      this.options.logger.warn({ err, tableId: lease.tableId }, 'epoch counter not raised');
    }
  }

  /** Gives one lease up (after its actor stopped). */
  async release(lease: HeldLease): Promise<void> {
    if (this.held.get(lease.tableId) === lease) this.held.delete(lease.tableId);
    if (lease.released || lease.lost !== null) return;
    lease.released = true;
    try {
      await this.options.leases.release(lease.grant);
    } catch (err) {
      // It expires by itself within the TTL.
      this.options.logger.warn({ err, tableId: lease.tableId }, 'lease release failed');
    }
  }

  /** Renews every held lease; the ones refused or not confirmed in time are lost. */
  async renewAll(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      const leases = [...this.held.values()];
      if (leases.length === 0) return;
      const sentAt = this.now();
      let answers: boolean[] | null = null;
      try {
        answers = await this.options.leases.renew(leases.map((l) => l.grant));
      } catch (err) {
        this.options.logger.warn({ err, leases: leases.length }, 'lease renewal failed');
      }
      leases.forEach((lease, i) => {
        if (lease.lost !== null || lease.released) return;
        if (answers === null) {
          if (this.lapsed(lease)) this.lose(lease, 'renew_failed');
        } else if (answers[i]) {
          lease.confirmedAt = sentAt;
          // An answer that came too late no longer proves anything: the lease may have expired.
          if (this.lapsed(lease)) this.lose(lease, 'expired');
        } else {
          this.lose(lease, 'renew_refused');
        }
      });
    } finally {
      this.renewing = false;
    }
  }

  /** Tables whose lease is held now. */
  tableIds(): string[] {
    return [...this.held.keys()];
  }

  private lose(lease: HeldLease, reason: LossReason): void {
    if (lease.lost !== null) return;
    lease.lost = reason;
    if (this.held.get(lease.tableId) === lease) this.held.delete(lease.tableId);
    this.options.metrics?.lost.inc({ reason });
    this.options.logger.warn(
      { event: 'lease_lost', tableId: lease.tableId, epoch: lease.epoch, reason },
      'table lease lost: no longer serving this table',
    );
    for (const l of this.lostListeners) l(lease, reason);
  }
}
