import { randomInt, randomUUID } from 'node:crypto';
import {
  accountBalance,
  buyIn,
  cashOutRequestId,
  CashOutConflictError,
  escrowAccount,
  IdempotencyConflictError,
  InsufficientFundsError,
  isUniqueViolation,
  pendingTopUpsByUser,
  recordTopUp,
  requestCashOut,
  roomEscrows,
  walletAccount,
  withTransaction,
  type CashOutOutcome,
  type Prisma,
  type PrismaClient,
  type TxClient,
} from '@felt/db';
import type { Logger } from '@felt/platform';
import {
  newRoomIssues,
  parseRoomConfig,
  RoomConfigError,
  safeParseRoomConfig,
  stakesLabel,
  type BettingLimit,
  type GameType,
  type RoomConfig,
} from '@felt/protocol';
import { isDeepStrictEqual } from 'node:util';
import { ApiErrorCode, LobbyError } from './errors.js';
import type { Clock, RoomEvent, RoomEventPublisher } from './ports.js';
import type { Attempt } from './throttle.js';

/** Counts joins by code that find no room the user can take (Throttles, in Redis). */
export interface JoinGuard {
  joinByCode(userId: string, address: string): Promise<Attempt>;
}

/**
 * Who says what a leaving player's stack is (docs/dev/money-flows.md). `ledger`: no table worker
 * moves chips yet, so the escrow is the stack and the lobby pays it at once. `worker`: the table
 * worker lets the player go at a hand boundary and sends the final stack; the persister pays it
 * once every earlier hand is persisted. Both go through @felt/db's requestCashOut.
 */
export const CashOutMode = { LEDGER: 'ledger', WORKER: 'worker' } as const;
export type CashOutMode = (typeof CashOutMode)[keyof typeof CashOutMode];

export interface RoomsOptions {
  readonly prisma: PrismaClient;
  readonly cashOutMode: CashOutMode;
  readonly events: RoomEventPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called once per published or failed event, for metrics. */
  readonly onPublish?: (event: RoomEvent, ok: boolean) => void;
  /** Open rooms one user may host at once (FELT_MAX_OPEN_ROOMS_PER_USER). */
  readonly maxOpenRoomsPerUser: number;
  readonly joinGuard: JoinGuard;
}

export interface SeatRequest {
  /** 1-based; omitted: the first free seat. */
  readonly seat?: number | undefined;
  /** Chips moved from the wallet to the table; must lie in the room's buy-in range. */
  readonly buyIn: number;
  /**
   * A client's Idempotency-Key: repeating the request returns the first outcome instead of a
   * second seat or an already_seated refusal.
   */
  readonly idempotencyKey?: string | undefined;
}

export interface SeatResult {
  readonly roomId: string;
  readonly code: string;
  readonly seat: number;
  readonly stack: bigint;
  readonly wallet: bigint;
  readonly replayed: boolean;
}

export interface RoomSummary {
  readonly id: string;
  readonly code: string;
  readonly status: 'open' | 'closing' | 'closed';
  readonly hostId: string;
  readonly config: RoomConfig;
  readonly players: number;
  readonly createdAt: Date;
}

export interface RoomMember {
  readonly userId: string;
  readonly name: string;
  readonly seat: number;
  readonly stack: bigint;
}

export interface QuickJoinFilter {
  readonly game?: GameType | undefined;
  readonly limit?: BettingLimit | undefined;
  /** As stakesLabel shows it: "1/2", or "10/20" in the Stud family. */
  readonly stakes?: string | undefined;
}

interface LockedRoom {
  id: string;
  code: string;
  status: 'open' | 'closing' | 'closed';
  host_id: string;
  config: unknown;
  last_hand_no: number;
}

export interface LeaveResult {
  /** left: the stack is back in the wallet; leaving: the table lets the player go at a hand boundary. */
  readonly status: 'left' | 'leaving';
  readonly refunded: bigint;
  readonly wallet: bigint;
}

export interface TopUpResult {
  readonly roomId: string;
  readonly topUpId: string;
  readonly amount: bigint;
  /** applied: in the stack now; pending: the table adds it at the next hand boundary. */
  readonly status: 'pending' | 'applied' | 'cashed_out';
  /** Chips at the table: the stack after every persisted hand plus pending top-ups. */
  readonly escrow: bigint;
  readonly wallet: bigint;
  readonly replayed: boolean;
}

