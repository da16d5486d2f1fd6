import type { TxClient } from '@felt/db';
import {
  WAITLIST_MAX_PER_ROOM,
  WAITLIST_MAX_PER_USER,
  WAITLIST_OFFER_MS,
  WaitlistStatus,
  type LobbyWaitlistEntry,
  type WaitlistMessage,
} from '@felt/protocol';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { LockedRoom, RoomStore } from './room-store.js';
import type { RoomsOptions } from './types.js';

/** Rooms whose waitlist a keeper round moves on, at most. */
const KEEPER_BATCH = 100;

/** One waitlist entry as a room's line holds it. */
interface Entry {
  readonly userId: string;
  readonly createdAt: Date;
  readonly offerExpiresAt: Date | null;
}

/**
 * What a change did to a room's line, collected inside the transaction that made it and told after
 * the commit: every player still in line gets their place, the ones who left it why.
 */
export class WaitlistChange {
  /** Players who are out of the line now, and why. */
  readonly removed = new Map<string, WaitlistStatus>();
  /** Whether the line changed at all (an entry added, removed or offered a seat). */
  changed = false;

  constructor(
    readonly roomId: string,
    readonly code: string,
  ) {}
}

/** Whether a player may take a seat at a room, its waitlist considered. */
export interface Admission {
  readonly allowed: boolean;
  /** Players in the line (after lapsed offers went and free seats were offered). */
  readonly length: number;
}

/**
 * Room waitlists (docs/dev/contracts.md, "Waitlists"). A player joins the line of a room that has no
 * seat for them; when a seat is free, the first in line without an offer is offered it for
 * WAITLIST_OFFER_MS, and the seat is held: nobody else, and no bot, may take it meanwhile. An offer
 * not taken in time lapses: that player leaves the line and the seat goes to the next. Each change of
 * the line is decided under the room row's lock, like every other seat change, and told afterwards to
 * the players in it (`waitlist` messages on `P wallet:<userId>`, which the gateways hand to their live
 * lobby sockets) and to the table (a `waitlist_changed` room event: bots give up seats to waiting
 * humans at the next hand boundary).
 *
 * Seats come free without the lobby seeing it (the persister settles a cash-out, a bot leaves), so a
 * keeper (`keep`, every second in each lobby replica) moves on the lines that can move: an offer
 * lapsed, or more free seats than offers while someone waits.
 */
export class RoomWaitlists {
  constructor(
    private readonly o: RoomsOptions,
    private readonly store: RoomStore,
  ) {}

  /** Joins the room's line; answers with the player's place. Repeating it changes nothing. */
  async join(userId: string, roomId: string): Promise<LobbyWaitlistEntry> {
    await (await this.o.joinGuard.waitlistChange(userId)).succeeded();
    const now = this.o.clock.now();
    const { change, entry } = await this.store.transaction(async (tx) => {
      const room = await this.store.lockRoom(tx, { id: roomId });
      const config = this.store.requireConfig(room.config, room.id);
      const active = await tx.membership.findMany({
        where: { roomId: room.id, status: 'active' },
        select: { userId: true },
      });
      if (active.some((m) => m.userId === userId)) {
        throw new LobbyError(ApiErrorCode.ALREADY_SEATED, 'you already have a seat in this room');
      }
      const change = new WaitlistChange(room.id, room.code);
      let line = await this.settle(tx, room, config.seats, active.length, now, change);
      if (!line.some((e) => e.userId === userId)) {
        if (freeFor(userId, line, config.seats, active.length, now) > 0) {
          throw new LobbyError(ApiErrorCode.SEAT_AVAILABLE, 'a seat is free at this room: join it instead', {
            code: room.code,
          });
        }
        if (line.length >= WAITLIST_MAX_PER_ROOM) {
          throw new LobbyError(
            ApiErrorCode.WAITLIST_FULL,
            `${WAITLIST_MAX_PER_ROOM} players wait for this room already`,
            { max: WAITLIST_MAX_PER_ROOM },
          );
        }
        // The user's row lock serialises their joins, so two at once can't both fit under the cap.
        await tx.$queryRaw`SELECT "id" FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`;
        const elsewhere = await tx.waitlistEntry.count({ where: { userId } });
        if (elsewhere >= WAITLIST_MAX_PER_USER) {
          throw new LobbyError(
            ApiErrorCode.WAITLIST_LIMIT,
            `you wait for ${elsewhere} rooms already, the most one player may; leave one of those lines first`,
            { max: WAITLIST_MAX_PER_USER },
          );
        }
        await tx.waitlistEntry.create({ data: { roomId: room.id, userId, createdAt: now } });
        line = [...line, { userId, createdAt: now, offerExpiresAt: null }];
        change.changed = true;
      }
      return { change, entry: entryOf(line, userId, room.code, room.id) };
    });
    await this.tell(change);
    if (!entry) throw new Error('a waitlist entry just written is missing');
    return entry;
  }

