import {
  Table,
  prepareDeck,
  randomBytes,
  randomBetween,
  randomUnit,
  randomUuid,
  toRevealRecord,
  type Card,
  type Hand,
  type PlayerAction,
  type RakeConfig,
  type Rng,
} from '@felt/engine';
import {
  HAND_RECORD_FORMAT,
  cashOutRequestId,
  loadTableSeed,
  type CashOutJob,
  type Db,
  type TableSeedMember,
} from '@felt/db';
import { parseRoomConfig, type RoomConfig } from '@felt/protocol';

/**
 * A reference implementation of the worker side of docs/dev/money-flows.md, driven by tests: it
 * plays real engine hands at one room and produces exactly the jobs the spec asks a table worker
 * to enqueue (hand records and cash-out requests), in the order it asks for. It reads the room the
 * way a worker does (loadTableSeed) and never writes to Postgres itself.
 *
 * With `blind: true` it deals engine-blind hands (docs/fairness.md) as the table worker does once the
 * players' protocol has run: the engine deals deck indices only; the board and the hands shown at the
 * showdown come from a deck the table never sees (here a seeded shuffle standing in for the players'),
 * in deal order; the record carries no reveal.
 */

/** Where the table's jobs go: a BullMQ queue in integration tests, the persister functions in unit tests. */
export interface MoneySink {
  hand(job: HandJob): Promise<void>;
  cashOut(job: CashOutJob): Promise<void>;
}

export interface SimTableOptions {
  /** Deal engine-blind hands (no deck, no reveal; the board and shows fed from a hidden deck). */
  readonly blind?: boolean;
}

/** A `hand.completed` job as the spec has the worker enqueue it (record in `payload`). */
export interface HandJob {
  hand_id: string;
  room_id: string;
  hand_no: number;
  game: string;
  limit: string;
  blinds: Record<string, number>;
  started_at: string;
  ended_at: string;
  payload: Record<string, unknown>;
}

interface SeatInfo {
  readonly seat: number;
  readonly membershipId: string;
}

export class SimTable {
  readonly table: Table;
  readonly config: RoomConfig;
  /** The last hand this table completed (and enqueued). */
  lastHandNo: number;
  private readonly seated = new Map<string, SeatInfo>();
  /** Top-ups added to stacks since the last report, per user. */
  private readonly unreported = new Map<string, { id: string; applied: number }[]>();
  private readonly seenTopUps = new Set<string>();
  /**
   * Memberships this table has let go (cash-out sent). The lobby lists them as active until the
   * persister records the cash-out, and they must not be seated again meanwhile.
   */
  private readonly released = new Set<string>();
  private clock: number;
  private closed = false;
  hand: Hand | null = null;
  /**
   * Deal the next hands engine-blind; set it false to deal standard from then on, as a table does for
   * the rest of its session once a blind hand failed.
   */
  blind: boolean;
  /** Engine-blind hands: each hand's deck, which only its players knew (the oracle of a test). */
  readonly playersDecks = new Map<string, readonly Card[]>();

  private constructor(
    private readonly db: Db,
    readonly roomId: string,
    config: RoomConfig,
    lastHandNo: number,
    private readonly sink: MoneySink,
    private readonly rng: Rng,
    options: SimTableOptions = {},
  ) {
    this.blind = options.blind === true;
    this.config = config;
    this.lastHandNo = lastHandNo;
    const rake: RakeConfig | null =
      config.rake.percent > 0
        ? {
            percent: config.rake.percent,
            cap: config.rake.cap,
            noFlopNoDrop: config.rake.noFlopNoDrop,
            ...(config.rake.headsUpPercent !== null ? { headsUpPercent: config.rake.headsUpPercent } : {}),
          }
        : null;
    this.table = new Table({
      game: config.game,
      limit: config.limit,
      stakes: { smallBlind: config.stakes.smallBlind, bigBlind: config.stakes.bigBlind },
      maxSeats: config.seats,
      rake,
    });
    this.clock = Date.parse('2026-12-01T12:00:00.000Z');
  }