export interface CloseResult {
  readonly status: 'closed' | 'closing';
  readonly refunds: { userId: string; amount: bigint }[];
}

const CODE_ATTEMPTS = 20;

/** How many unreadable rooms a process remembers having logged, so a broken row logs once, not per list. */
const UNREADABLE_LOGGED_MAX = 1000;

/**
 * The one answer to a join by code that does not seat the user, whatever the reason: no such code,
 * a room that is closing, full, has no such seat, or has another buy-in range. A prober who does not
 * put real chips on the table learns nothing about which codes exist.
 */
function noRoomForCode(): LobbyError {
  return new LobbyError(
    ApiErrorCode.ROOM_NOT_FOUND,
    'no open room with that code can seat you: check the code, the seat and the buy-in',
  );
}

/** Refusals of a join by code that would tell an existing room from a missing one. */
const HIDDEN_BY_CODE: ReadonlySet<string> = new Set([
  ApiErrorCode.ROOM_NOT_FOUND,
  ApiErrorCode.ROOM_CLOSED,
  ApiErrorCode.ROOM_FULL,
  ApiErrorCode.SEAT_TAKEN,
  ApiErrorCode.INVALID_SEAT,
  ApiErrorCode.BUY_IN_OUT_OF_RANGE,
]);

function sixDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Rooms, seats and buy-ins. Every change to a room's memberships runs in one transaction that
 * first locks the room row, so the joins, leaves and closings of one room are serialised: seat
 * choice, "full" and "already seated" are decided without races, and the partial unique indexes
 * on memberships stand behind them. Membership events are published after the commit.
 */
export class Rooms {
  private readonly unreadableLogged = new Set<string>();

  constructor(private readonly o: RoomsOptions) {}

