import type { Table } from '@felt/engine';
import { cashOutRequestId, type CashOutJob, type CashOutJobReason, type LiveTableMoney } from '@felt/platform';
import type { MoneyMember } from './ports.js';

/** A top-up the table added to a stack: its id and the chips it could add under the room's maximum. */
export interface AppliedTopUp {
  readonly id: string;
  readonly applied: number;
}

export interface TableMoneyJSON {
  /** Top-up ids already added (or found to add nothing): never added twice. */
  readonly handled: readonly string[];
  /** Top-ups added since the last report, per user: reported by the next hand record or cash-out. */
  readonly unreported: Readonly<Record<string, readonly AppliedTopUp[]>>;
  /** Pending top-ups as the room rows last listed them, per user. */
  readonly pending: Readonly<Record<string, readonly { readonly id: string; readonly amount: number }[]>>;
  /**
   * Memberships this table let go (their cash-out sent), with the job: never seated again, and the
   * same job is sent again if the room is closed again. Kept while the room still lists them.
   */
  readonly released: Readonly<Record<string, CashOutJob>>;
}

export type CashOutReason = CashOutJobReason;

/** The request id of a membership's cash-out: the same for every attempt, so a re-send is a no-op. */
function cashOutRequestIdOf(reason: CashOutReason, membershipId: string): string {
  return reason === 'leave' ? cashOutRequestId.leave(membershipId) : cashOutRequestId.roomClose(membershipId);
}

/**
 * The table's money bookkeeping beside the engine table (docs/dev/money-flows.md §2, §3, §7): which
 * top-ups were added and not yet reported, which seats were let go. Plain data, checkpointed with
 * the live table.
 */
export class TableMoney {
  private readonly handled: Set<string>;
  private readonly unreported: Map<string, AppliedTopUp[]>;
  private pending: Map<string, { id: string; amount: number }[]>;
  private readonly released: Map<string, CashOutJob>;

  private constructor(json: TableMoneyJSON) {
    this.handled = new Set(json.handled);
    this.unreported = new Map(Object.entries(json.unreported).map(([k, v]) => [k, [...v]]));
    this.pending = new Map(Object.entries(json.pending).map(([k, v]) => [k, v.map((t) => ({ ...t }))]));
    this.released = new Map(Object.entries(json.released));
  }

  static fromJSON(json: TableMoneyJSON | undefined): TableMoney {
    return new TableMoney(json ?? { handled: [], unreported: {}, pending: {}, released: {} });
  }

  toJSON(): TableMoneyJSON {
    return {
      handled: [...this.handled],
      unreported: Object.fromEntries(this.unreported),
      pending: Object.fromEntries(this.pending),
      released: Object.fromEntries(this.released),
    };
  }

  /**
   * Takes the room rows' view of top-ups and memberships. Handled ids the rows no longer list as
   * pending were recorded by the persister and are forgotten; so are released memberships the room
   * no longer lists (their cash-out is recorded).
   */
  observe(members: readonly MoneyMember[]): void {
    this.pending = new Map(members.map((m) => [m.userId, (m.pendingTopUps ?? []).map((t) => ({ ...t }))]));
    const listed = new Set(members.flatMap((m) => (m.pendingTopUps ?? []).map((t) => t.id)));
    const unreported = new Set([...this.unreported.values()].flat().map((t) => t.id));
    for (const id of [...this.handled]) if (!listed.has(id) && !unreported.has(id)) this.handled.delete(id);
    const memberships = new Set(members.map((m) => m.membershipId).filter((x) => x !== undefined));
    for (const id of [...this.released.keys()]) if (!memberships.has(id)) this.released.delete(id);
  }

  isReleased(membershipId: string | undefined): boolean {
    return membershipId !== undefined && this.released.has(membershipId);
  }

  /** The cash-out sent when the membership was let go, while the room still lists it. */
  releasedJob(membershipId: string | undefined): CashOutJob | undefined {
    return membershipId !== undefined ? this.released.get(membershipId) : undefined;
  }

  /**
   * The user's pending top-ups not yet handled, each capped so that `stack` never goes above `max`
   * (`applied` may be 0: the persister returns the rest to the wallet). Records them as handled and
   * unreported; returns the chips to add.
   */
  takeTopUps(userId: string, stack: number, max: number): number {
    let added = 0;
    for (const t of this.pending.get(userId) ?? []) {
      if (this.handled.has(t.id)) continue;
      this.handled.add(t.id);
      const applied = Math.max(0, Math.min(t.amount, max - (stack + added)));
      added += applied;
      const list = this.unreported.get(userId) ?? [];
      list.push({ id: t.id, applied });
      this.unreported.set(userId, list);
    }
    return added;
  }

  /** Whether the user has a pending top-up the table has not handled yet. */
  hasUnhandled(userId: string): boolean {
    return (this.pending.get(userId) ?? []).some((t) => !this.handled.has(t.id));
  }

  /** Every unreported top-up, for the hand record about to be enqueued (all seats); then forgotten. */
  takeAllUnreported(): AppliedTopUp[] {
    const all = [...this.unreported.values()].flat();
    this.unreported.clear();
    return all;
  }

  /** Lets a membership go: the cash-out job, with the user's unreported top-ups (then forgotten). */
  release(args: {
    readonly roomId: string;
    readonly userId: string;
    readonly membershipId: string;
    readonly reason: CashOutReason;
    readonly lastHandNo: number;
    readonly finalStack: number;
    readonly requestedAt: number;
  }): CashOutJob {
    const topUps = this.unreported.get(args.userId) ?? [];
    this.unreported.delete(args.userId);
    const job: CashOutJob = {
      request_id: cashOutRequestIdOf(args.reason, args.membershipId),
      room_id: args.roomId,
      user_id: args.userId,
      reason: args.reason,
      last_hand_no: args.lastHandNo,
      final_stack: args.finalStack,
      top_ups_applied: topUps.map((t) => ({ id: t.id, applied: t.applied })),
      requested_at: new Date(args.requestedAt).toISOString(),
    };
    this.released.set(args.membershipId, job);
    return job;
  }

  /** The checkpoint's `money` section: seated stacks (hand-start values during a hand). */
  liveMoney(engine: Table, lastHandNo: number): LiveTableMoney {
    return {
      lastHandNo,
      seats: engine.seats().map((s) => ({
        userId: s.playerId,
        stack: s.stack + s.pendingChips,
        appliedTopUps: (this.unreported.get(s.playerId) ?? []).map((t) => ({ id: t.id, applied: t.applied })),
      })),
    };
  }
}
