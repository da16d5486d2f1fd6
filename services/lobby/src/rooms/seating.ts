import { randomInt } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  accountBalance,
  buyIn,
  escrowAccount,
  InsufficientFundsError,
  isUniqueViolation,
  PRACTICE_REFILL_CHIPS,
  practiceWalletAccount,
  refillPracticeWallet,
  walletAccount,
  type Prisma,
  type TxClient,
} from '@felt/db';
import {
  newRoomIssues,
  parseRoomConfig,
  RoomConfigError,
  safeParseRoomConfig,
  stakesLabel,
  type RoomConfig,
} from '@felt/protocol';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { LockedRoom, RoomStore } from './room-store.js';
import type { QuickJoinFilter, RoomSummary, RoomsOptions, SeatRequest, SeatResult } from './types.js';
import { WaitlistChange, type RoomWaitlists } from './waitlist.js';

const CODE_ATTEMPTS = 20;

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

/** Creating a room and taking a seat: by code, by id, or the first listed room that fits. */
export class Seating {
  constructor(
    private readonly o: RoomsOptions,
    private readonly store: RoomStore,
    private readonly waitlists: RoomWaitlists,
  ) {}

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
        const result = await this.store.transaction(async (tx) => {
          await this.checkRoomCap(tx, hostId);
          const room = await tx.room.create({
            data: {
              code: sixDigits(),
              config: stored,
              isPublic: config.listed,
              practice: config.practiceChips,
              hostId,
            },
            select: { id: true, code: true, status: true, hostId: true, createdAt: true },
          });
          const seat = sit ? await this.seatIn(tx, { ...room, lastHandNo: 0 }, config, hostId, sit) : null;
          return { room, seat };
        });
        if (result.seat) this.store.emit({ room_id: result.room.id, type: 'member_joined', user_id: hostId });
        return {
          room: { ...result.room, config, players: result.seat ? 1 : 0, waitlist: 0 },
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
    let change: WaitlistChange | undefined;
    // A wallet short of the buy-in is refused whatever the code names, except at a practice room,
    // which pays from the free practice wallet: such a join learns only what any join does.
    let short: LobbyError | null = null;
    try {
      short = await this.checkBeforeLookup(userId, code, req);
      result = await this.store.transaction(async (tx) => {
        const room = await this.store.lockRoom(tx, { code });
        if (short && this.store.readConfig(room.config, room.id)?.practiceChips !== true) throw short;
        change = new WaitlistChange(room.id, room.code);
        return this.seatInLocked(tx, room, userId, req, change);
      });
    } catch (err) {
      if (err instanceof LobbyError && HIDDEN_BY_CODE.has(err.code)) {
        // A short wallet's join is answered the same for every code, and counted as it always was.
        if (short) {
          await attempt.succeeded();
          throw short;
        }
        await attempt.failed();
        throw noRoomForCode();
      }
      await attempt.succeeded();
      throw err;
    }
    await attempt.succeeded();
    if (!result.replayed) this.store.emit({ room_id: result.roomId, type: 'member_joined', user_id: userId });
    if (change) await this.waitlists.tell(change);
    return result;
  }

  /**
   * The refusals that depend on the user alone, decided before the room is looked up so that they
   * can't say whether a code exists: an Idempotency-Key already used for another join
   * (idempotency_conflict), a wallet that doesn't cover the buy-in (insufficient_funds: returned, and
   * the answer unless the code names a practice room). A repeat of an earlier join (same key, code
   * and buy-in) goes on to be answered from the ledger.
   */
  private async checkBeforeLookup(userId: string, code: string, req: SeatRequest): Promise<LobbyError | null> {
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
        return null;
      }
    }
    const wallet = await accountBalance(this.o.prisma, walletAccount(userId));
    if (wallet < BigInt(req.buyIn)) {
      return new LobbyError(ApiErrorCode.INSUFFICIENT_FUNDS, 'your wallet does not cover that buy-in', {
        wallet: Number(wallet),
        buy_in: req.buyIn,
      });
    }
    return null;
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

  /** Takes a seat in the open room with this id (the worker's table id). */
  async joinById(userId: string, roomId: string, req: SeatRequest): Promise<SeatResult> {
    let change: WaitlistChange | undefined;
    const result = await this.store.transaction(async (tx) => {
      const room = await this.store.lockRoom(tx, { id: roomId });
      change = new WaitlistChange(room.id, room.code);
      return this.seatInLocked(tx, room, userId, req, change);
    });
    if (!result.replayed) this.store.emit({ room_id: result.roomId, type: 'member_joined', user_id: userId });
    if (change) await this.waitlists.tell(change);
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
    // What the player can pay: the wallet, or at practice rooms (the only ones asked for with
    // `practice`) the practice wallet, which is refilled up to at least PRACTICE_REFILL_CHIPS.
    const practice = filter.practice === true;
    const balance = await accountBalance(
      this.o.prisma,
      practice ? practiceWalletAccount(userId) : walletAccount(userId),
    );
    const affords = practice && balance < PRACTICE_REFILL_CHIPS ? PRACTICE_REFILL_CHIPS : balance;
    let unaffordable = false;
    for (const candidate of candidates) {
      const config = this.store.readConfig(candidate.config, candidate.id);
      if (!config) continue;
      if (filter.limit && config.limit !== filter.limit) continue;
      if (filter.stakes && stakesLabel(config) !== filter.stakes) continue;
      if (config.practiceChips !== (filter.practice === true)) continue;
      if (candidate._count.memberships >= config.seats) continue;
      let amount = buyInChips;
      if (amount === undefined) {
        amount = Math.min(config.buyIn.max, Number(affords));
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

  private seatInLocked(
    tx: TxClient,
    room: LockedRoom,
    userId: string,
    req: SeatRequest,
    change: WaitlistChange,
  ): Promise<SeatResult> {
    const config = this.store.requireConfig(room.config, room.id);
    checkSeatRequest(config, req);
    return this.seatIn(
      tx,
      { id: room.id, code: room.code, lastHandNo: room.last_hand_no },
      config,
      userId,
      req,
      change,
    );
  }

  /** Seat choice, the membership row and the buy-in, inside the caller's transaction. */
  private async seatIn(
    tx: TxClient,
    room: { id: string; code: string; lastHandNo: number },
    config: RoomConfig,
    userId: string,
    req: SeatRequest,
    change: WaitlistChange = new WaitlistChange(room.id, room.code),
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
    if (taken.size >= config.seats) {
      throw new LobbyError(ApiErrorCode.ROOM_FULL, 'every seat is taken', {
        waitlist: await tx.waitlistEntry.count({ where: { roomId: room.id } }),
      });
    }
    // Free seats held for waiting players' offers are theirs (rooms/waitlist.ts).
    const admission = await this.waitlists.admit(tx, room, config.seats, active.length, userId, change);
    if (!admission.allowed) {
      throw new LobbyError(ApiErrorCode.ROOM_FULL, 'every free seat is held for a player on the waitlist', {
        waitlist: admission.length,
      });
    }
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
    // Practice chips are free: a practice wallet short of the buy-in is refilled first (the buy-in
    // then comes from it, never from the real wallet).
    if (config.practiceChips) {
      await refillPracticeWallet(tx, {
        userId,
        need: BigInt(req.buyIn),
        idempotencyKey: `practice-refill:${membership.id}`,
        alsoLock: [escrowAccount(room.id, userId)],
      });
    }
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
}

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
