import type { PrismaClient, TxClient } from '../client.js';
import { MembershipStatus, RoomStatus } from '../generated/enums.js';
import {
  BankrollRefusal,
  BankrollRefusedError,
  LedgerInvalidError,
  SeatHeldError,
  StaleOwnerEpochError,
} from '../errors.js';
import { LedgerTxKind } from '../generated/enums.js';
import {
  accountBalance,
  buyIn,
  escrowAccount,
  HOUSE_BANKROLL,
  lockLedgerAccounts,
  openWallet,
  postLedgerTransaction,
  walletAccount,
} from '../ledger.js';
import { withTransaction } from '../transaction.js';
import { refillPracticeWallet } from './practice.js';
import { lockRoomRow, type LockedRoomRow } from './room-lock.js';

export interface SeatBotRequest {
  readonly roomId: string;
  /** The bot's id at the table (a lowercase uuid): it becomes its user id. */
  readonly botId: string;
  /** 1-based seat; it must be free in Postgres too. */
  readonly seat: number;
  readonly buyIn: bigint;
  /**
   * The lease epoch the worker serves the table under (docs/architecture.md, "Ownership and
   * failover"). Refused with StaleOwnerEpochError, changing nothing, when the room's owner_epoch is
   * higher; otherwise the room takes it. Absent: unfenced (a worker without leases).
   */
  readonly epoch?: number;
  /** What the house bankroll may put at risk (absent: no limit beyond its balance). */
  readonly limits?: BankrollLimits;
  readonly now?: Date;
}

/** Bounds on the chips the house bankroll stakes bots with (docs/operations.md, "Security"). */
export interface BankrollLimits {
  /** The most chips the bots seated at one room may hold in escrow there, this buy-in included. */
  readonly perRoom?: bigint;
  /** The most chips the bankroll stakes bots with in any 24 hours. */
  readonly perDay?: bigint;
}

/** A user name no sign-up can take (sign-up names are 3..24 characters). */
export const botName = (botId: string): string => `bot-${botId}`;

/** A bot's password hash: no password verifies against it. */
const BOT_PASSWORD_HASH = '!bot';

/**
 * Seats a table worker's bot with real chips (docs/dev/money-flows.md): the bot is a user (created
 * on first use, with a password hash nothing matches), the house bankroll stakes what its wallet
 * lacks for the buy-in (never the grant source: no chip is created for a bot), and it takes a
 * membership and buys in like a player, in one transaction under the room lock. Its chips then move
 * through hands and cash-outs exactly as a player's do, and what it cashes out goes back to the
 * bankroll (`settleCashOut`), so conservation and the audit hold with bots at the table.
 *
 * Refused with BankrollRefusedError, writing nothing, when the bankroll holds less than the stake,
 * or the stake would take the room's bots or the last 24 hours' stakes over `limits`.
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
    // Players waiting for a seat come first: a bot takes a seat only when one is left over for it.
    const waiting = await tx.waitlistEntry.count({ where: { roomId: req.roomId } });
    if (waiting > 0) {
      const row = await tx.room.findUnique({ where: { id: req.roomId }, select: { config: true } });
      const seats = seatsOf(row?.config);
      const active = await tx.membership.count({ where: { roomId: req.roomId, status: MembershipStatus.active } });
      if (seats === undefined || active + waiting >= seats) throw new SeatHeldError(req.roomId, waiting);
    }
    const name = botName(req.botId);
    await tx.user.createMany({
      data: [{ id: req.botId, name, nameKey: name.toLowerCase(), passwordHash: BOT_PASSWORD_HASH }],
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
    if (room.practice) {
      // A practice room's bot plays free practice chips like anyone there: the bankroll's real
      // chips never reach it.
      await refillPracticeWallet(tx, {
        userId: req.botId,
        need: req.buyIn,
        idempotencyKey: `practice-refill:${membership.id}`,
        alsoLock: [escrowAccount(req.roomId, req.botId)],
      });
    }
    const wallet = await accountBalance(tx, walletAccount(req.botId));
    if (!room.practice && wallet < req.buyIn) {
      await stakeBot(tx, {
        roomId: req.roomId,
        botId: req.botId,
        buyIn: req.buyIn,
        stake: req.buyIn - wallet,
        idempotencyKey: `bot-stake:${membership.id}`,
        ...(req.limits !== undefined ? { limits: req.limits } : {}),
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

/** rooms.config's seat count (@felt/db does not parse RoomConfig: @felt/protocol does). */
function seatsOf(config: unknown): number | undefined {
  const seats = (config as { seats?: unknown } | null)?.seats;
  return typeof seats === 'number' && Number.isInteger(seats) ? seats : undefined;
}

