import { randomUUID } from 'node:crypto';
import {
  accountBalance,
  cashOutRequestId,
  escrowAccount,
  InsufficientFundsError,
  pendingTopUpsByUser,
  recordTopUp,
  refillPracticeWallet,
  requestCashOut,
  walletAccount,
  type CashOutOutcome,
  type TxClient,
} from '@felt/db';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { Clock } from '../ports.js';
import type { LockedRoom, RoomStore } from './room-store.js';
import { CashOutMode, type LeaveResult, type RoomsOptions, type TopUpResult } from './types.js';

/** A seat's stack between hands: giving it up (leave) and adding to it (top-up). */
export class SeatStacks {
  constructor(
    private readonly o: RoomsOptions,
    private readonly store: RoomStore,
  ) {}

  /**
   * Gives up the seat. In ledger mode the stack (the escrow) goes back to the wallet at once, as one
   * transaction with the seat's release. In worker mode the request is recorded and the table is
   * told; the worker lets the player go at the end of a hand in progress and sends the final stack,
   * and the persister pays it once every earlier hand is persisted (docs/dev/money-flows.md).
   */
  async leave(userId: string, roomId: string): Promise<LeaveResult> {
    const result = await this.store.transaction(async (tx): Promise<LeaveResult> => {
      const room = await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true });
      const membership = await tx.membership.findFirst({
        where: { roomId: room.id, userId, status: 'active' },
        select: { id: true, leaveRequestedAt: true },
      });
      if (!membership) throw new LobbyError(ApiErrorCode.NOT_SEATED, 'you have no seat in this room');
      if (this.o.cashOutMode === CashOutMode.WORKER) {
        if (!membership.leaveRequestedAt) {
          await tx.membership.update({ where: { id: membership.id }, data: { leaveRequestedAt: this.o.clock.now() } });
        }
        return { status: 'leaving', refunded: 0n, wallet: await accountBalance(tx, walletAccount(userId)) };
      }
      const out = await ledgerCashOut(tx, this.o.clock, room, userId, cashOutRequestId.leave(membership.id), 'leave');
      return { status: 'left', refunded: out.paid ?? 0n, wallet: await accountBalance(tx, walletAccount(userId)) };
    });
    this.store.emit({
      room_id: roomId,
      type: result.status === 'left' ? 'member_left' : 'member_leaving',
      user_id: userId,
    });
    return result;
  }

  /**
   * A rebuy or top-up between hands: wallet → escrow now; the table adds the chips at its next hand
   * boundary (at once in ledger mode). The stack that results, counting chips already waiting,
   * must lie in the room's buy-in range; the worker also never takes a live stack above the maximum
   * and returns any excess to the wallet.
   */
  async topUp(userId: string, roomId: string, amount: number, idempotencyKey?: string): Promise<TopUpResult> {
    const key = idempotencyKey ? `top-up:${userId}:${idempotencyKey}` : undefined;
    const result = await this.store.transaction(async (tx): Promise<TopUpResult> => {
      const room = await this.store.lockRoom(tx, { id: roomId });
      const config = this.store.requireConfig(room.config, room.id);
      if (key) {
        const earlier = await tx.topUp.findUnique({ where: { idempotencyKey: key } });
        if (earlier) {
          if (earlier.roomId !== room.id || earlier.amount !== BigInt(amount)) {
            throw new LobbyError(
              ApiErrorCode.IDEMPOTENCY_CONFLICT,
              'that Idempotency-Key was used for a different request',
            );
          }
          return this.topUpResult(tx, room.id, userId, earlier, true);
        }
      }
      const membership = await tx.membership.findFirst({
        where: { roomId: room.id, userId, status: 'active' },
        select: { id: true, leaveRequestedAt: true },
      });
      if (!membership) throw new LobbyError(ApiErrorCode.NOT_SEATED, 'you have no seat in this room');
      if (membership.leaveRequestedAt) {
        throw new LobbyError(ApiErrorCode.LEAVE_REQUESTED, 'you are leaving this table; top-ups are closed');
      }
      const escrow = await accountBalance(tx, escrowAccount(room.id, userId));
      const after = escrow + BigInt(amount);
      if (amount < 1 || after < BigInt(config.buyIn.min) || after > BigInt(config.buyIn.max)) {
        throw new LobbyError(
          ApiErrorCode.BUY_IN_OUT_OF_RANGE,
          `your stack after the top-up must be between ${config.buyIn.min} and ${config.buyIn.max} (it is ${escrow})`,
          { min: config.buyIn.min, max: config.buyIn.max, stack: Number(escrow) },
        );
      }
      const ledgerKey = key ?? `top-up:${membership.id}:${randomUUID()}`;
      // Practice chips are free: the practice wallet is refilled first if it is short.
      if (config.practiceChips) {
        await refillPracticeWallet(tx, {
          userId,
          need: BigInt(amount),
          idempotencyKey: `practice-refill:${ledgerKey}`,
          alsoLock: [escrowAccount(room.id, userId)],
        });
      }
      try {
        const row = await recordTopUp(tx, {
          roomId: room.id,
          userId,
          membershipId: membership.id,
          amount: BigInt(amount),
          idempotencyKey: ledgerKey,
          applyNow: this.o.cashOutMode === CashOutMode.LEDGER,
          lastHandNo: room.last_hand_no,
          now: this.o.clock.now(),
        });
        return await this.topUpResult(
          tx,
          room.id,
          userId,
          { id: row.id, amount: row.amount, status: row.status },
          false,
        );
      } catch (err) {
        if (err instanceof InsufficientFundsError) {
          throw new LobbyError(ApiErrorCode.INSUFFICIENT_FUNDS, 'your wallet does not cover that top-up', {
            wallet: Number(err.balance),
            amount,
          });
        }
        throw err;
      }
    });
    if (!result.replayed) this.store.emit({ room_id: roomId, type: 'top_up', user_id: userId });
    return result;
  }

  private async topUpResult(
    tx: TxClient,
    roomId: string,
    userId: string,
    row: { id: string; amount: bigint; status: 'pending' | 'applied' | 'cashed_out' },
    replayed: boolean,
  ): Promise<TopUpResult> {
    return {
      roomId,
      topUpId: row.id,
      amount: row.amount,
      status: row.status,
      escrow: await accountBalance(tx, escrowAccount(roomId, userId)),
      wallet: await accountBalance(tx, walletAccount(userId)),
      replayed,
    };
  }
}

/**
 * Ledger mode's cash-out: the escrow less top-ups no table applied is the final stack, and the
 * room's cursor is the last hand (no worker plays hands in this mode). The same requestCashOut
 * a worker's request goes through, so the amount still has to reconcile.
 */
export async function ledgerCashOut(
  tx: TxClient,
  clock: Clock,
  room: LockedRoom,
  userId: string,
  requestId: string,
  reason: 'leave' | 'room_close',
): Promise<CashOutOutcome> {
  const escrow = await accountBalance(tx, escrowAccount(room.id, userId));
  const pending = (await pendingTopUpsByUser(tx, room.id)).get(userId) ?? 0n;
  return requestCashOut(
    tx,
    { requestId, roomId: room.id, userId, reason, lastHandNo: room.last_hand_no, finalStack: escrow - pending },
    clock.now(),
  );
}