  /** Leaves the room's line (nothing when not in it); a seat offered to the player goes to the next. */
  async leave(userId: string, roomId: string): Promise<void> {
    await (await this.o.joinGuard.waitlistChange(userId)).succeeded();
    const now = this.o.clock.now();
    const change = await this.store.transaction(async (tx) => {
      const room = await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true });
      const change = new WaitlistChange(room.id, room.code);
      const gone = await tx.waitlistEntry.deleteMany({ where: { roomId: room.id, userId } });
      if (gone.count === 0) return change;
      change.changed = true;
      change.removed.set(userId, WaitlistStatus.LEFT);
      const config = this.store.readConfig(room.config, room.id);
      if (room.status === 'open' && config) {
        const active = await tx.membership.count({ where: { roomId: room.id, status: 'active' } });
        await this.settle(tx, room, config.seats, active, now, change);
      }
      return change;
    });
    await this.tell(change);
  }

  /** The rooms the player waits at, in the order they joined the lines. */
  async mine(userId: string): Promise<LobbyWaitlistEntry[]> {
    const rows = await this.o.prisma.$queryRaw<
      { room_id: string; code: string; offer_expires_at: Date | null; position: bigint; length: bigint }[]
    >`
      SELECT w."room_id"::text AS "room_id", r."code", w."offer_expires_at",
        (SELECT count(*) FROM "waitlist_entries" x
          WHERE x."room_id" = w."room_id" AND (x."created_at", x."user_id") < (w."created_at", w."user_id")) + 1
          AS "position",
        (SELECT count(*) FROM "waitlist_entries" x WHERE x."room_id" = w."room_id") AS "length"
      FROM "waitlist_entries" w JOIN "rooms" r ON r."id" = w."room_id"
      WHERE w."user_id" = ${userId}::uuid
      ORDER BY w."created_at", w."room_id"`;
    return rows.map((r) => ({
      session_id: r.room_id,
      code: r.code,
      position: Number(r.position),
      length: Number(r.length),
      offer_expires_at: r.offer_expires_at?.toISOString() ?? null,
    }));
  }

  /**
   * Inside a join's transaction, the room locked and the player not seated there: moves the line on,
   * then says whether a seat is free for this player (one not held for another's offer). A player who
   * takes a seat leaves the line. `change` collects what to tell after the commit.
   */
  async admit(
    tx: TxClient,
    room: { id: string; code: string },
    seats: number,
    active: number,
    userId: string,
    change: WaitlistChange,
  ): Promise<Admission> {
    const now = this.o.clock.now();
    const line = await this.settle(tx, room, seats, active, now, change);
    const allowed = freeFor(userId, line, seats, active, now) > 0;
    if (allowed && line.some((e) => e.userId === userId)) {
      await tx.waitlistEntry.deleteMany({ where: { roomId: room.id, userId } });
      change.changed = true;
      change.removed.set(userId, WaitlistStatus.SEATED);
    }
    return { allowed, length: line.length };
  }

  /**
   * One keeper round: moves on every line that can move (an offer lapsed, a seat free with nobody
   * offered it, or the room no longer open). Returns how many rooms it moved on.
   */
  async keep(): Promise<number> {
    const now = this.o.clock.now();
    const rooms = await this.o.prisma.$queryRaw<{ room_id: string }[]>`
      SELECT w."room_id"::text AS "room_id"
      FROM "waitlist_entries" w JOIN "rooms" r ON r."id" = w."room_id"
      GROUP BY w."room_id", r."status", r."config"
      HAVING r."status" <> 'open'
        OR bool_or(w."offer_expires_at" <= ${now})
        OR (bool_or(w."offered_at" IS NULL)
          AND COALESCE((r."config"->>'seats')::int, 0)
            - (SELECT count(*) FROM "memberships" m WHERE m."room_id" = w."room_id" AND m."status" = 'active')
            > count(w."offered_at"))
      LIMIT ${KEEPER_BATCH}`;
    let moved = 0;
    for (const { room_id: roomId } of rooms) {
      try {
        const change = await this.store.transaction(async (tx) => {
          const room = await this.store.lockRoom(tx, { id: roomId }, { allowClosing: true }).catch((err: unknown) => {
            if (err instanceof LobbyError) return null;
            throw err;
          });
          if (!room) return this.clear(tx, roomId, '');
          const config = this.store.readConfig(room.config, room.id);
          if (room.status !== 'open' || !config) return this.clear(tx, room.id, room.code);
          const change = new WaitlistChange(room.id, room.code);
          const active = await tx.membership.count({ where: { roomId: room.id, status: 'active' } });
          await this.settle(tx, room, config.seats, active, now, change);
          return change;
        });
        await this.tell(change);
        if (change.changed) moved++;
      } catch (err) {
        this.o.logger.warn({ err, event: 'waitlist_keep_failed', roomId }, 'waitlist not moved on');
      }
    }
    return moved;
  }

  /** A closed (or unreadable) room's line goes: everyone in it is told. */
  private async clear(tx: TxClient, roomId: string, code: string): Promise<WaitlistChange> {
    const change = new WaitlistChange(roomId, code);
    const line = await tx.waitlistEntry.findMany({ where: { roomId }, select: { userId: true } });
    if (line.length === 0) return change;
    await tx.waitlistEntry.deleteMany({ where: { roomId } });
    change.changed = true;
    for (const e of line) change.removed.set(e.userId, WaitlistStatus.CLOSED);
    return change;
  }

  /**
   * Under the room's lock: lapsed offers leave the line, then each free seat not already on offer is
   * offered to the next in line. Returns the line as it is now, in order.
   */
  private async settle(
    tx: TxClient,
    room: Pick<LockedRoom, 'id'>,
    seats: number,
    active: number,
    now: Date,
    change: WaitlistChange,
  ): Promise<Entry[]> {
    const all = await tx.waitlistEntry.findMany({
      where: { roomId: room.id },
      orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
      select: { userId: true, createdAt: true, offerExpiresAt: true },
    });
    if (all.length === 0) return [];
    const lapsed = all.filter((e) => e.offerExpiresAt !== null && e.offerExpiresAt <= now);
    if (lapsed.length > 0) {
      await tx.waitlistEntry.deleteMany({ where: { roomId: room.id, userId: { in: lapsed.map((e) => e.userId) } } });
      for (const e of lapsed) change.removed.set(e.userId, WaitlistStatus.LAPSED);
      change.changed = true;
    }
    let line: Entry[] = all.filter((e) => !lapsed.includes(e));
    const onOffer = line.filter((e) => e.offerExpiresAt !== null).length;
    const toOffer = line.filter((e) => e.offerExpiresAt === null).slice(0, Math.max(0, seats - active - onOffer));
    if (toOffer.length > 0) {
      const until = new Date(now.getTime() + WAITLIST_OFFER_MS);
      const offered = new Set(toOffer.map((e) => e.userId));
      await tx.waitlistEntry.updateMany({
        where: { roomId: room.id, userId: { in: [...offered] } },
        data: { offeredAt: now, offerExpiresAt: until },
      });
      line = line.map((e) => (offered.has(e.userId) ? { ...e, offerExpiresAt: until } : e));
      change.changed = true;
    }
    return line;
  }

  /**
   * After the commit: each player in the line gets their place, each one who left it why (`waitlist`
   * messages), and the table rereads the room (bots make way for waiting humans). Best effort, like
   * every event: a player who misses one reads GET /api/waitlists, and the table rereads the room at
   * its next refresh anyway.
   */
  async tell(change: WaitlistChange): Promise<void> {
    if (!change.changed) return;
    this.store.emit({ room_id: change.roomId, type: 'waitlist_changed' });
    const notices = this.o.waitlistNotices;
    if (!notices) return;
    try {
      const line = await this.o.prisma.waitlistEntry.findMany({
        where: { roomId: change.roomId },
        orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
        select: { userId: true, createdAt: true, offerExpiresAt: true },
      });
      const code = change.code || (await this.codeOf(change.roomId));
      const messages: { userId: string; message: WaitlistMessage }[] = [];
      for (const [userId, status] of change.removed) {
        if (line.some((e) => e.userId === userId)) continue;
        messages.push({ userId, message: { type: 'waitlist', session_id: change.roomId, code, status, entry: null } });
      }
      for (const e of line) {
        const entry = entryOf(line, e.userId, code, change.roomId);
        const status = entry?.offer_expires_at ? WaitlistStatus.OFFERED : WaitlistStatus.WAITING;
        messages.push({
          userId: e.userId,
          message: { type: 'waitlist', session_id: change.roomId, code, status, entry },
        });
      }
      await notices.send(messages);
    } catch (err) {
      this.o.logger.warn({ err, event: 'waitlist_notice_failed', roomId: change.roomId }, 'waitlist not told');
    }
  }

  private async codeOf(roomId: string): Promise<string> {
    const room = await this.o.prisma.room.findUnique({ where: { id: roomId }, select: { code: true } });
    return room?.code ?? '';
  }
}

/** Seats free for this player: free seats less those held for other players' offers. */
function freeFor(userId: string, line: readonly Entry[], seats: number, active: number, now: Date): number {
  const heldForOthers = line.filter((e) => e.userId !== userId && e.offerExpiresAt !== null && e.offerExpiresAt > now);
  return seats - active - heldForOthers.length;
}

function entryOf(line: readonly Entry[], userId: string, code: string, roomId: string): LobbyWaitlistEntry | null {
  const index = line.findIndex((e) => e.userId === userId);
  if (index < 0) return null;
  return {
    session_id: roomId,
    code,
    position: index + 1,
    length: line.length,
    offer_expires_at: line[index]?.offerExpiresAt?.toISOString() ?? null,
  };
}
