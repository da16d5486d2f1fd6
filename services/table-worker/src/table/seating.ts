import { SeatStatus as EngineSeatStatus, type Table } from '@felt/engine';
import type { CashOutJob } from '@felt/platform';
import { notMember, tableClosed } from '../actor/table-error.js';
import type { MoneySeed } from '../money/ports.js';
import type { CashOutReason } from '../money/table-money.js';
import type { Recipients } from './stream-book.js';
import type { TableContext } from './table-context.js';
import type { TimeBanks } from './time-banks.js';

export interface MemberState {
  readonly userId: string;
  readonly name: string;
  readonly seat: number;
  /** Escrow when first seated (later stacks live in the engine table). */
  readonly stack: number;
  readonly bot: boolean;
  /** The room membership behind the seat (cash-out request ids); absent without Postgres. */
  readonly membershipId?: string;
  /**
   * A tournament player no longer seated here (moved to another table, or out), kept while they are
   * connected so that their own stream carries the last of the table (table_moved, the hand's end).
   */
  readonly departed?: true;
}

export interface ConnectionState {
  readonly connectionId: string;
  readonly userId: string;
  /** The gateway stream it arrived on; when that stream ends, the connection is gone. */
  readonly streamId: string;
  /** A non-member watching (join_table with spectate). */
  readonly spectator: boolean;
  /** A spectator's display name (members have theirs in MemberState), shown with their chat. */
  readonly name?: string;
}

/** Seating's part of the checkpoint (LiveTableJSON's fields of the same names). */
export interface SeatingJSON {
  readonly hostId: string | null;
  readonly botsOnly: boolean;
  readonly members: readonly MemberState[];
  readonly connections: readonly ConnectionState[];
  readonly away: readonly string[];
  readonly leaving: readonly string[];
}

/** A player's hand-start stack as a void reports it. */
export interface SeatedPlayer {
  readonly seat: number;
  readonly userId: string;
  readonly name: string;
  readonly stack: number;
}

type LeftAtHandEnd = ReturnType<Table['finishHand']>['left'];

/**
 * Who is at the table: the room's members and where they sit, who is connected, who is away or
 * leaving. Seats change only between hands (`seatMembers`), and a player let go is cashed out
 * through the outbox (`release`, docs/dev/money-flows.md §3).
 */
export class Seating {
  private host: string | null;
  private onlyBots: boolean;
  private members: MemberState[];
  private connections: ConnectionState[];
  private readonly away: Set<string>;
  private readonly leaving: Set<string>;
  /**
   * Seats still booked in the room rows by memberships this table let go (their cash-out is not
   * recorded yet): no bot is asked for there meanwhile. Refreshed with every read of the rows.
   */
  private heldSeats = new Set<number>();
  /** Players on the room's waitlist (the room rows' count). */
  private waiting = 0;

  constructor(
    private readonly ctx: TableContext,
    private readonly banks: TimeBanks,
    /** The table's last completed hand: a cash-out follows it. */
    private readonly lastHandNo: () => number,
    json: SeatingJSON,
  ) {
    this.host = json.hostId;
    this.onlyBots = json.botsOnly;
    this.members = [...json.members];
    this.connections = [...json.connections];
    this.away = new Set(json.away);
    this.leaving = new Set(json.leaving);
  }

  toJSON(): SeatingJSON {
    return {
      hostId: this.host,
      botsOnly: this.onlyBots,
      members: this.members,
      connections: this.connections,
      away: [...this.away],
      leaving: [...this.leaving],
    };
  }

  // ------------------------------------------------------------------------------------------
  // Reading

  get hostId(): string | null {
    return this.host;
  }

  /** An operator runs this room as a bot-only table. */
  /** Players on the room's waitlist, as the room rows last said (not checkpointed: every load reads it). */
  get waitlisted(): number {
    return this.waiting;
  }

  get botsOnly(): boolean {
    return this.onlyBots;
  }

  memberList(): readonly MemberState[] {
    return this.members;
  }

  member(userId: string): MemberState | undefined {
    return this.members.find((m) => m.userId === userId);
  }

  /** The engine seat a player sits in, if any. */
  seatOf(playerId: string): number | undefined {
    return this.ctx.engine.seats().find((s) => s.playerId === playerId)?.seat;
  }