  /** Validates the config, creates the room with a fresh code, and seats the host if asked. */
  async create(
    hostId: string,
    rawConfig: unknown,
    sit?: SeatRequest,
  ): Promise<{ room: RoomSummary; seat: SeatResult | null }> {
    let config: RoomConfig;
    try {
      config = parseRoomConfig(rawConfig);
      const rules = newRoomIssues(config);
      if (rules.length > 0) throw new RoomConfigError(rules);
    } catch (err) {
      if (err instanceof RoomConfigError) {
        throw new LobbyError(ApiErrorCode.INVALID_ROOM_CONFIG, err.message, { issues: err.issues });
      }
      throw err;
    }
    if (sit) checkSeatRequest(config, sit);
    // The stored form is exactly the JSON form of the parsed config, and it must read back as the
    // same config: a row that doesn't parse would be skipped by every list and join.
    const stored = JSON.parse(JSON.stringify(config)) as Prisma.InputJsonObject;
    const back = safeParseRoomConfig(stored);
    if (!back.success || !isDeepStrictEqual(back.config, config)) {
      throw new LobbyError(ApiErrorCode.INVALID_ROOM_CONFIG, 'the room config does not read back as itself', {
        issues: back.success ? [{ path: '', message: 'the stored form reads back differently' }] : back.error.issues,
      });
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.transaction(async (tx) => {
          await this.checkRoomCap(tx, hostId);
          const room = await tx.room.create({
            data: { code: sixDigits(), config: stored, isPublic: config.listed, hostId },
            select: { id: true, code: true, status: true, hostId: true, createdAt: true },
          });
          const seat = sit ? await this.seatIn(tx, { ...room, lastHandNo: 0 }, config, hostId, sit) : null;
          return { room, seat };
        });
        if (result.seat) this.emit({ room_id: result.room.id, type: 'member_joined', user_id: hostId });
        return {
          room: { ...result.room, config, players: result.seat ? 1 : 0 },
          seat: result.seat,
        };
      } catch (err) {
        // Another live room holds this code: draw again.
        if (isUniqueViolation(err, 'rooms_code_live_key') && attempt < CODE_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  /**
   * Takes a seat in the open room with this code. What depends only on the user is checked first
   * (the body's shape at the edge, then whether the wallet covers the buy-in); after that, every
   * reason the room cannot seat them gets the same room_not_found, and each such miss counts
   * against the user's and the address's join limits. Only a join that moves real chips to the
   * table tells a code that exists from one that doesn't.
   */
  async joinByCode(userId: string, code: string, req: SeatRequest, address: string): Promise<SeatResult> {
    const attempt = await this.o.joinGuard.joinByCode(userId, address);
    let result: SeatResult;
    try {
      await this.checkBeforeLookup(userId, code, req);
      result = await this.transaction(async (tx) => {
        const room = await this.lockRoom(tx, { code });
        return this.seatInLocked(tx, room, userId, req);
      });
    } catch (err) {
      if (err instanceof LobbyError && HIDDEN_BY_CODE.has(err.code)) {
        await attempt.failed();
        throw noRoomForCode();
      }
      await attempt.succeeded();
      throw err;
    }
    await attempt.succeeded();
    if (!result.replayed) this.emit({ room_id: result.roomId, type: 'member_joined', user_id: userId });
    return result;
  }

  /**
   * The refusals that depend on the user alone, decided before the room is looked up so that they
   * can't say whether a code exists: an Idempotency-Key already used for another join
   * (idempotency_conflict), a wallet that doesn't cover the buy-in (insufficient_funds). A repeat of
   * an earlier join (same key, code and buy-in) goes on to be answered from the ledger.
   */
  private async checkBeforeLookup(userId: string, code: string, req: SeatRequest): Promise<void> {
    if (req.idempotencyKey) {
      const earlier = await this.o.prisma.ledgerTransaction.findUnique({
        where: { idempotencyKey: `join:${userId}:${req.idempotencyKey}` },
        select: {
          room: { select: { code: true } },
          entries: { select: { amount: true, account: { select: { kind: true } } } },
        },
      });
      if (earlier) {
        const moved = earlier.entries.find((e) => e.account.kind === 'escrow')?.amount;
        if (earlier.room?.code !== code || moved !== BigInt(req.buyIn)) {
          throw new LobbyError(
            ApiErrorCode.IDEMPOTENCY_CONFLICT,
            'that Idempotency-Key was used for a different request',
          );
        }
        return;
      }
    }
    const wallet = await accountBalance(this.o.prisma, walletAccount(userId));
    if (wallet < BigInt(req.buyIn)) {
      throw new LobbyError(ApiErrorCode.INSUFFICIENT_FUNDS, 'your wallet does not cover that buy-in', {
        wallet: Number(wallet),
        buy_in: req.buyIn,
      });
    }
  }

  /** room_limit_reached when the host already has as many open rooms as one may; locks the host's row. */
  private async checkRoomCap(tx: TxClient, hostId: string): Promise<void> {
    // The user row's lock serialises this user's creations, so two at once can't both fit under the cap.
    await tx.$queryRaw`SELECT "id" FROM "users" WHERE "id" = ${hostId}::uuid FOR UPDATE`;
    const open = await tx.room.count({ where: { hostId, status: 'open' } });
    if (open >= this.o.maxOpenRoomsPerUser) {
      throw new LobbyError(
        ApiErrorCode.ROOM_LIMIT_REACHED,
        `you already host ${open} open rooms, the most one player may; close one first`,
        { open, max: this.o.maxOpenRoomsPerUser },
      );
    }
  }

  /**
   * rooms.config is validated on every read as well as every write. A row that does not parse (written
   * before a bound existed, or by hand) is logged once and treated as absent, so it takes down only
   * itself and never a list or a join.
   */
  private readConfig(raw: unknown, roomId: string): RoomConfig | null {
    const parsed = safeParseRoomConfig(raw);
    if (parsed.success) return parsed.config;
    if (!this.unreadableLogged.has(roomId)) {
      if (this.unreadableLogged.size >= UNREADABLE_LOGGED_MAX) this.unreadableLogged.clear();
      this.unreadableLogged.add(roomId);
      this.o.logger.warn(
        { event: 'room_config_unreadable', roomId, issues: parsed.error.issues.slice(0, 5) },
        `room ${roomId} has a stored config that does not parse; skipping it`,
      );
    }
    return null;
  }

  private requireConfig(raw: unknown, roomId: string): RoomConfig {
    const config = this.readConfig(raw, roomId);
    if (!config) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no open room has that code or id');
    return config;
  }

  /** Takes a seat in the open room with this id (the worker's table id). */
  async joinById(userId: string, roomId: string, req: SeatRequest): Promise<SeatResult> {
    const result = await this.transaction(async (tx) => {
      const room = await this.lockRoom(tx, { id: roomId });
      return this.seatInLocked(tx, room, userId, req);
    });
    if (!result.replayed) this.emit({ room_id: result.roomId, type: 'member_joined', user_id: userId });
    return result;
  }

  /**
   * The first open listed room (oldest first) that matches the filter, has a free seat, doesn't
   * already seat this user, and whose buy-in range admits the requested buy-in (or, without one,
   * the most the wallet affords up to the room's maximum).
   */
  async quickJoin(userId: string, filter: QuickJoinFilter, buyInChips?: number): Promise<SeatResult> {
    const candidates = await this.o.prisma.room.findMany({
      where: {
        status: 'open',
        isPublic: true,
        ...(filter.game ? { config: { path: ['game'], equals: filter.game } } : {}),
        memberships: { none: { userId, status: 'active' } },
      },
      orderBy: { createdAt: 'asc' },
      take: 200,
      select: {
        id: true,
        config: true,
        _count: { select: { memberships: { where: { status: 'active' } } } },
      },
    });
    const wallet = await accountBalance(this.o.prisma, walletAccount(userId));
    let unaffordable = false;
    for (const candidate of candidates) {
      const config = this.readConfig(candidate.config, candidate.id);
      if (!config) continue;
      if (filter.limit && config.limit !== filter.limit) continue;
      if (filter.stakes && stakesLabel(config) !== filter.stakes) continue;
      if (candidate._count.memberships >= config.seats) continue;
      let amount = buyInChips;
      if (amount === undefined) {
        amount = Math.min(config.buyIn.max, Number(wallet));
        if (amount < config.buyIn.min) {
          unaffordable = true;
          continue;
        }
      } else if (amount < config.buyIn.min || amount > config.buyIn.max) {
        continue;
      }
      try {
        return await this.joinById(userId, candidate.id, { buyIn: amount });
      } catch (err) {
        // Lost a race for the last seat, or the room closed meanwhile: try the next one.
        if (err instanceof LobbyError && ['room_full', 'room_closed', 'room_not_found'].includes(err.code)) continue;
        if (err instanceof LobbyError && err.code === ApiErrorCode.INSUFFICIENT_FUNDS) {
          unaffordable = true;
          continue;
        }
        throw err;
      }
    }
    if (unaffordable) {
      throw new LobbyError(ApiErrorCode.INSUFFICIENT_FUNDS, 'no matching room has a buy-in your wallet covers');
    }
    throw new LobbyError(ApiErrorCode.NO_ROOM_AVAILABLE, 'no open room matches with a free seat');
  }

  /**
   * Gives up the seat. In ledger mode the stack (the escrow) goes back to the wallet at once, as one
   * transaction with the seat's release. In worker mode the request is recorded and the table is
   * told; the worker lets the player go at the end of a hand in progress and sends the final stack,
   * and the persister pays it once every earlier hand is persisted (docs/dev/money-flows.md).
   */
  async leave(userId: string, roomId: string): Promise<LeaveResult> {
    const result = await this.transaction(async (tx): Promise<LeaveResult> => {
      const room = await this.lockRoom(tx, { id: roomId }, { allowClosing: true });
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
      const out = await this.ledgerCashOut(tx, room, userId, cashOutRequestId.leave(membership.id), 'leave');
      return { status: 'left', refunded: out.paid ?? 0n, wallet: await accountBalance(tx, walletAccount(userId)) };
    });
    this.emit({ room_id: roomId, type: result.status === 'left' ? 'member_left' : 'member_leaving', user_id: userId });
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
    const result = await this.transaction(async (tx): Promise<TopUpResult> => {
      const room = await this.lockRoom(tx, { id: roomId });
      const config = this.requireConfig(room.config, room.id);
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
      try {
        const row = await recordTopUp(tx, {
          roomId: room.id,
          userId,
          membershipId: membership.id,
          amount: BigInt(amount),
          idempotencyKey: key ?? `top-up:${membership.id}:${randomUUID()}`,
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
    if (!result.replayed) this.emit({ room_id: roomId, type: 'top_up', user_id: userId });
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

  /**
   * Ledger mode's cash-out: the escrow less top-ups no table applied is the final stack, and the
   * room's cursor is the last hand (no worker plays hands in this mode). The same requestCashOut
   * a worker's request goes through, so the amount still has to reconcile.
   */
  private async ledgerCashOut(
    tx: TxClient,
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
      this.o.clock.now(),
    );
  }

  /**
   * Deletes a room recoverably (reference 002 §8): the tombstone (status closing) commits first,
   * then each seat is refunded and freed, one idempotent cash-out each, then the room is closed.
   * In ledger mode the lobby does all of it now; in worker mode the table worker cancels a live
   * hand and sends each seat's stack (committed chips included), and the persister refunds them
   * and closes the room after the last one. A crash anywhere in between leaves a closing room that
   * finishClosingRooms() carries on with.
   */
  async close(userId: string, roomId: string): Promise<CloseResult> {
    await this.beginClose(userId, roomId);
    if (this.o.cashOutMode === CashOutMode.WORKER) {
      this.emit({ room_id: roomId, type: 'room_closed' });
      return { status: 'closing', refunds: [] };
    }
    return this.finishClose(roomId);
  }

  /** The first step of close(): the tombstone. Exposed so a test can stop there, as a crash would. */
  async beginClose(userId: string, roomId: string): Promise<void> {
    await this.transaction(async (tx) => {
      const room = await this.lockRoom(tx, { id: roomId }, { allowClosing: true });
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
        this.emit({ room_id: room.id, type: 'room_closed' });
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
      const out = await this.transaction(async (tx) => {
        const room = await this.lockRoom(tx, { id: roomId }, { allowClosing: true });
        if (room.status !== 'closing') return null;
        const requestId = membershipId
          ? cashOutRequestId.roomClose(membershipId)
          : cashOutRequestId.roomCloseOrphan(roomId, user);
        return this.ledgerCashOut(tx, room, user, requestId, 'room_close');
      });
      if (out && !out.replayed && out.status === 'paid' && (out.paid ?? 0n) > 0n) {
        refunds.push({ userId: user, amount: out.paid ?? 0n });
      }
      afterRefund?.(user);
    }
    const status = await this.o.prisma.room.findUnique({ where: { id: roomId }, select: { status: true } });
    if (status?.status === 'closed') this.emit({ room_id: roomId, type: 'room_closed' });
    else {
      this.o.logger.error({ event: 'room_close_stuck', roomId }, 'room stays closing: a refund did not reconcile');
    }
    return { status: status?.status === 'closed' ? 'closed' : 'closing', refunds };
  }

  /** Open listed rooms, oldest first, optionally filtered. */
  async list(filter: QuickJoinFilter, pageSize: number): Promise<RoomSummary[]> {
    const rows = await this.o.prisma.room.findMany({
      where: {
        status: 'open',
        isPublic: true,
        ...(filter.game ? { config: { path: ['game'], equals: filter.game } } : {}),
      },
      orderBy: { createdAt: 'asc' },
      take: filter.limit || filter.stakes ? 1000 : pageSize,
      select: {
        id: true,
        code: true,
        status: true,
        hostId: true,
        config: true,
        createdAt: true,
        _count: { select: { memberships: { where: { status: 'active' } } } },
      },
    });
    return rows
      .flatMap((r) => {
        const config = this.readConfig(r.config, r.id);
        return config
          ? [
              {
                id: r.id,
                code: r.code,
                status: r.status,
                hostId: r.hostId,
                config,
                players: r._count.memberships,
                createdAt: r.createdAt,
              },
            ]
          : [];
      })
      .filter(
        (r) =>
          (!filter.limit || r.config.limit === filter.limit) &&
          (!filter.stakes || stakesLabel(r.config) === filter.stakes),
      )
      .slice(0, pageSize);
  }

  /** One room (closed ones included, so a client learns why it can't join) with its members. */
  async get(roomId: string): Promise<{ room: RoomSummary; members: RoomMember[] } | null> {
    if (!UUID.test(roomId)) return null;
    const r = await this.o.prisma.room.findUnique({
      where: { id: roomId },
      select: {
        id: true,
        code: true,
        status: true,
        hostId: true,
        config: true,
        createdAt: true,
        memberships: {
          where: { status: 'active' },
          orderBy: { seat: 'asc' },
          select: { userId: true, seat: true, user: { select: { name: true } } },
        },
      },
    });
    if (!r) return null;
    const config = this.readConfig(r.config, r.id);
    if (!config) return null;
    const stacks = await roomEscrows(this.o.prisma, r.id);
    return {
      room: {
        id: r.id,
        code: r.code,
        status: r.status,
        hostId: r.hostId,
        config,
        players: r.memberships.length,
        createdAt: r.createdAt,
      },
      members: r.memberships.map((m) => ({
        userId: m.userId,
        name: m.user.name,
        seat: m.seat,
        stack: stacks.get(m.userId) ?? 0n,
      })),
    };
  }

  /** The user's active seats, for GET /api/me. */
  async seatsOf(userId: string): Promise<{ roomId: string; code: string; seat: number; stack: bigint }[]> {
    const rows = await this.o.prisma.membership.findMany({
      where: { userId, status: 'active' },
      orderBy: { joinedAt: 'asc' },
      select: { roomId: true, seat: true, room: { select: { code: true } } },
    });
    return Promise.all(
      rows.map(async (m) => ({
        roomId: m.roomId,
        code: m.room.code,
        seat: m.seat,
        stack: await accountBalance(this.o.prisma, escrowAccount(m.roomId, userId)),
      })),
    );
  }

  private async lockRoom(
    tx: TxClient,
    by: { code: string } | { id: string },
    options: { allowClosing?: boolean } = {},
  ): Promise<LockedRoom> {
    if ('id' in by && !UUID.test(by.id)) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no such room');
    // FOR UPDATE on the room row serialises every membership change of this room.
    const rows =
      'code' in by
        ? await tx.$queryRaw<LockedRoom[]>`
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config",
              "last_hand_no"
            FROM "rooms" WHERE "code" = ${by.code} AND "status" <> 'closed' FOR UPDATE`
        : await tx.$queryRaw<LockedRoom[]>`
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config",
              "last_hand_no"
            FROM "rooms" WHERE "id" = ${by.id}::uuid FOR UPDATE`;
    const room = rows[0];
    if (!room) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no open room has that code or id');
    if (room.status === 'closed' || (room.status === 'closing' && !options.allowClosing)) {
      throw new LobbyError(ApiErrorCode.ROOM_CLOSED, 'the room is closed');
    }
    return room;
  }

  private seatInLocked(tx: TxClient, room: LockedRoom, userId: string, req: SeatRequest): Promise<SeatResult> {
    const config = this.requireConfig(room.config, room.id);
    checkSeatRequest(config, req);
    return this.seatIn(tx, { id: room.id, code: room.code, lastHandNo: room.last_hand_no }, config, userId, req);
  }

  /** Seat choice, the membership row and the buy-in, inside the caller's transaction. */
  private async seatIn(
    tx: TxClient,
    room: { id: string; code: string; lastHandNo: number },
    config: RoomConfig,
    userId: string,
    req: SeatRequest,
  ): Promise<SeatResult> {
    const clientKey = req.idempotencyKey ? `join:${userId}:${req.idempotencyKey}` : undefined;
    if (clientKey) {
      const replay = await this.replayJoin(tx, clientKey, room.id, userId, req.buyIn);
      if (replay) return replay;
    }
    const active = await tx.membership.findMany({
      where: { roomId: room.id, status: 'active' },
      select: { userId: true, seat: true },
    });
    if (active.some((m) => m.userId === userId)) {
      throw new LobbyError(ApiErrorCode.ALREADY_SEATED, 'you already have a seat in this room');
    }
    // The escrow is per room and player: a new seat waits until the last one's chips are home.
    const open = await tx.cashOut.findFirst({
      where: { roomId: room.id, userId, status: { in: ['pending', 'mismatch'] } },
      select: { status: true },
    });
    if (open) {
      throw new LobbyError(
        ApiErrorCode.CASH_OUT_PENDING,
        open.status === 'pending'
          ? 'your last seat here is still being cashed out; try again in a moment'
          : 'your last cash-out here did not reconcile and is with an operator',
        { status: open.status },
      );
    }
    const taken = new Set(active.map((m) => m.seat));
    if (taken.size >= config.seats) throw new LobbyError(ApiErrorCode.ROOM_FULL, 'every seat is taken');
    let seat = req.seat;
    if (seat === undefined) {
      seat = 1;
      while (taken.has(seat)) seat++;
    } else if (taken.has(seat)) {
      throw new LobbyError(ApiErrorCode.SEAT_TAKEN, `seat ${seat} is taken`, { seat });
    }
    const membership = await tx.membership.create({
      data: { roomId: room.id, userId, seat, buyIn: BigInt(req.buyIn), joinedAfterHand: room.lastHandNo },
      select: { id: true },
    });
    try {
      await buyIn(tx, {
        userId,
        roomId: room.id,
        amount: BigInt(req.buyIn),
        idempotencyKey: clientKey ?? `buy-in:${membership.id}`,
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) {
        throw new LobbyError(ApiErrorCode.INSUFFICIENT_FUNDS, 'your wallet does not cover that buy-in', {
          wallet: Number(err.balance),
          buy_in: req.buyIn,
        });
      }
      throw err;
    }
    return {
      roomId: room.id,
      code: room.code,
      seat,
      stack: await accountBalance(tx, escrowAccount(room.id, userId)),
      wallet: await accountBalance(tx, walletAccount(userId)),
      replayed: false,
    };
  }

  private async replayJoin(
    tx: TxClient,
    key: string,
    roomId: string,
    userId: string,
    chips: number,
  ): Promise<SeatResult | null> {
    const earlier = await tx.ledgerTransaction.findUnique({
      where: { idempotencyKey: key },
      select: { roomId: true, entries: { select: { amount: true, account: { select: { kind: true } } } } },
    });
    if (!earlier) return null;
    const moved = earlier.entries.find((e) => e.account.kind === 'escrow')?.amount;
    if (earlier.roomId !== roomId || moved !== BigInt(chips)) {
      throw new LobbyError(ApiErrorCode.IDEMPOTENCY_CONFLICT, 'that Idempotency-Key was used for a different request');
    }
    const membership = await tx.membership.findFirst({
      where: { roomId, userId },
      orderBy: { joinedAt: 'desc' },
      select: { seat: true, room: { select: { code: true } } },
    });
    return {
      roomId,
      code: membership?.room.code ?? '',
      seat: membership?.seat ?? 0,
      stack: await accountBalance(tx, escrowAccount(roomId, userId)),
      wallet: await accountBalance(tx, walletAccount(userId)),
      replayed: true,
    };
  }

  private async transaction<T>(fn: (tx: TxClient) => Promise<T>): Promise<T> {
    try {
      return await withTransaction(this.o.prisma, fn);
    } catch (err) {
      // The room lock makes these unreachable; the partial unique indexes are the backstop.
      if (isUniqueViolation(err, 'memberships_room_seat_active_key')) {
        throw new LobbyError(ApiErrorCode.SEAT_TAKEN, 'that seat is taken', undefined, { cause: err });
      }
      if (isUniqueViolation(err, 'memberships_room_user_active_key')) {
        throw new LobbyError(ApiErrorCode.ALREADY_SEATED, 'you already have a seat in this room', undefined, {
          cause: err,
        });
      }
      if (err instanceof CashOutConflictError) {
        throw new LobbyError(
          ApiErrorCode.CASH_OUT_PENDING,
          'a cash-out for this seat is already in progress',
          undefined,
          {
            cause: err,
          },
        );
      }
      if (err instanceof IdempotencyConflictError) {
        throw new LobbyError(
          ApiErrorCode.IDEMPOTENCY_CONFLICT,
          'that Idempotency-Key was used for a different request',
        );
      }
      throw err;
    }
  }

  private emit(event: RoomEvent): void {
    this.o.events.publish(event).then(
      () => this.o.onPublish?.(event, true),
      (err: unknown) => {
        this.o.onPublish?.(event, false);
        this.o.logger.warn(
          { event: 'room_event_publish_failed', room: event.room_id, err },
          'room event not published',
        );
      },
    );
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkSeatRequest(config: RoomConfig, req: SeatRequest): void {
  if (req.seat !== undefined && (req.seat < 1 || req.seat > config.seats)) {
    throw new LobbyError(ApiErrorCode.INVALID_SEAT, `seats are numbered 1 to ${config.seats}`, {
      seats: config.seats,
    });
  }
  if (req.buyIn < config.buyIn.min || req.buyIn > config.buyIn.max) {
    throw new LobbyError(
      ApiErrorCode.BUY_IN_OUT_OF_RANGE,
      `the buy-in must be between ${config.buyIn.min} and ${config.buyIn.max}`,
      { min: config.buyIn.min, max: config.buyIn.max },
    );
  }
}