/** Bankroll → the bot's wallet, within the bankroll's balance and limits (the caller holds the room lock). */
async function stakeBot(
  tx: TxClient,
  req: {
    roomId: string;
    botId: string;
    buyIn: bigint;
    stake: bigint;
    idempotencyKey: string;
    limits?: BankrollLimits;
  },
): Promise<void> {
  // The bankroll's row lock serialises every stake, so the limits below cannot be raced past.
  const locked = await lockLedgerAccounts(tx, [HOUSE_BANKROLL, walletAccount(req.botId)]);
  const balance = locked.get('house_bankroll')?.balance ?? 0n;
  if (balance < req.stake) throw new BankrollRefusedError(BankrollRefusal.EMPTY, req.roomId, req.stake, balance);
  const perRoom = req.limits?.perRoom;
  if (perRoom !== undefined) {
    const [row] = await tx.$queryRaw<{ held: bigint | null }[]>`
      SELECT sum(a."balance") AS "held" FROM "ledger_accounts" a JOIN "users" u ON u."id" = a."user_id"
      WHERE a."kind" = 'escrow' AND a."room_id" = ${req.roomId}::uuid AND u."password_hash" = ${BOT_PASSWORD_HASH}`;
    const held = BigInt(row?.held ?? 0);
    if (held + req.buyIn > perRoom) {
      throw new BankrollRefusedError(BankrollRefusal.ROOM_LIMIT, req.roomId, req.stake, perRoom - held);
    }
  }
  const perDay = req.limits?.perDay;
  if (perDay !== undefined) {
    const [row] = await tx.$queryRaw<{ staked: bigint | null }[]>`
      SELECT sum(e."amount") AS "staked" FROM "ledger_entries" e
      JOIN "ledger_transactions" t ON t."id" = e."transaction_id"
      JOIN "ledger_accounts" a ON a."id" = e."account_id"
      WHERE t."kind" = 'bot_stake' AND t."created_at" > now() - interval '24 hours' AND a."kind" = 'wallet'`;
    const staked = BigInt(row?.staked ?? 0);
    if (staked + req.stake > perDay) {
      throw new BankrollRefusedError(BankrollRefusal.DAILY_LIMIT, req.roomId, req.stake, perDay - staked);
    }
  }
  await postLedgerTransaction(tx, {
    idempotencyKey: req.idempotencyKey,
    kind: LedgerTxKind.bot_stake,
    roomId: req.roomId,
    postings: [
      { account: HOUSE_BANKROLL, amount: -req.stake },
      { account: walletAccount(req.botId), amount: req.stake },
    ],
  });
}

/** Whether the user is a worker's bot (`seatBot` made it: a name and a password hash no player has). */
export async function isBotUser(tx: TxClient, userId: string): Promise<boolean> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { name: true, passwordHash: true } });
  return user !== null && user.passwordHash === BOT_PASSWORD_HASH && user.name === botName(userId);
}

/**
 * What a bot cashed out goes home to the bankroll: its whole wallet, in the caller's transaction
 * (which holds the wallet's and the bankroll's locks). A user who is no bot is left alone.
 */
export async function returnBotChips(tx: TxClient, userId: string, idempotencyKey: string): Promise<bigint> {
  if (!(await isBotUser(tx, userId))) return 0n;
  const wallet = await accountBalance(tx, walletAccount(userId));
  if (wallet <= 0n) return 0n;
  await postLedgerTransaction(tx, {
    idempotencyKey,
    kind: LedgerTxKind.bot_return,
    postings: [
      { account: walletAccount(userId), amount: -wallet },
      { account: HOUSE_BANKROLL, amount: wallet },
    ],
  });
  return wallet;
}

/**
 * A worker that has just taken a table's lease claims the room for its epoch before it serves the
 * table: `owner_epoch` rises to `epoch` under the room lock. From then on a write carrying an older
 * epoch (a worker that lost the table and does not know it yet) is refused, even before the new
 * owner writes anything else. Refused with StaleOwnerEpochError, changing nothing, when the room
 * already saw a higher epoch, or (`fresh`: a lease just acquired, not a reload under a lease this
 * worker already claimed with) the same one: every acquisition's epoch is above all earlier ones,
 * so a fresh epoch the room already saw means Redis handed it out twice (it lost its epoch
 * counters), and two workers could otherwise write under one epoch. A room that does not exist is
 * left alone. Returns the room's owner_epoch before the claim (0 for a room never served, or none).
 */
export async function claimRoomEpoch(
  prisma: PrismaClient,
  roomId: string,
  epoch: number,
  options: { readonly fresh?: boolean } = {},
): Promise<number> {
  return withTransaction(prisma, async (tx) => {
    const room = await lockRoomRow(tx, roomId);
    if (!room) return 0;
    if (options.fresh === true && room.ownerEpoch === epoch) {
      throw new StaleOwnerEpochError(room.id, epoch, room.ownerEpoch);
    }
    await fenceRoomEpoch(tx, room, epoch);
    return room.ownerEpoch;
  });
}

/**
 * A table built again from the room rows, its checkpoint lost (Redis lost its data), seals the room
 * before it deals: under its epoch (fenced like any write) and only if the rows still end at
 * `lastHandNo`, the hand it goes on from, `rebuilt_epoch` and `rebuilt_hand_no` are set. From then on
 * the persister refuses, as superseded, a hand queued under an older epoch and numbered after
 * `lastHandNo`: one the old owner played on stacks the rebuilt table never saw (its job was held
 * by a persister or sent again by a worker that no longer owns the table) would otherwise take the
 * number of the rebuilt table's next hand and leave the ledger and the table apart. Returns false,
 * changing nothing, when the rows moved on since they were read (such a hand landed meanwhile):
 * the table reads them again and seals again. A room that does not exist is left alone (true).
 */
export async function sealRoomRebuild(
  prisma: PrismaClient,
  roomId: string,
  epoch: number,
  lastHandNo: number,
): Promise<boolean> {
  return withTransaction(prisma, async (tx) => {
    const room = await lockRoomRow(tx, roomId);
    if (!room) return true;
    await fenceRoomEpoch(tx, room, epoch);
    if (room.lastHandNo !== lastHandNo) return false;
    // Raw, so the room's updated_at (the lobby's) does not move for a worker's bookkeeping.
    await tx.$executeRaw`
      UPDATE "rooms" SET "rebuilt_epoch" = ${BigInt(epoch)}, "rebuilt_hand_no" = ${lastHandNo}
      WHERE "id" = ${room.id}::uuid`;
    return true;
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
