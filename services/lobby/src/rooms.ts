import { randomInt } from 'node:crypto';
import {
  accountBalance,
  buyIn,
  cashOut,
  escrowAccount,
  IdempotencyConflictError,
  InsufficientFundsError,
  isUniqueViolation,
  roomEscrows,
  walletAccount,
  withTransaction,
  type Prisma,
  type PrismaClient,
  type TxClient,
} from '@felt/db';
import type { Logger } from '@felt/platform';
import {
  parseRoomConfig,
  RoomConfigError,
  stakesLabel,
  type BettingLimit,
  type GameType,
  type RoomConfig,
} from '@felt/protocol';
import { ApiErrorCode, LobbyError } from './errors.js';
import type { Clock, RoomEvent, RoomEventPublisher } from './ports.js';

export interface RoomsOptions {
  readonly prisma: PrismaClient;
  readonly events: RoomEventPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called once per published or failed event, for metrics. */
  readonly onPublish?: (event: RoomEvent, ok: boolean) => void;
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
}

const CODE_ATTEMPTS = 20;

/** rooms.config is validated on every read as well as every write. */
function configOf(raw: unknown, roomId: string): RoomConfig {
  try {
    return parseRoomConfig(raw);
  } catch (err) {
    throw new Error(`room ${roomId} has an invalid stored config`, { cause: err });
  }
}

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
    } catch (err) {
      if (err instanceof RoomConfigError) {
        throw new LobbyError(ApiErrorCode.INVALID_ROOM_CONFIG, err.message, { issues: err.issues });
      }
      throw err;
    }
    if (sit) checkSeatRequest(config, sit);
    // The stored form is exactly the JSON form of the parsed config.
    const stored = JSON.parse(JSON.stringify(config)) as Prisma.InputJsonObject;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.transaction(async (tx) => {
          const room = await tx.room.create({
            data: { code: sixDigits(), config: stored, isPublic: config.listed, hostId },
            select: { id: true, code: true, status: true, hostId: true, createdAt: true },
          });
          const seat = sit ? await this.seatIn(tx, room, config, hostId, sit) : null;
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

  /** Takes a seat in the open room with this code. */
  async joinByCode(userId: string, code: string, req: SeatRequest): Promise<SeatResult> {
    const result = await this.transaction(async (tx) => {
      const room = await this.lockRoom(tx, { code });
      return this.seatInLocked(tx, room, userId, req);
    });
    if (!result.replayed) this.emit({ room_id: result.roomId, type: 'member_joined', user_id: userId });
    return result;
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
      const config = configOf(candidate.config, candidate.id);
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
   * Gives up the seat and returns the escrow to the wallet, as one transaction. Today the escrow is
   * the whole stack because hands don't move chips yet; issue 7 makes the worker's final stack the
   * cash-out amount (paid at the end of a hand in progress, after every earlier hand is persisted).
   */
  async leave(userId: string, roomId: string): Promise<{ refunded: bigint; wallet: bigint }> {
    const result = await this.transaction(async (tx) => {
      const room = await this.lockRoom(tx, { id: roomId }, { allowClosing: true });
      const membership = await tx.membership.findFirst({
        where: { roomId: room.id, userId, status: 'active' },
        select: { id: true },
      });
      if (!membership) throw new LobbyError(ApiErrorCode.NOT_SEATED, 'you have no seat in this room');
      await tx.membership.update({
        where: { id: membership.id },
        data: { status: 'left', leftAt: this.o.clock.now() },
      });
      const out = await cashOut(tx, { userId, roomId: room.id, idempotencyKey: `cash-out:${membership.id}` });
      return {
        refunded: out?.entries.find((e) => e.accountKey.startsWith('wallet:'))?.amount ?? 0n,
        wallet: await accountBalance(tx, walletAccount(userId)),
      };
    });
    this.emit({ room_id: roomId, type: 'member_left', user_id: userId });
    return result;
  }

  /**
   * Deletes a room recoverably (reference 002 §8): the tombstone (status closing) commits first,
   * then each player's escrow is refunded and their seat freed, one idempotent transaction each,
   * then the room is closed. A crash anywhere in between leaves a closing room that
   * finishClosingRooms() completes, with the same refunds, on the next start.
   */
  async close(userId: string, roomId: string): Promise<{ refunds: { userId: string; amount: bigint }[] }> {
    await this.beginClose(userId, roomId);
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

  /** Completes every deletion that a crash interrupted. Run at start-up, before serving. */
  async finishClosingRooms(): Promise<number> {
    const closing = await this.o.prisma.room.findMany({ where: { status: 'closing' }, select: { id: true } });
    for (const room of closing) {
      const { refunds } = await this.finishClose(room.id);
      this.o.logger.info({ event: 'room_close_resumed', roomId: room.id, refunds: refunds.length }, 'finished closing');
    }
    return closing.length;
  }

  private async finishClose(roomId: string): Promise<{ refunds: { userId: string; amount: bigint }[] }> {
    const refunds: { userId: string; amount: bigint }[] = [];
    const escrows = await roomEscrows(this.o.prisma, roomId);
    const seated = await this.o.prisma.membership.findMany({
      where: { roomId, status: 'active' },
      select: { userId: true },
    });
    const users = new Set([...seated.map((m) => m.userId), ...[...escrows].filter(([, b]) => b > 0n).map(([u]) => u)]);
    for (const user of users) {
      const amount = await this.transaction(async (tx) => {
        await this.lockRoom(tx, { id: roomId }, { allowClosing: true });
        await tx.membership.updateMany({
          where: { roomId, userId: user, status: 'active' },
          data: { status: 'left', leftAt: this.o.clock.now() },
        });
        // One key per (room, user): a resumed deletion finds the refund already made.
        const out = await cashOut(tx, {
          userId: user,
          roomId,
          kind: 'refund',
          idempotencyKey: `room-close:${roomId}:${user}`,
        });
        return out?.replayed ? 0n : (out?.entries.find((e) => e.accountKey.startsWith('wallet:'))?.amount ?? 0n);
      });
      if (amount > 0n) refunds.push({ userId: user, amount });
    }
    await this.transaction(async (tx) => {
      await tx.room.updateMany({
        where: { id: roomId, status: 'closing' },
        data: { status: 'closed', closedAt: this.o.clock.now() },
      });
    });
    this.emit({ room_id: roomId, type: 'room_closed' });
    return { refunds };
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
      .map((r) => ({
        id: r.id,
        code: r.code,
        status: r.status,
        hostId: r.hostId,
        config: configOf(r.config, r.id),
        players: r._count.memberships,
        createdAt: r.createdAt,
      }))
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
    const stacks = await roomEscrows(this.o.prisma, r.id);
    return {
      room: {
        id: r.id,
        code: r.code,
        status: r.status,
        hostId: r.hostId,
        config: configOf(r.config, r.id),
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
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config"
            FROM "rooms" WHERE "code" = ${by.code} AND "status" <> 'closed' FOR UPDATE`
        : await tx.$queryRaw<LockedRoom[]>`
            SELECT "id"::text AS "id", "code", "status"::text AS "status", "host_id"::text AS "host_id", "config"
            FROM "rooms" WHERE "id" = ${by.id}::uuid FOR UPDATE`;
    const room = rows[0];
    if (!room) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no open room has that code or id');
    if (room.status === 'closed' || (room.status === 'closing' && !options.allowClosing)) {
      throw new LobbyError(ApiErrorCode.ROOM_CLOSED, 'the room is closed');
    }
    return room;
  }

  private seatInLocked(tx: TxClient, room: LockedRoom, userId: string, req: SeatRequest): Promise<SeatResult> {
    const config = configOf(room.config, room.id);
    checkSeatRequest(config, req);
    return this.seatIn(tx, room, config, userId, req);
  }

  /** Seat choice, the membership row and the buy-in, inside the caller's transaction. */
  private async seatIn(
    tx: TxClient,
    room: { id: string; code: string },
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
      data: { roomId: room.id, userId, seat, buyIn: BigInt(req.buyIn) },
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
