import type { PrismaClient, TxClient } from '../client.js';
import { MembershipStatus, RoomStatus } from '../generated/enums.js';
import { LedgerInvalidError, StaleOwnerEpochError } from '../errors.js';
import { accountBalance, buyIn, grant, openWallet, walletAccount } from '../ledger.js';
import { withTransaction } from '../transaction.js';
import { lockRoomRow, type LockedRoomRow } from './room-lock.js';

export interface SeatBotRequest {
  readonly roomId: string;
  /** The bot's id at the table (a lowercase uuid): it becomes its user id. */
  readonly botId: string;
  /** 1-based seat; it must be free in Postgres too. */
  readonly seat: number;
  readonly buyIn: bigint;
  /**
   * The lease epoch the worker serves the table under (issue 8). Refused with StaleOwnerEpochError,
   * changing nothing, when the room's owner_epoch is higher; otherwise the room takes it. Absent:
   * unfenced (a worker without leases).
   */
  readonly epoch?: number;
  readonly now?: Date;
}

/** A user name no sign-up can take (sign-up names are 3..24 characters). */
export const botName = (botId: string): string => `bot-${botId}`;

/**
 * Seats a table worker's bot with real chips (docs/dev/money-flows.md): the bot is a user (created
 * on first use, with a password hash nothing matches), its wallet is topped up from the grant
 * source to cover the buy-in, and it takes a membership and buys in like a player, in one
 * transaction under the room lock. Its chips then move through hands and cash-outs exactly as a
 * player's do, so conservation and the audit hold with bots at the table.
 *
 * Idempotent per (room, bot): a bot already seated at the room keeps its membership.
 *
 * Fenced by the worker's lease epoch, in the same transaction and under the room lock, so a worker
 * that lost the table (a newer owner has written with a higher epoch) can change nothing here.
 */
export async function seatBot(prisma: PrismaClient, req: SeatBotRequest): Promise<{ membershipId: string }> {
  if (req.buyIn <= 0n) throw new LedgerInvalidError('a bot buys in with a positive number of chips');
  return withTransaction(prisma, async (tx) => {
    const room = await lockRoomRow(tx, req.roomId);
    if (!room || room.status !== RoomStatus.open) {
      throw new LedgerInvalidError(`room ${req.roomId} is not open for a bot`);
    }
    if (req.epoch !== undefined) await fenceRoomEpoch(tx, room, req.epoch);
    const seated = await tx.membership.findFirst({
      where: { roomId: req.roomId, userId: req.botId, status: MembershipStatus.active },
      select: { id: true },
    });
    if (seated) return { membershipId: seated.id };
    const name = botName(req.botId);
    await tx.user.createMany({
      data: [{ id: req.botId, name, nameKey: name.toLowerCase(), passwordHash: '!bot' }],
      skipDuplicates: true,
    });
    await openWallet(tx, req.botId);
    const membership = await tx.membership.create({
      data: {
        roomId: req.roomId,
        userId: req.botId,
        seat: req.seat,
        buyIn: req.buyIn,
        joinedAfterHand: room.lastHandNo,
        ...(req.now ? { joinedAt: req.now } : {}),
      },
      select: { id: true },
    });
    const wallet = await accountBalance(tx, walletAccount(req.botId));
    if (wallet < req.buyIn) {
      await grant(tx, {
        userId: req.botId,
        amount: req.buyIn - wallet,
        idempotencyKey: `bot-grant:${membership.id}`,
      });
    }
    await buyIn(tx, {
      userId: req.botId,
      roomId: req.roomId,
      amount: req.buyIn,
      idempotencyKey: `buy-in:${membership.id}`,
    });
    return { membershipId: membership.id };
  });
}

/**
 * A worker that has just taken a table's lease claims the room for its epoch before it serves the
 * table: `owner_epoch` rises to `epoch` under the room lock. From then on a write carrying an older
 * epoch (a worker that lost the table and does not know it yet) is refused, even before the new
 * owner writes anything else. Refused with StaleOwnerEpochError, changing nothing, when the room
 * already saw a higher epoch. A room that does not exist is left alone.
 */
export async function claimRoomEpoch(prisma: PrismaClient, roomId: string, epoch: number): Promise<void> {
  await withTransaction(prisma, async (tx) => {
    const room = await lockRoomRow(tx, roomId);
    if (room) await fenceRoomEpoch(tx, room, epoch);
  });
}

/**
 * The epoch fence on a room locked by this transaction: a write of a lower epoch than the room has
 * seen is refused (StaleOwnerEpochError), a higher one raises the room to it.
 */
async function fenceRoomEpoch(tx: TxClient, room: LockedRoomRow, epoch: number): Promise<void> {
  if (room.ownerEpoch > epoch) throw new StaleOwnerEpochError(room.id, epoch, room.ownerEpoch);
  if (room.ownerEpoch < epoch) {
    // Raw, so the room's updated_at (the lobby's) does not move for a worker's bookkeeping.
    await tx.$executeRaw`UPDATE "rooms" SET "owner_epoch" = ${BigInt(epoch)} WHERE "id" = ${room.id}::uuid`;
  }
}
