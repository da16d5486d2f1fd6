import type { Prisma, TxClient } from '../client.js';
import {
  CashOutReason,
  CashOutStatus,
  LedgerTxKind,
  MembershipStatus,
  RoomStatus,
  TopUpStatus,
} from '../generated/enums.js';
import { CashOutConflictError, LedgerInvalidError } from '../errors.js';
import {
  accountBalance,
  escrowAccount,
  HOUSE_BANKROLL,
  lockLedgerAccounts,
  postLedgerTransaction,
  walletFor,
} from '../ledger.js';
import { isBotUser, returnBotChips } from './bots.js';
import { lockRoomRow } from './room-lock.js';
import { applyTopUps } from './top-up.js';

/**
 * A race-free cash-out (docs/dev/money-flows.md, "Leaving: a race-free cash-out"). The table worker
 * asks for it when a player leaves (at the end of the hand if they leave during one) or when a room is closed, with the
 * player's final stack and the number of the last hand the table completed. It is paid only once
 * every hand up to that number is persisted, and only if the escrow then holds exactly the final
 * stack plus the top-ups the table never applied; otherwise nothing is paid and the mismatch is
 * recorded for an operator.
 */
export interface TableCashOutRequest {
  /** The requester's idempotency id (e.g. `leave:<membershipId>`, `room-close:<roomId>:<userId>`). */
  readonly requestId: string;
  readonly roomId: string;
  readonly userId: string;
  readonly reason: CashOutReason;
  /** The last hand the table completed before the player left (0: none). */
  readonly lastHandNo: number;
  /** The player's stack at the table, top-ups the table never applied excluded. */
  readonly finalStack: bigint;
  /** Top-ups the table added to the stack since the last hand it reported. */
  readonly topUpsApplied?: readonly { readonly id: string; readonly applied: bigint }[];
}

export interface CashOutOutcome {
  readonly requestId: string;
  readonly roomId: string;
  readonly userId: string;
  readonly status: CashOutStatus;
  /** Chips paid to the wallet (null unless paid). */
  readonly paid: bigint | null;
  /** The escrow found at settlement (null while pending). */
  readonly escrow: bigint | null;
  /** True when this request id had been recorded before. */
  readonly replayed: boolean;
}

const MAX_REQUEST_ID = 200;

type CashOutRow = Prisma.CashOutGetPayload<object>;

function outcome(row: CashOutRow, replayed: boolean): CashOutOutcome {
  return {
    requestId: row.requestId,
    roomId: row.roomId,
    userId: row.userId,
    status: row.status,
    paid: row.paidAmount,
    escrow: row.escrowFound,
    replayed,
  };
}

/**
 * Records a cash-out request (freeing the player's seat) and pays it if the hands it waits for are
 * persisted. Idempotent on `requestId`: a replay returns the recorded outcome, and a replay with
 * different content throws CashOutConflictError. Runs inside the caller's transaction; it locks
 * the room row first.
 */
export async function requestCashOut(tx: TxClient, req: TableCashOutRequest, now: Date): Promise<CashOutOutcome> {
  if (req.requestId.length === 0 || req.requestId.length > MAX_REQUEST_ID) {
    throw new LedgerInvalidError(`cash-out request id must be 1..${MAX_REQUEST_ID} characters`);
  }
  if (req.finalStack < 0n || !Number.isSafeInteger(req.lastHandNo) || req.lastHandNo < 0) {
    throw new LedgerInvalidError('cash-out needs a final stack >= 0 and a last hand number >= 0');
  }
  const room = await lockRoomRow(tx, req.roomId);
  if (!room) throw new CashOutConflictError(req.requestId, `room ${req.roomId} does not exist`);
  const existing = await tx.cashOut.findUnique({ where: { requestId: req.requestId } });
  if (existing) {
    const differs =
      existing.roomId !== req.roomId
        ? 'room'
        : existing.userId !== req.userId
          ? 'user'
          : existing.reason !== req.reason
            ? 'reason'
            : existing.lastHandNo !== req.lastHandNo
              ? 'last hand number'
              : existing.finalStack !== req.finalStack
                ? 'final stack'
                : null;
    if (differs) throw new CashOutConflictError(req.requestId, `a different ${differs}`);
    if (existing.status !== CashOutStatus.pending) return outcome(existing, true);
    const settled = await settleCashOut(tx, existing, room, now);
    return outcome(settled, true);
  }
  const open = await tx.cashOut.findFirst({
    where: { roomId: req.roomId, userId: req.userId, status: CashOutStatus.pending },
    select: { requestId: true },
  });
  if (open) throw new CashOutConflictError(req.requestId, `cash-out ${open.requestId} is still pending`);

  await lockLedgerAccounts(tx, [escrowAccount(req.roomId, req.userId), walletFor(room, req.userId)]);
  await applyTopUps(
    tx,
    // Added after hand lastHandNo: they count from the next hand on (see persistHand's reconciliation).
    { roomId: req.roomId, handId: `cash-out ${req.requestId}`, handNo: req.lastHandNo + 1, now },
    req.topUpsApplied ?? [],
  );
  const membership = await tx.membership.findFirst({
    where: { roomId: req.roomId, userId: req.userId, status: MembershipStatus.active },
    select: { id: true },
  });
  // The table has let the player go: the seat is free from now on.
  if (membership) {
    await tx.membership.update({
      where: { id: membership.id },
      data: { status: MembershipStatus.left, leftAt: now },
    });
  }
  const row = await tx.cashOut.create({
    data: {
      requestId: req.requestId,
      roomId: req.roomId,
      userId: req.userId,
      membershipId: membership?.id ?? null,
      reason: req.reason,
      lastHandNo: req.lastHandNo,
      finalStack: req.finalStack,
    },
  });
  const settled = await settleCashOut(tx, row, room, now);
  await finishRoomCloseIfDone(tx, req.roomId, now);
  return outcome(settled, false);
}