  isHuman(playerId: string): boolean {
    const m = this.member(playerId);
    return m !== undefined && !m.bot;
  }

  isBot(playerId: string): boolean {
    return this.member(playerId)?.bot === true;
  }

  isConnected(userId: string): boolean {
    return this.connections.some((c) => c.userId === userId && !c.spectator);
  }

  isAway(userId: string): boolean {
    return this.away.has(userId);
  }

  isLeaving(userId: string): boolean {
    return this.leaving.has(userId);
  }

  /** A seat booked in the room rows by a membership this table let go. */
  isHeld(seat: number): boolean {
    return this.heldSeats.has(seat);
  }

  connectionList(): readonly ConnectionState[] {
    return this.connections;
  }

  connection(connectionId: string): ConnectionState | undefined {
    return this.connections.find((c) => c.connectionId === connectionId);
  }

  humanConnected(): boolean {
    return this.connections.some((c) => !c.spectator && this.isHuman(c.userId));
  }

  /** Connected members (each with their own stream) and whether anyone watches as a spectator. */
  recipients(): Recipients {
    const users = [...new Set(this.connections.filter((c) => !c.spectator).map((c) => c.userId))].filter((u) =>
      this.isHuman(u),
    );
    return { users, spectators: this.connections.some((c) => c.spectator) };
  }

  /**
   * A table where no human is left to play with the bots: the last human left (docs/protocol.md,
   * "Seats, disconnects and leaving").
   */
  abandoned(): boolean {
    if (this.onlyBots) return false;
    return !this.members.some((m) => !m.bot && !this.leaving.has(m.userId) && this.seatOf(m.userId) !== undefined);
  }

  /** Every seated player with their stack now (the hand-start one while a hand runs). */
  seatedPlayers(): SeatedPlayer[] {
    return this.ctx.engine.seats().map((s) => ({
      seat: s.seat,
      userId: s.playerId,
      name: this.member(s.playerId)?.name ?? '',
      stack: s.stack,
    }));
  }

  // ------------------------------------------------------------------------------------------
  // Connections

  /** Returns whether a human player (not a spectator) connected. Throws when they may not. */
  attach(c: ConnectionState): boolean {
    if (this.ctx.lifecycle.closed) throw tableClosed(this.ctx.tableId);
    const spectator = c.spectator && this.member(c.userId) === undefined;
    if (!spectator && (this.member(c.userId) === undefined || this.member(c.userId)!.bot)) {
      throw notMember(this.ctx.tableId);
    }
    // Only a spectator's name is kept (a member's is in their MemberState).
    const { name, ...rest } = c;
    const conn: ConnectionState =
      spectator && name !== undefined ? { ...rest, spectator, name } : { ...rest, spectator };
    this.connections = [...this.connections.filter((x) => x.connectionId !== c.connectionId), conn];
    return !spectator && this.isHuman(c.userId);
  }

  /** Returns whether anything changed. */
  detach(connectionId: string, userId: string): boolean {
    const conn = this.connection(connectionId);
    // Detaching twice is not an error: the gateway may retry after a lost ack.
    if (!conn || conn.userId !== userId) return false;
    this.connections = this.connections.filter((c) => c !== conn);
    return true;
  }

