import { cashOutRequestId, finishRoomCloseIfDone, roomEscrows } from '@felt/db';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { RoomStore } from './room-store.js';
import { ledgerCashOut } from './stacks.js';
import { CashOutMode, type CloseResult, type RoomsOptions } from './types.js';

/** Closing a room: the tombstone, the refunds, and carrying on with closings a crash interrupted. */
export class RoomClosing {
  constructor(
    private readonly o: RoomsOptions,
    private readonly store: RoomStore,
  ) {}

  /**
   * Deletes a room recoverably (docs/dev/money-flows.md, "Deleting a room"): the tombstone (status
   * closing) commits first, then each seat is refunded and freed, one idempotent cash-out each, then
   * the room is closed.
   * In ledger mode the lobby does all of it now; in worker mode the table worker cancels a live
   * hand and sends each seat's stack (committed chips included), and the persister refunds them
   * and closes the room after the last one. A crash anywhere in between leaves a closing room that
   * finishClosingRooms() carries on with.
   */
  async close(userId: string, roomId: string): Promise<CloseResult> {
    await this.beginClose(userId, roomId);
    if (this.o.cashOutMode === CashOutMode.WORKER) {
      this.store.emit({ room_id: roomId, type: 'room_closed' });
      return { status: 'closing', refunds: [] };
    }
    return this.finishClose(roomId);
  }

  /** The first step of close(): the tombstone. Exposed so a test can stop there, as a crash would. */
  async beginClose(userId: string, roomId: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const room = await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true });
      if (room.host_id !== userId) throw new LobbyError(ApiErrorCode.NOT_HOST, 'only the host can close the room');
      if (room.status === 'open') {
        await tx.room.update({ where: { id: room.id }, data: { status: 'closing', closingAt: this.o.clock.now() } });
      }
    });
  }

  /**
   * Carries on with every deletion a crash interrupted. Run at start-up, before serving, and (in
   * worker mode) now and then: the tables of closing rooms are told again until they are closed.
   */
  async finishClosingRooms(): Promise<number> {
    const closing = await this.o.prisma.room.findMany({ where: { status: 'closing' }, select: { id: true } });
    for (const room of closing) {
      if (this.o.cashOutMode === CashOutMode.WORKER) {
        this.store.emit({ room_id: room.id, type: 'room_closed' });
        continue;
      }
      const { refunds } = await this.finishClose(room.id);
      this.o.logger.info({ event: 'room_close_resumed', roomId: room.id, refunds: refunds.length }, 'finished closing');
    }
    return closing.length;
  }

  /**
   * Ledger mode: refund each seat (and any escrow left without a seat), one transaction each, then
   * close. `afterRefund` is a test hook that runs after each committed refund, where a crash would.
   */
  async finishClose(roomId: string, afterRefund?: (userId: string) => void): Promise<CloseResult> {
    const refunds: { userId: string; amount: bigint }[] = [];
    const escrows = await roomEscrows(this.o.prisma, roomId);
    const seated = await this.o.prisma.membership.findMany({
      where: { roomId, status: 'active' },
      select: { id: true, userId: true },
    });
    const seatOf = new Map(seated.map((m) => [m.userId, m.id]));
    const users = new Set([...seatOf.keys(), ...[...escrows].filter(([, b]) => b > 0n).map(([u]) => u)]);
    for (const user of users) {
      const membershipId = seatOf.get(user);
      const out = await this.store.transaction(async (tx) => {
        const room = await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true });
        if (room.status !== 'closing') return null;
        const requestId = membershipId
          ? cashOutRequestId.roomClose(membershipId)
          : cashOutRequestId.roomCloseOrphan(roomId, user);
        return ledgerCashOut(tx, this.o.clock, room, user, requestId, 'room_close');
      });
      if (out && !out.replayed && out.status === 'paid' && (out.paid ?? 0n) > 0n) {
        refunds.push({ userId: user, amount: out.paid ?? 0n });
      }
      afterRefund?.(user);
    }
    // A room nobody sat in (or whose refunds all ran before) has no last refund to close it: close it
    // here once nothing is seated, pending or funded.
    try {
      await this.store.transaction(async (tx) => {
        await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true });
        await finishRoomCloseIfDone(tx, roomId, this.o.clock.now());
      });
    } catch (err) {
      // The last refund closed it already.
      if (!(err instanceof LobbyError && err.code === ApiErrorCode.ROOM_CLOSED)) throw err;
    }
    const status = await this.o.prisma.room.findUnique({ where: { id: roomId }, select: { status: true } });
    if (status?.status === 'closed') this.store.emit({ room_id: roomId, type: 'room_closed' });
    else {
      this.o.logger.error({ event: 'room_close_stuck', roomId }, 'room stays closing: a refund did not reconcile');
    }
    return { status: status?.status === 'closed' ? 'closed' : 'closing', refunds };
  }
}
