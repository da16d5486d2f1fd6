import type { TxClient } from '../client.js';
import type { RoomStatus } from '../generated/enums.js';

export interface LockedRoomRow {
  readonly id: string;
  readonly status: RoomStatus;
  readonly hostId: string;
  readonly lastHandNo: number;
  /** The lease epoch of the last table worker that wrote for the room (a worker with a lower one is refused). */
  readonly ownerEpoch: number;
  /**
   * The epoch under which the table was last built again from the rows without its checkpoint, and
   * the last hand number it went on from (0, 0: never). See sealRoomRebuild.
   */
  readonly rebuiltEpoch: number;
  readonly rebuiltHandNo: number;
  /** A practice room: its escrows pay to and from practice wallets (walletFor). */
  readonly practice: boolean;
}

/**
 * Locks a room's row for the rest of the transaction. Every change to a room's seats, stacks or
 * hand cursor (lobby joins, leaves, top-ups and closes; the persister's hands and cash-outs) takes
 * this lock first, so they are serialised per room and always lock the room before any ledger
 * account.
 */
export async function lockRoomRow(tx: TxClient, roomId: string): Promise<LockedRoomRow | null> {
  const rows = await tx.$queryRaw<
    {
      id: string;
      status: RoomStatus;
      host_id: string;
      last_hand_no: number;
      owner_epoch: bigint;
      rebuilt_epoch: bigint;
      rebuilt_hand_no: number;
      practice: boolean;
    }[]
  >`
    SELECT "id"::text AS "id", "status", "host_id"::text AS "host_id", "last_hand_no", "owner_epoch",
      "rebuilt_epoch", "rebuilt_hand_no", "practice"
    FROM "rooms" WHERE "id" = ${roomId}::uuid FOR UPDATE`;
  const row = rows[0];
  return row
    ? {
        id: row.id,
        status: row.status,
        hostId: row.host_id,
        lastHandNo: Number(row.last_hand_no),
        ownerEpoch: Number(row.owner_epoch),
        rebuiltEpoch: Number(row.rebuilt_epoch),
        rebuiltHandNo: Number(row.rebuilt_hand_no),
        practice: row.practice,
      }
    : null;
}