/**
 * Pays the room's pending cash-outs whose hands are all persisted (`lastHandNo` is the room's
 * cursor, read under the room lock the caller holds), then completes a room close that was
 * waiting for them.
 */
export async function settleRoomCashOuts(
  tx: TxClient,
  roomId: string,
  lastHandNo: number,
  now: Date,
): Promise<CashOutOutcome[]> {
  const pending = await tx.cashOut.findMany({
    where: { roomId, status: CashOutStatus.pending, lastHandNo: { lte: lastHandNo } },
    orderBy: { requestedAt: 'asc' },
  });
  const settled: CashOutOutcome[] = [];
  if (pending.length === 0) return settled;
  const { practice } = await tx.room.findUniqueOrThrow({ where: { id: roomId }, select: { practice: true } });
  const room = { lastHandNo, practice };
  for (const row of pending) settled.push(outcome(await settleCashOut(tx, row, room, now), false));
  if (settled.length > 0) await finishRoomCloseIfDone(tx, roomId, now);
  return settled;
}

async function settleCashOut(
  tx: TxClient,
  row: CashOutRow,
  /** The room's cursor (read under the room lock the caller holds) and whether it plays practice chips. */
  room: { readonly lastHandNo: number; readonly practice: boolean },
  now: Date,
): Promise<CashOutRow> {
  if (row.status !== CashOutStatus.pending || room.lastHandNo < row.lastHandNo) return row;
  const escrow = escrowAccount(row.roomId, row.userId);
  const wallet = walletFor(room, row.userId);
  // A bot's chips go back to the bankroll: lock it too, in the one lock order stakes use. Players'
  // cash-outs never touch the bankroll row, and neither do practice chips (a practice room's bot
  // keeps them in its practice wallet).
  const bot = !room.practice && (await isBotUser(tx, row.userId));
  await lockLedgerAccounts(tx, [escrow, wallet, ...(bot ? [HOUSE_BANKROLL] : [])]);
  const balance = await accountBalance(tx, escrow);
  const unapplied = await tx.topUp.findMany({
    where: { roomId: row.roomId, userId: row.userId, status: TopUpStatus.pending },
    select: { id: true, amount: true },
  });
  const expected = row.finalStack + unapplied.reduce((a, t) => a + t.amount, 0n);
  if (balance !== expected) {
    await tx.moneyIncident.create({
      data: {
        kind: 'cash_out_mismatch',
        roomId: row.roomId,
        userId: row.userId,
        requestId: row.requestId,
        details: {
          finalStack: row.finalStack.toString(),
          unappliedTopUps: unapplied.map((t) => ({ id: t.id, amount: t.amount.toString() })),
          expected: expected.toString(),
          escrow: balance.toString(),
          lastHandNo: row.lastHandNo,
        },
      },
    });
    return tx.cashOut.update({
      where: { id: row.id },
      data: { status: CashOutStatus.mismatch, escrowFound: balance, settledAt: now },
    });
  }
  if (balance > 0n) {
    await postLedgerTransaction(tx, {
      idempotencyKey: `cash-out:${row.requestId}`,
      kind: row.reason === CashOutReason.room_close ? LedgerTxKind.refund : LedgerTxKind.cash_out,
      roomId: row.roomId,
      postings: [
        { account: escrow, amount: -balance },
        { account: wallet, amount: balance },
      ],
      memo: { requestId: row.requestId, lastHandNo: row.lastHandNo },
    });
  }
  if (unapplied.length > 0) {
    await tx.topUp.updateMany({
      where: { id: { in: unapplied.map((t) => t.id) } },
      data: { status: TopUpStatus.cashed_out, settledAt: now },
    });
  }
  // A bot's chips belong to the house bankroll that staked it: they go back there.
  if (bot && balance > 0n) await returnBotChips(tx, row.userId, `bot-return:${row.requestId}`);
  return tx.cashOut.update({
    where: { id: row.id },
    data: { status: CashOutStatus.paid, escrowFound: balance, paidAmount: balance, settledAt: now },
  });
}

/**
 * A closing room becomes closed once nobody is seated, no cash-out is pending and every escrow at
 * it is empty: closing the room is the last step (docs/dev/money-flows.md, "Deleting a room").
 * Returns true when it closed.
 */
export async function finishRoomCloseIfDone(tx: TxClient, roomId: string, now: Date): Promise<boolean> {
  const room = await tx.room.findUnique({ where: { id: roomId }, select: { status: true } });
  if (room?.status !== RoomStatus.closing) return false;
  const seated = await tx.membership.count({ where: { roomId, status: MembershipStatus.active } });
  const pending = await tx.cashOut.count({ where: { roomId, status: CashOutStatus.pending } });
  const funded = await tx.ledgerAccount.count({ where: { roomId, kind: 'escrow', balance: { gt: 0n } } });
  if (seated > 0 || pending > 0 || funded > 0) return false;
  await tx.room.update({ where: { id: roomId }, data: { status: RoomStatus.closed, closedAt: now } });
  return true;
}