  /** Loads the room as a worker creates a table actor from its seed. */
  static async load(
    db: Db,
    roomId: string,
    sink: MoneySink,
    rng: Rng,
    options: SimTableOptions = {},
  ): Promise<SimTable> {
    const seed = await loadTableSeed(db, roomId, parseRoomConfig);
    if (!seed) throw new Error(`no room ${roomId}`);
    const t = new SimTable(db, roomId, seed.room.config, seed.room.lastHandNo, sink, rng, options);
    await t.sync();
    return t;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Stacks as the checkpoint's `money` section reports them (hand-start stacks during a hand). */
  liveMoney(): {
    lastHandNo: number;
    seats: { userId: string; stack: number; appliedTopUps: { id: string; applied: number }[] }[];
  } {
    return {
      lastHandNo: this.lastHandNo,
      seats: this.table.seats().map((s) => ({
        userId: s.playerId,
        stack: s.stack,
        appliedTopUps: [...(this.unreported.get(s.playerId) ?? [])],
      })),
    };
  }

  /**
   * What a worker does when the lobby says the room changed (room-events) and at every hand
   * boundary: seat new members, add pending top-ups (between hands only, never above the room's
   * maximum), let go of players who asked to leave, and close the table if the room is closing.
   */
  async sync(): Promise<void> {
    if (this.closed) return;
    const seed = await loadTableSeed(this.db, this.roomId);
    if (!seed) throw new Error(`room ${this.roomId} vanished`);
    if (seed.room.status !== 'open') {
      await this.close(seed.members);
      return;
    }
    const members = new Map(seed.members.map((m) => [m.userId, m]));
    for (const m of seed.members) {
      // Asked to leave before the table ever seated them: their stack is their buy-in and top-ups.
      if (m.leaveRequested && !this.seated.has(m.userId) && !this.released.has(m.membershipId)) {
        await this.emitCashOut(m.userId, { seat: m.seat, membershipId: m.membershipId }, 'leave', Number(m.stack));
      }
    }
    for (const m of seed.members) {
      if (!this.seated.has(m.userId) && !m.leaveRequested && !this.released.has(m.membershipId)) {
        this.table.sit(m.seat, m.userId, Number(m.stack), { post: true, name: m.name });
        this.seated.set(m.userId, { seat: m.seat, membershipId: m.membershipId });
        for (const t of m.pendingTopUps) this.seenTopUps.delete(t.id);
      }
    }
    if (this.hand === null) {
      for (const m of seed.members) {
        const info = this.seated.get(m.userId);
        // A leaving player's top-ups are never added: they go home with the cash-out.
        if (!info || m.leaveRequested) continue;
        for (const t of m.pendingTopUps) {
          if (this.seenTopUps.has(t.id)) continue;
          this.seenTopUps.add(t.id);
          const stack = this.table.seat(info.seat)?.stack ?? 0;
          const applied = Math.max(0, Math.min(Number(t.amount), this.config.buyIn.max - stack));
          if (applied > 0) this.table.addChips(info.seat, applied);
          const list = this.unreported.get(m.userId) ?? [];
          list.push({ id: t.id, applied });
          this.unreported.set(m.userId, list);
        }
      }
    }
    for (const [userId, info] of [...this.seated]) {
      const m = members.get(userId);
      if (m && !m.leaveRequested) continue;
      const chips = this.table.seat(info.seat) ? this.table.leave(info.seat) : 0;
      // In a hand: the player is let go when it ends (finishHand reports it).
      if (chips === null) continue;
      await this.emitCashOut(userId, info, 'leave', chips);
    }
  }

  /**
   * Plays one hand to the end with random legal actions. `midHand` runs once after a few actions
   * (e.g. a lobby leave or close arriving during the hand). Returns false when fewer than two can play.
   */
  async playHand(midHand?: () => Promise<void>): Promise<boolean> {
    if (this.closed || this.table.planNextHand() === null) return false;
    const handId = randomUuid(this.rng);
    const serverSeed = randomBytes(this.rng, 32);
    const clientSeeds =
      randomUnit(this.rng) < 0.5
        ? []
        : this.table
            .seats()
            .filter(() => randomUnit(this.rng) < 0.5)
            .map((s) => ({ seat: s.seat, seed: randomBytes(this.rng, 32) }));
    const { commitment, order } = prepareDeck({ handId, serverSeed, clientSeeds, kind: this.table.rules.deck });
    const blind = this.blind;
    if (blind) this.playersDecks.set(handId, order);
    const startedAt = new Date((this.clock += 1000)).toISOString();
    // Engine-blind: `order` stands in for the deck the players shuffled; the table never holds it.
    const hand = blind
      ? this.table.startHand({ handId, blind: true, startedAt })
      : this.table.startHand({ handId, deck: order, startedAt });
    this.hand = hand;
    let actions = 0;
    let interrupted = false;
    while (!hand.isComplete) {
      if (blind && this.blindStep(hand, order)) continue;
      const seat = hand.actor;
      if (seat === null) throw new Error('stuck hand');
      const leaving = this.table.seat(seat)?.leaveAfterHand === true;
      hand.act(
        seat,
        leaving ? (hand.canCheck(seat) ? { type: 'check' } : { type: 'fold' }) : tableAction(hand, seat, this.rng),
      );
      if (++actions === 3 && midHand && !interrupted) {
        interrupted = true;
        await midHand();
        if (this.closed) return true;
      }
    }
    // Now and then a player who did not show does after an engine-blind hand (its own shares).
    const unshown = blind ? hand.state().players.filter((p) => !p.shown) : [];
    if (unshown.length > 0 && randomUnit(this.rng) < 0.3) {
      const p = unshown[Math.floor(randomUnit(this.rng) * unshown.length)]!;
      const cards = holeFrom(hand, order, p.seat);
      if (hand.canShowBlind(p.seat, cards)) hand.showBlind(p.seat, cards);
    }
    const reported = [...this.unreported.values()].flat();
    this.unreported.clear();
    const { left } = this.table.finishHand(hand);
    this.hand = null;
    const handNo = this.lastHandNo + 1;
    const endedAt = new Date((this.clock += 1000)).toISOString();
    await this.sink.hand({
      hand_id: handId,
      room_id: this.roomId,
      hand_no: handNo,
      game: hand.setup.game,
      limit: hand.setup.limit,
      blinds: { ...hand.setup.stakes } as Record<string, number>,
      started_at: startedAt,
      ended_at: endedAt,
      payload: {
        format: HAND_RECORD_FORMAT,
        hand: JSON.parse(JSON.stringify(hand.toJSON())) as Record<string, unknown>,
        settlement: JSON.parse(JSON.stringify(hand.settlement)) as Record<string, unknown>,
        // An engine-blind hand has no seed to reveal.
        ...(blind ? {} : { reveal: toRevealRecord(commitment, hand.setup.game, hand.dealtCards(), hand.reshuffles()) }),
        top_ups: reported,
      },
    });
    this.lastHandNo = handNo;
    for (const l of left) {
      const info = this.seated.get(l.playerId);
      if (info) await this.emitCashOut(l.playerId, info, 'leave', l.cashOut);
    }
    return true;
  }

  /**
   * An engine-blind hand's inputs other than bets: the board the engine waits for, and at the showdown
   * the seat in turn shows (its cards in deal order, as the worker passes them), mucks, or times out.
   * Returns false when a betting decision is due.
   */
  private blindStep(hand: Hand, deck: readonly Card[]): boolean {
    const pending = hand.pendingBoard;
    if (pending !== null) {
      hand.revealBoard(pending.indices.map((i) => deck[i]!));
      return true;
    }
    const seat = hand.actor;
    if (hand.phase !== 'showdown' || seat === null) return false;
    const r = randomUnit(this.rng);
    if (r < 0.7) hand.showBlind(seat, holeFrom(hand, deck, seat));
    else if (r < 0.9) hand.muckBlind(seat);
    else hand.applyTimeout();
    return true;
  }

  /** Room closing: void a hand in progress (stacks back to their hand-start values), refund every seat. */
  private async close(members: readonly TableSeedMember[]): Promise<void> {
    if (this.hand !== null) {
      this.table.voidHand();
      this.hand = null;
    }
    this.closed = true;
    for (const [userId, info] of [...this.seated]) {
      const chips = this.table.leave(info.seat) ?? 0;
      await this.emitCashOut(userId, info, 'room_close', chips);
    }
    // Members this table never seated (it was loaded to close the room): their stacks are the seed's.
    for (const m of members) {
      if (this.released.has(m.membershipId)) continue;
      await this.emitCashOut(m.userId, { seat: m.seat, membershipId: m.membershipId }, 'room_close', Number(m.stack));
    }
  }

  private async emitCashOut(
    userId: string,
    info: SeatInfo,
    reason: 'leave' | 'room_close',
    finalStack: number,
  ): Promise<void> {
    this.seated.delete(userId);
    this.released.add(info.membershipId);
    const topUps = this.unreported.get(userId) ?? [];
    this.unreported.delete(userId);
    await this.sink.cashOut({
      request_id:
        reason === 'leave' ? cashOutRequestId.leave(info.membershipId) : cashOutRequestId.roomClose(info.membershipId),
      room_id: this.roomId,
      user_id: userId,
      reason,
      last_hand_no: this.lastHandNo,
      final_stack: finalStack,
      top_ups_applied: topUps,
      requested_at: new Date((this.clock += 1)).toISOString(),
    });
  }
}

/** The cards `seat` was dealt in an engine-blind hand from `deck`, in deal order (the indices its deal_hole named). */
function holeFrom(hand: Hand, deck: readonly Card[], seat: number): Card[] {
  return hand.operations.flatMap((op) =>
    op.type === 'deal_hole' && op.seat === seat ? op.indices.map((i) => deck[i]!) : [],
  );
}

/**
 * A random legal action that plays like a table of careful humans: mostly checks and calls, some
 * folds and raises, a rare all-in; so that sessions last long enough for rebuys, leaves and closes.
 */
export function tableAction(hand: Hand, seat: number, rng: Rng): PlayerAction {
  const va = hand.validActions();
  if (va === null) throw new Error('nobody is to act');
  const r = randomUnit(rng);
  const wager = va.bet ?? va.raise;
  // All-in only where it is legal: facing a short all-in that did not reopen the betting, a stack
  // bigger than the call may only call or fold (the engine refuses the all-in as a raise).
  if (r < 0.01 && hand.canAct(seat, { type: 'all_in' })) return { type: 'all_in' };
  if (wager !== null && r < 0.15) {
    const to = Math.min(wager.max, randomBetween(rng, wager.min, Math.max(wager.min, Math.floor(wager.min * 2.5))));
    return va.bet !== null ? { type: 'bet', to } : { type: 'raise', to };
  }
  if (va.fold && r < 0.35) return { type: 'fold' };
  if (va.check) return { type: 'check' };
  if (va.call !== null) return { type: 'call' };
  return { type: 'fold' };
}