  /** The gateway stream ended: its connections are gone. Returns whether anything changed. */
  streamClosed(streamId: string): boolean {
    const remaining = this.connections.filter((c) => c.streamId !== streamId);
    if (remaining.length === this.connections.length) return false;
    this.connections = remaining;
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // Membership

  /**
   * The room rows changed (the room is open): members, host, leave requests and top-ups as they
   * say. Seats change at the next `seatMembers`.
   */
  applySeed(seed: MoneySeed, now: number): void {
    const { engine, money } = this.ctx;
    this.host = seed.hostId ?? this.host;
    this.onlyBots = seed.botsOnly ?? this.onlyBots;
    this.waiting = seed.waitlisted ?? 0;
    money.observe(seed.members);
    // A membership this table let go stays listed until the persister records its cash-out: it is
    // never seated again meanwhile.
    const listed = seed.members.filter((m) => !money.isReleased(m.membershipId));
    this.heldSeats = new Set(seed.members.filter((m) => money.isReleased(m.membershipId)).map((m) => m.seat));
    const humans = new Map(listed.filter((m) => m.bot !== true).map((m) => [m.userId, m]));
    const bots = this.members.filter((m) => m.bot);
    // Humans the room no longer has (the lobby paid them out itself): their seat goes when their
    // hand is over, and no cash-out is sent.
    for (const m of this.members) {
      if (m.bot || humans.has(m.userId)) continue;
      const seat = this.seatOf(m.userId);
      if (seat !== undefined) {
        this.leaving.add(m.userId);
        engine.leave(seat);
      }
    }
    const knownBots = new Set(bots.map((b) => b.userId));
    this.members = [
      ...[...humans.values()].map((m) => ({
        userId: m.userId,
        name: m.name,
        seat: m.seat,
        stack: m.stack,
        bot: false,
        ...(m.membershipId !== undefined ? { membershipId: m.membershipId } : {}),
      })),
      ...bots,
      // Funded bots of an earlier owner of this table (rebuilt from the room rows).
      ...listed
        .filter((m) => m.bot === true && !knownBots.has(m.userId))
        .map((m) => ({
          userId: m.userId,
          name: `Bot ${m.seat}`,
          seat: m.seat,
          stack: m.stack,
          bot: true,
          ...(m.membershipId !== undefined ? { membershipId: m.membershipId } : {}),
        })),
    ];
    this.connections = this.connections.filter((c) => c.spectator || this.member(c.userId) !== undefined);
    // Leave requests recorded by the lobby (worker mode): seated players go now or at the hand's
    // end; a member the table never seated goes with the stack the room rows give.
    for (const m of humans.values()) {
      if (m.leaveRequested !== true || this.leaving.has(m.userId)) continue;
      if (this.seatOf(m.userId) !== undefined) this.markLeaving(m.userId, now);
      else {
        this.leaving.add(m.userId);
        this.release(m.userId, m.membershipId, m.stack, 'leave', now);
      }
    }
  }

  /** A bot the actor funded joins the members (it sits at the next `seatMembers`). */
  addMember(member: MemberState): void {
    this.members = [...this.members.filter((m) => m.userId !== member.userId), member];
  }

  /**
   * A tournament player left their seat (the engine's seat is already gone): a connected one stays a
   * member, departed, until their last connection goes (`pruneDeparted`); nothing is cashed out.
   */
  dropMember(userId: string): void {
    this.away.delete(userId);
    this.leaving.delete(userId);
    const connected = this.isConnected(userId);
    this.members = this.members.flatMap((m) => {
      if (m.userId !== userId) return [m];
      return connected ? [{ ...m, departed: true as const }] : [];
    });
  }

  /** Departed tournament players without a connection are forgotten. */
  pruneDeparted(): void {
    this.members = this.members.filter((m) => m.departed !== true || this.isConnected(m.userId));
  }

  /** The player is back at the table (they acted, or sat in). */
  back(userId: string): void {
    this.away.delete(userId);
  }

  /** The clock acted for the player. */
  markAway(userId: string): void {
    this.away.add(userId);
  }

  /** A seat the clock sat out is no longer merely away. */
  forgetAwayOfSittingOut(): void {
    for (const s of this.ctx.engine.seats()) {
      if (s.status === EngineSeatStatus.SITTING_OUT) this.away.delete(s.playerId);
    }
  }

  /** The player leaves: between hands at once; in a hand when it ends (a leave is final). */
  markLeaving(userId: string, now: number): void {
    this.leaving.add(userId);
    const seat = this.seatOf(userId);
    if (seat === undefined) return;
    // Between hands the seat goes at once; in a hand it goes when the hand ends (finishHand), and
    // at their turn the clock acts for them at once.
    const chips = this.ctx.engine.leave(seat);
    if (chips !== null) this.release(userId, this.member(userId)?.membershipId, chips, 'leave', now);
  }

  /** The players the hand just finished let go are cashed out, after the hand's record. */
  releaseLeft(left: LeftAtHandEnd, now: number): void {
    for (const l of left) {
      const m = this.member(l.playerId);
      // A member the room no longer lists was paid out by the lobby: nothing to send.
      if (m !== undefined) this.release(l.playerId, m.membershipId, l.cashOut, 'leave', now);
    }
  }

  /**
   * Lets a player go with `chips` (docs/dev/money-flows.md §3): one cash-out job with the top-ups
   * added since the last report. Without a membership (no Postgres) there is nothing to pay.
   */
  release(userId: string, membershipId: string | undefined, chips: number, reason: CashOutReason, now: number): void {
    this.away.delete(userId);
    if (membershipId === undefined) return;
    const job: CashOutJob = this.ctx.money.release({
      roomId: this.ctx.tableId,
      userId,
      membershipId,
      reason,
      lastHandNo: this.lastHandNo(),
      finalStack: chips,
      requestedAt: now,
    });
    this.ctx.outbox.push({ kind: 'cash_out', job });
    // Booked in the room rows until the persister records the cash-out.
    const seat = this.member(userId)?.seat;
    if (seat !== undefined) this.heldSeats.add(seat);
    // A closed table keeps its members: they still get its last messages (table_closed).
    if (reason === 'room_close') return;
    this.members = this.members.filter((m) => m.userId !== userId);
    this.leaving.delete(userId);
    this.banks.forget(userId);
  }

  // ------------------------------------------------------------------------------------------
  // Seats (between hands only)

  /**
   * Puts members into free engine seats and adds pending top-ups. Called between hands only (the
   * seating layer changes who plays, and stacks change, only at hand boundaries).
   */
  seatMembers(now: number): void {
    const { engine, config, money } = this.ctx;
    // Removed players whose seat went at the hand's end are gone for good.
    for (const userId of [...this.leaving]) {
      if (this.member(userId) === undefined && this.seatOf(userId) === undefined) this.leaving.delete(userId);
    }
    // Unfunded bots live only at their seat; a funded bot is a member until it is cashed out.
    this.members = this.members.filter(
      (m) => !m.bot || m.membershipId !== undefined || this.seatOf(m.userId) !== undefined,
    );

    const max = config.buyIn.max;
    const humanSeats = new Set(this.members.filter((m) => !m.bot).map((m) => m.seat));
    for (const m of [...this.members]) {
      if (this.seatOf(m.userId) !== undefined || this.leaving.has(m.userId)) continue;
      if (m.bot) {
        // A funded bot waiting for its seat: it sits if the seat is free, else it is cashed out.
        if (engine.seat(m.seat) === undefined && !humanSeats.has(m.seat) && m.seat <= config.seats) {
          engine.sit(m.seat, m.userId, m.stack, { name: m.name });
          this.banks.fill(m.userId);
        } else this.removeBot(m.userId, now);
        continue;
      }
      if (m.seat > config.seats) continue;
      if (m.stack <= 0 && !money.hasUnhandled(m.userId)) continue;
      const occupant = engine.seat(m.seat);
      if (occupant !== undefined) {
        // A bot keeps the seat warm until its human arrives.
        if (!this.member(occupant.playerId)?.bot) continue;
        this.removeBot(occupant.playerId, now);
      }
      // Top-ups paid in before the table first seats the member come with them.
      const stack = m.stack + money.takeTopUps(m.userId, m.stack, max);
      if (stack <= 0) continue;
      engine.sit(m.seat, m.userId, stack, { name: m.name });
      this.banks.fillIfNew(m.userId);
    }
    // Top-ups and rebuys (docs/dev/money-flows.md §2): never above the room's maximum.
    for (const s of engine.seats()) {
      if (this.leaving.has(s.playerId)) continue;
      const add = money.takeTopUps(s.playerId, s.stack, max);
      if (add > 0) engine.addChips(s.seat, add);
    }
  }

  /** A bot leaves its seat (between hands); a funded bot is cashed out like a player. */
  removeBot(botId: string, now: number): void {
    const m = this.member(botId);
    const seat = this.seatOf(botId);
    const chips = seat !== undefined ? (this.ctx.engine.leave(seat) ?? 0) : (m?.stack ?? 0);
    // Released while still a member, so that its seat stays booked until the cash-out is recorded
    // (a new bot asked for there would collide with the membership in the room rows).
    if (m?.membershipId !== undefined) this.release(botId, m.membershipId, chips, 'leave', now);
    this.members = this.members.filter((x) => x.userId !== botId);
    this.banks.forget(botId);
  }
}
