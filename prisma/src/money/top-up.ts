import type { Db, TxClient } from '../client.js';
import { LedgerTxKind, TopUpStatus } from '../generated/enums.js';
import { buyIn, cashOut } from '../ledger.js';
import { HandConflictError } from '../errors.js';

export interface TopUpRequest {
  readonly roomId: string;
  readonly userId: string;
  readonly membershipId: string;
  readonly amount: bigint;
  /** Also the ledger transaction's key: a replay returns the first top-up. */
  readonly idempotencyKey: string;
  /**
   * True when no table worker will add the chips (the lobby's ledger cash-out mode): the top-up is
   * applied at once, since the escrow is the stack.
   */
  readonly applyNow: boolean;
  /** The room's hand cursor (under the room lock): an applied-now top-up counts from the next hand. */
  readonly lastHandNo: number;
  readonly now: Date;
}

export interface TopUpView {
  readonly id: string;
  readonly amount: bigint;
  readonly status: TopUpStatus;
  readonly replayed: boolean;
}

/**
 * Wallet → escrow for a rebuy or top-up, with its row (pending until the worker adds the chips at
 * a hand boundary). The caller holds the room lock and has checked the room's buy-in range.
 */
export async function recordTopUp(tx: TxClient, req: TopUpRequest): Promise<TopUpView> {
  const earlier = await tx.topUp.findUnique({ where: { idempotencyKey: req.idempotencyKey } });
  if (earlier) return { id: earlier.id, amount: earlier.amount, status: earlier.status, replayed: true };
  await buyIn(tx, {
    userId: req.userId,
    roomId: req.roomId,
    amount: req.amount,
    idempotencyKey: req.idempotencyKey,
    kind: LedgerTxKind.top_up,
  });
  const row = await tx.topUp.create({
    data: {
      idempotencyKey: req.idempotencyKey,
      roomId: req.roomId,
      userId: req.userId,
      membershipId: req.membershipId,
      amount: req.amount,
      ...(req.applyNow
        ? {
            status: TopUpStatus.applied,
            appliedAmount: req.amount,
            appliedHandNo: req.lastHandNo + 1,
            settledAt: req.now,
          }
        : { status: TopUpStatus.pending }),
    },
  });
  return { id: row.id, amount: row.amount, status: row.status, replayed: false };
}

/** Pending top-ups at a room by user (chips in escrow the table has not added yet). */
export async function pendingTopUpsByUser(db: Db, roomId: string): Promise<Map<string, bigint>> {
  const rows = await db.topUp.groupBy({
    by: ['userId'],
    where: { roomId, status: TopUpStatus.pending },
    _sum: { amount: true },
  });
  return new Map(rows.map((r) => [r.userId, r._sum.amount ?? 0n]));
}

/**
 * Marks top-ups the worker reports as added to stacks. `applied` may be less than the amount paid
 * in (the worker never takes a stack above the room maximum): the rest goes back to the wallet in
 * the same transaction. A top-up that is not pending at this room was already settled, which a
 * correct worker never reports: that is a conflict.
 */
export async function applyTopUps(
  tx: TxClient,
  /** handNo: the top-ups were added before this hand started. */
  ctx: { roomId: string; handId: string; handNo: number; now: Date },
  applied: readonly { readonly id: string; readonly applied: bigint }[],
): Promise<void> {
  if (applied.length === 0) return;
  const rows = await tx.topUp.findMany({ where: { id: { in: applied.map((a) => a.id) } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const a of applied) {
    const row = byId.get(a.id);
    const problem =
      !row || row.roomId !== ctx.roomId
        ? `top-up ${a.id} does not exist at this room`
        : row.status !== TopUpStatus.pending
          ? `top-up ${a.id} is already ${row.status}`
          : a.applied > row.amount
            ? `top-up ${a.id} applied ${a.applied} of ${row.amount}`
            : null;
    if (problem !== null || !row) {
      throw new HandConflictError(ctx.handId, ctx.roomId, ctx.handNo, problem ?? 'top-up');
    }
    await tx.topUp.update({
      where: { id: row.id },
      data: {
        status: TopUpStatus.applied,
        appliedAmount: a.applied,
        appliedHandNo: ctx.handNo,
        settledAt: ctx.now,
      },
    });
    if (a.applied < row.amount) {
      await cashOut(tx, {
        userId: row.userId,
        roomId: row.roomId,
        amount: row.amount - a.applied,
        kind: LedgerTxKind.refund,
        idempotencyKey: `top-up-excess:${row.id}`,
      });
    }
  }
}
