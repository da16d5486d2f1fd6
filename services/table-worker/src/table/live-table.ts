import {
  ActionError,
  bytesToHex,
  Hand,
  hexToBytes,
  prepareDeck,
  seedCommit,
  SeededRng,
  SeatStatus as EngineSeatStatus,
  Table,
  toRevealRecord,
  DERIVATION_VERSION,
  type Card,
  type DeckKind,
  type HandJSON,
  type PlayerAction,
  type Rng,
  type TableJSON,
} from '@felt/engine';
import { completedHandJobSchema, HAND_RECORD_FORMAT, type CompletedHandJob } from '@felt/platform';
import type { CashOutJob, LiveTableMoney, VoidedHandJob } from '@felt/db';
import {
  ErrorCode,
  HandVoidReason,
  parseRoomConfig,
  type ActionFrame,
  type RoomConfig,
  type TableCommandFrame,
  type ValidActionsView,
  type VariantView,
} from '@felt/protocol';
import { decideBotAction, type BotOptions } from '../bots/bot-brain.js';
import { notMember, tableClosed, TableError } from '../actor/table-error.js';
import type { RandomSource } from '../ports.js';
import type { BotFundingRefusal, MoneySeed, OutboxJob } from '../money/ports.js';
import { TableMoney, type CashOutReason, type TableMoneyJSON } from '../money/table-money.js';
import { engineTableConfig, stakesView } from './engine-config.js';
import { CommandHistory, type CommandRecord } from './command-history.js';
import { ALL, operationEmissions, shownSeats, type Emission } from './emissions.js';
import { resolveTiming, type TableTiming, type TimingOverrides } from './timing.js';

export interface MemberState {
  readonly userId: string;
  readonly name: string;
  readonly seat: number;
  /** Escrow when first seated (later stacks live in the engine table). */
  readonly stack: number;
  readonly bot: boolean;
  /** The room membership behind the seat (cash-out request ids); absent without Postgres. */
  readonly membershipId?: string;
}

/** A bot the table wants seated, waiting for its funding (@felt/db `seatBot`) before it sits. */
export interface BotRequest {
  readonly botId: string;
  readonly seat: number;
  readonly stack: number;
}

export interface ConnectionState {
  readonly connectionId: string;
  readonly userId: string;
  /** The gateway stream it arrived on; when that stream ends, the connection is gone. */
  readonly streamId: string;
  /** A non-member watching (join_table with spectate). */
  readonly spectator: boolean;
}

/** A hand between seed_commit and the deal: the client-seed window. */
export interface PendingHand {
  readonly handId: string;
  readonly handNo: number;
  readonly serverSeed: string;
  readonly seedCommit: string;
  windowClosesAt: number;
  readonly seats: readonly number[];
  /** Seats of connected humans: the deal does not wait once each of them has sent a seed. */
  readonly humanSeats: readonly number[];
  readonly clientSeeds: { seat: number; seed: string }[];
}

/** What the hand record and seed_reveal need beyond the engine's hand. */
export interface HandMeta {
  readonly handId: string;
  readonly handNo: number;
  readonly serverSeed: string;
  readonly seedCommit: string;
  readonly clientSeeds: readonly { seat: number; seed: string }[];
  readonly deckSeed: string;
  readonly deck: DeckKind;
  readonly startedAt: number;
  endedAt: number | null;
  readonly seats: readonly { seat: number; userId: string; name: string; startingStack: number; bot: boolean }[];
  /** Operations already turned into events. */
  emitted: number;
}

export interface TurnState {
  readonly handId: string;
  readonly seat: number;
  readonly playerId: string;
  readonly token: string;
  /** The action clock ends here (absolute); the time bank runs after it. */
  deadline: number;
  readonly bankAtStart: number;
  warned: boolean;
  /** Bots: when to act. */
  botAt: number | null;
}

/** The actor's record of each recipient stream: what its prev_table_seq chain and last snapshot were. */
export interface StreamState {
  last: number;
  snapshotPrev: number | null;
  snapshotKey: string | null;
}

export interface LiveTableJSON {
  readonly format: 'felt-live-table/1';
  readonly tableId: string;
  readonly tableSeq: number;
  readonly closed: boolean;
  readonly config: RoomConfig;
  readonly hostId: string | null;
  readonly botsOnly: boolean;
  readonly members: readonly MemberState[];
  readonly connections: readonly ConnectionState[];
  readonly engine: TableJSON;
  readonly hand: HandJSON | null;
  readonly meta: HandMeta | null;
  readonly pending: PendingHand | null;
  readonly turn: TurnState | null;
  readonly banks: Readonly<Record<string, number>>;
  readonly away: readonly string[];
  readonly leaving: readonly string[];
  readonly nextHandAt: number | null;
  readonly handNo: number;
  readonly noHumanSince: number | null;
  readonly frozenAt: number | null;
  readonly streams: Readonly<Record<string, StreamState>>;
  readonly commands: Readonly<Record<string, readonly CommandRecord[]>>;
  /** Jobs for the hands queue, kept here until they are in it (docs/dev/money-flows.md §1). */
  readonly outbox: readonly (OutboxJob | CompletedHandJob)[];
  /** Top-ups added and not yet reported, memberships let go (absent in older checkpoints). */
  readonly moneyBook?: TableMoneyJSON;
  /**
   * The room is closing while a hand is played: no new hand is dealt, the hand finishes by the rules
   * and counts, then the seats are refunded and the table closes (absent in older checkpoints).
   */
  readonly closing?: boolean;
}

export interface LiveTableDeps {
  readonly random: RandomSource;
  readonly timing: TimingOverrides;
  readonly bot: BotOptions;
  /** Seeds the bots' decisions (tests fix it); production draws one per table. */
  readonly botSeed?: string | undefined;
  /** Hand-level observations for logs and metrics (never cards, seeds or tokens). */
  readonly onHandEvent?: (event: HandLifecycleEvent) => void;
  /**
   * Bots are funded users (@felt/db `seatBot`): the table asks for each bot (`botRequests`) and
   * seats it once the actor has funded it. Off: bots sit at once with chips no ledger knows.
   */
  readonly fundedBots?: boolean;
}

export type HandLifecycleEvent =
  | { readonly kind: 'started'; readonly handId: string; readonly handNo: number; readonly players: number }
  | { readonly kind: 'completed'; readonly handId: string; readonly handNo: number; readonly durationMs: number }
  | { readonly kind: 'aborted'; readonly handId: string; readonly reason: string }
  | { readonly kind: 'voided'; readonly handId: string; readonly reason: string }
  | { readonly kind: 'timeout'; readonly handId: string; readonly seat: number };

const ENGINE_ERROR_AMOUNT = new Set(['amount_invalid', 'amount_too_small', 'amount_too_large']);

/**
 * One live table: the engine's seating layer and hand, the clocks, the bots, who is connected,
 * and the per-stream bookkeeping the views need. Every method is synchronous and takes `now`, so
 * the actor decides when things happen and tests drive time by hand. Events go into an outbox of
 * emissions that the actor sequences, fans out and checkpoints.
 */
export class LiveTable {
  readonly tableId: string;
  tableSeq: number;
  closed: boolean;
  /** The room is closing: the hand in progress finishes, no other is dealt, then the table closes. */
  closing: boolean;
  /** The room rows as the close was asked, for the refunds once the hand is over (not checkpointed). */
  private closingSeed: MoneySeed | null | undefined = undefined;
  config: RoomConfig;
  timing: TableTiming;
  hostId: string | null;
  botsOnly: boolean;
  members: MemberState[];
  connections: ConnectionState[];
  readonly engine: Table;
  hand: Hand | null;
  meta: HandMeta | null;
  pending: PendingHand | null;
  turn: TurnState | null;
  banks: Map<string, number>;
  away: Set<string>;
  leaving: Set<string>;
  nextHandAt: number | null;
  handNo: number;
  noHumanSince: number | null;
  frozenAt: number | null;
  streams: Map<string, StreamState>;
  readonly history: CommandHistory;
  outbox: OutboxJob[];
  readonly moneyBook: TableMoney;
  /** Bots waiting to be funded and seated (not checkpointed: a funded bot is a member in the room rows). */
  botRequests: BotRequest[] = [];
  /** Why the house bankroll last refused to stake a bot, until one is seated (shown in table_state). */
  botsBlocked: BotFundingRefusal | null = null;
  private emissions: Emission[] = [];
  private readonly botRng: Rng;

  private constructor(
    json: LiveTableJSON,
    engine: Table,
    hand: Hand | null,
    private readonly deps: LiveTableDeps,
  ) {
    this.tableId = json.tableId;
    this.tableSeq = json.tableSeq;
    this.closed = json.closed;
    this.closing = json.closing === true;
    this.config = json.config;
    this.timing = resolveTiming(json.config, deps.timing);
    this.hostId = json.hostId;
    this.botsOnly = json.botsOnly;
    this.members = [...json.members];
    this.connections = [...json.connections];
    this.engine = engine;
    this.hand = hand;
    this.meta = json.meta ? { ...json.meta } : null;
    this.pending = json.pending ? { ...json.pending, clientSeeds: [...json.pending.clientSeeds] } : null;
    this.turn = json.turn ? { ...json.turn } : null;
    this.banks = new Map(Object.entries(json.banks));
    this.away = new Set(json.away);
    this.leaving = new Set(json.leaving);
    this.nextHandAt = json.nextHandAt;
    this.handNo = json.handNo;
    this.noHumanSince = json.noHumanSince;
    this.frozenAt = json.frozenAt;
    this.streams = new Map(Object.entries(json.streams).map(([k, v]) => [k, { ...v }]));
    this.history = new CommandHistory(json.commands);
    this.outbox = json.outbox.map((j) => ('kind' in j ? j : { kind: 'hand', job: j }));
    this.moneyBook = TableMoney.fromJSON(json.moneyBook);
    const seed = deps.botSeed !== undefined ? `${deps.botSeed}/${json.tableId}` : bytesToHex(deps.random.bytes(16));
    this.botRng = new SeededRng(seed);
  }

  /** A new live table from the room's rows. */
  static create(tableId: string, seed: MoneySeed, tableSeq: number, now: number, deps: LiveTableDeps): LiveTable {
    const config = seed.config ?? parseRoomConfig({ seats: Math.min(10, Math.max(2, seed.seatCount)) });
    const engine = new Table(engineTableConfig(config, tableId));
    const live = new LiveTable(
      {
        format: 'felt-live-table/1',
        tableId,
        tableSeq,
        closed: false,
        config,
        hostId: seed.hostId ?? null,
        botsOnly: seed.botsOnly ?? false,
        members: [],
        connections: [],
        engine: engine.toJSON(),
        hand: null,
        meta: null,
        pending: null,
        turn: null,
        banks: {},
        away: [],
        leaving: [],
        nextHandAt: null,
        // Hands 1..lastHandNo of this room are persisted: the table numbers on from there.
        handNo: seed.lastHandNo ?? 0,
        noHumanSince: now,
        frozenAt: null,
        streams: {},
        commands: {},
        outbox: [],
      },
      engine,
      null,
      deps,
    );
    live.refresh(seed, now);
    return live;
  }

  /**
   * A live table from its checkpoint. A hand that no longer replays is voided: every stack stays
   * at its hand-start value (ARCHITECTURE.md), and the void is reported.
   */
  static restore(json: LiveTableJSON, deps: LiveTableDeps, now: number): LiveTable {
    const engine = Table.fromJSON(json.engine);
    let hand: Hand | null = null;
    let voided: string | null = null;
    if (json.hand) {
      try {
        hand = Hand.fromJSON(json.hand);
      } catch (err) {
        voided = err instanceof Error ? err.message : 'unreadable hand';
      }
    }
    // A checkpoint written before a config field existed gets that field's default (parsing a stored
    // config returns it unchanged otherwise).
    const live = new LiveTable({ ...json, config: parseRoomConfig(json.config) }, engine, hand, deps);
    if (voided !== null) live.voidHand(HandVoidReason.UNREADABLE, now, voided);
    return live;
  }

  toJSON(): LiveTableJSON {
    return {
      format: 'felt-live-table/1',
      tableId: this.tableId,
      tableSeq: this.tableSeq,
      closed: this.closed,
      config: this.config,
      hostId: this.hostId,
      botsOnly: this.botsOnly,
      members: this.members,
      connections: this.connections,
      engine: this.engine.toJSON(),
      hand: this.hand ? this.hand.toJSON() : null,
      meta: this.meta,
      pending: this.pending,
      turn: this.turn,
      banks: Object.fromEntries(this.banks),
      away: [...this.away],
      leaving: [...this.leaving],
      nextHandAt: this.nextHandAt,
      handNo: this.handNo,
      noHumanSince: this.noHumanSince,
      frozenAt: this.frozenAt,
      streams: Object.fromEntries(this.streams),
      commands: this.history.toJSON(),
      outbox: this.outbox,
      moneyBook: this.moneyBook.toJSON(),
      ...(this.closing ? { closing: true } : {}),
    };
  }

  /**
   * What the checkpoint mark keeps (docs/dev/contracts.md): the hand in progress (dealt and not
   * finished: a finished hand stays on the table until the next one begins) and the number of the
   * last completed hand.
   */
  checkpointMark(): { handId: string | null; handNo: number } {
    const meta = this.meta;
    const inProgress = this.hand !== null && meta !== null && meta.endedAt === null;
    return { handId: inProgress ? meta.handId : null, handNo: this.handNo };
  }

  /** Seated stacks as the audit compares them (hand-start stacks while a hand runs). */
  liveMoney(): LiveTableMoney {
    return this.moneyBook.liveMoney(this.engine, this.handNo);
  }

  /** The events produced since the last drain, in order. */
  drain(): Emission[] {
    const out = this.emissions;
    this.emissions = [];
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Reading

  member(userId: string): MemberState | undefined {
    return this.members.find((m) => m.userId === userId);
  }

  /** The engine seat a player sits in, if any. */
  seatOf(playerId: string): number | undefined {
    return this.engine.seats().find((s) => s.playerId === playerId)?.seat;
  }

  isHuman(playerId: string): boolean {
    const m = this.member(playerId);
    return m !== undefined && !m.bot;
  }

  isConnected(userId: string): boolean {
    return this.connections.some((c) => c.userId === userId && !c.spectator);
  }

  /** The hand in progress (not yet complete), if any. */
  get liveHand(): Hand | null {
    return this.hand && !this.hand.isComplete ? this.hand : null;
  }

  private humanConnected(): boolean {
    return this.connections.some((c) => !c.spectator && this.isHuman(c.userId));
  }

  /** A table where no human is left to play with the bots (reference 002 §9: the last human left). */
  private abandoned(): boolean {
    if (this.botsOnly) return false;
    return !this.members.some((m) => !m.bot && !this.leaving.has(m.userId) && this.seatOf(m.userId) !== undefined);
  }

  // ------------------------------------------------------------------------------------------
  // Connections and membership

  attach(c: ConnectionState, now: number): void {
    if (this.closed) throw tableClosed(this.tableId);
    const spectator = c.spectator && this.member(c.userId) === undefined;
    if (!spectator && (this.member(c.userId) === undefined || this.member(c.userId)!.bot)) {
      throw notMember(this.tableId);
    }
    this.connections = [...this.connections.filter((x) => x.connectionId !== c.connectionId), { ...c, spectator }];
    if (!spectator && this.isHuman(c.userId)) {
      this.noHumanSince = null;
      if (this.frozenAt !== null) this.unfreeze(now);
    }
    this.reschedule(now);
  }

  /** Returns whether anything changed. */
  detach(connectionId: string, userId: string, now: number): boolean {
    const conn = this.connections.find((c) => c.connectionId === connectionId);
    // Detaching twice is not an error: the gateway may retry after a lost ack.
    if (!conn || conn.userId !== userId) return false;
    this.connections = this.connections.filter((c) => c !== conn);
    this.afterDisconnect(now);
    return true;
  }

  streamClosed(streamId: string, now: number): boolean {
    const remaining = this.connections.filter((c) => c.streamId !== streamId);
    if (remaining.length === this.connections.length) return false;
    this.connections = remaining;
    this.afterDisconnect(now);
    return true;
  }

  private afterDisconnect(now: number): void {
    if (!this.humanConnected() && this.noHumanSince === null) this.noHumanSince = now;
    this.reschedule(now);
  }

  /** The lobby changed the room: reread members, status and config. */
  refresh(seed: MoneySeed | null, now: number): void {
    if (seed === null || seed.status !== 'open') {
      this.close(seed, now);
      return;
    }
    this.applySeed(seed, now);
  }

  /** The lobby recorded that a member is leaving (worker-mode cash-out): as `leave`. */
  memberLeaving(userId: string, now: number): void {
    if (this.closed || this.seatOf(userId) === undefined || this.leaving.has(userId)) return;
    this.markLeaving(userId, now);
    this.settle(now);
  }

  private applySeed(seed: MoneySeed, now: number): void {
    this.hostId = seed.hostId ?? this.hostId;
    this.botsOnly = seed.botsOnly ?? this.botsOnly;
    this.moneyBook.observe(seed.members);
    // A membership this table let go stays listed until the persister records its cash-out: it is
    // never seated again meanwhile.
    const listed = seed.members.filter((m) => !this.moneyBook.isReleased(m.membershipId));
    this.heldSeats = new Set(seed.members.filter((m) => this.moneyBook.isReleased(m.membershipId)).map((m) => m.seat));
    const humans = new Map(listed.filter((m) => m.bot !== true).map((m) => [m.userId, m]));
    const bots = this.members.filter((m) => m.bot);
    // Humans the room no longer has (the lobby paid them out itself): their seat goes when their
    // hand is over, and no cash-out is sent.
    for (const m of this.members) {
      if (m.bot || humans.has(m.userId)) continue;
      const seat = this.seatOf(m.userId);
      if (seat !== undefined) {
        this.leaving.add(m.userId);
        this.engine.leave(seat);
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
    this.syncSeats(now);
    this.settle(now);
  }

  /**
   * The room is closing (docs/dev/money-flows.md §4). A close never voids a hand (no player's choice
   * can undo one, ARCHITECTURE.md invariant 9): while a hand is played the table deals no other, the
   * hand finishes by the rules (the clock acts at once for anyone who left) and is recorded like any
   * other; then every seat and every member known only from the room rows is refunded with a
   * `room-close-<membershipId>` cash-out after that hand. Asked again (the lobby reminds while the
   * room is closing), the cash-outs of members the room still lists are sent again: the same job ids.
   */
  private close(seed: MoneySeed | null, now: number): void {
    if (!this.closed && this.liveHand !== null) {
      this.closing = true;
      this.closingSeed = seed;
      this.nextHandAt = null;
      this.botRequests = [];
      // A table nobody watches still finishes the hand: the clock acts for whoever is gone.
      if (this.frozenAt !== null) this.unfreeze(now);
      this.settle(now);
      return;
    }
    const again = this.closed;
    // Only members the room still lists are refunded by the table: the others' seats were paid out
    // by the lobby itself (ledger mode), or the room is gone.
    const listed = new Map((seed?.members ?? []).map((m) => [m.userId, m]));
    if (!again) {
      this.closed = true;
      this.closing = false;
      this.closingSeed = undefined;
      // Only a hand announced and not dealt yet (its seed commitment out, no card) is dropped here.
      this.pending = null;
      this.turn = null;
      this.nextHandAt = null;
      this.botRequests = [];
      this.emit(ALL, { type: 'table_closed', table_id: this.tableId });
      for (const s of [...this.engine.seats()]) {
        // No hand is in progress: each stack is what the last recorded hand left, plus top-ups.
        const chips = this.engine.leave(s.seat) ?? s.stack + s.pendingChips;
        const m = listed.get(s.playerId);
        if (m !== undefined) this.release(s.playerId, m.membershipId, chips, 'room_close', now);
      }
      // Funded bots never seated (their seat was not free yet) hold their buy-in.
      for (const m of this.members.filter((x) => x.bot && listed.has(x.userId))) {
        this.release(m.userId, m.membershipId, m.stack, 'room_close', now);
      }
    }
    if (seed === null) return;
    this.moneyBook.observe(seed.members);
    for (const m of seed.members) {
      const sent = m.membershipId !== undefined ? this.moneyBook.released.get(m.membershipId) : undefined;
      if (sent !== undefined) {
        // Asked again (the lobby reminds until the room is closed): the same job, a no-op if queued.
        if (again) this.outbox.push({ kind: 'cash_out', job: sent });
        continue;
      }
      // Known only from the room rows (never seated here): the rows' stack is theirs.
      this.release(m.userId, m.membershipId, m.stack, 'room_close', now);
    }
  }

  /**
   * Lets a player go with `chips` (docs/dev/money-flows.md §3): one cash-out job with the top-ups
   * added since the last report. Without a membership (no Postgres) there is nothing to pay.
   */
  private release(
    userId: string,
    membershipId: string | undefined,
    chips: number,
    reason: CashOutReason,
    now: number,
  ): void {
    this.away.delete(userId);
    if (membershipId === undefined) return;
    const job: CashOutJob = this.moneyBook.release({
      roomId: this.tableId,
      userId,
      membershipId,
      reason,
      lastHandNo: this.handNo,
      finalStack: chips,
      requestedAt: now,
    });
    this.outbox.push({ kind: 'cash_out', job });
    // Booked in the room rows until the persister records the cash-out.
    const seat = this.member(userId)?.seat;
    if (seat !== undefined) this.heldSeats.add(seat);
    // A closed table keeps its members: they still get its last messages (table_closed).
    if (reason === 'room_close') return;
    this.members = this.members.filter((m) => m.userId !== userId);
    this.leaving.delete(userId);
    this.banks.delete(userId);
  }

  /**
   * Puts members into free engine seats and bots in or out, and adds pending top-ups, between
   * hands only (the seating layer changes who plays, and stacks change, only at hand boundaries).
   */
  private syncSeats(now: number): void {
    if (this.closed || this.closing || this.engine.currentHandId !== null || this.pending !== null) return;
    // Removed players whose seat went at the hand's end are gone for good.
    for (const userId of [...this.leaving]) {
      if (this.member(userId) === undefined && this.seatOf(userId) === undefined) this.leaving.delete(userId);
    }
    // Unfunded bots live only at their seat; a funded bot is a member until it is cashed out.
    this.members = this.members.filter(
      (m) => !m.bot || m.membershipId !== undefined || this.seatOf(m.userId) !== undefined,
    );

    const max = this.config.buyIn.max;
    const humanSeats = new Set(this.members.filter((m) => !m.bot).map((m) => m.seat));
    for (const m of [...this.members]) {
      if (this.seatOf(m.userId) !== undefined || this.leaving.has(m.userId)) continue;
      if (m.bot) {
        // A funded bot waiting for its seat: it sits if the seat is free, else it is cashed out.
        if (this.engine.seat(m.seat) === undefined && !humanSeats.has(m.seat) && m.seat <= this.config.seats) {
          this.engine.sit(m.seat, m.userId, m.stack, { name: m.name });
          this.banks.set(m.userId, this.timing.timeBankMs);
        } else this.removeBot(m.userId, now);
        continue;
      }
      if (m.seat > this.config.seats) continue;
      if (m.stack <= 0 && !this.moneyBook.hasUnhandled(m.userId)) continue;
      const occupant = this.engine.seat(m.seat);
      if (occupant !== undefined) {
        // A bot keeps the seat warm until its human arrives.
        if (!this.member(occupant.playerId)?.bot) continue;
        this.removeBot(occupant.playerId, now);
      }
      // Top-ups paid in before the table first seats the member come with them.
      const stack = m.stack + this.moneyBook.takeTopUps(m.userId, m.stack, max);
      if (stack <= 0) continue;
      this.engine.sit(m.seat, m.userId, stack, { name: m.name });
      if (!this.banks.has(m.userId)) this.banks.set(m.userId, this.timing.timeBankMs);
    }
    // Top-ups and rebuys (docs/dev/money-flows.md §2): never above the room's maximum.
    for (const s of this.engine.seats()) {
      if (this.leaving.has(s.playerId)) continue;
      const add = this.moneyBook.takeTopUps(s.playerId, s.stack, max);
      if (add > 0) this.engine.addChips(s.seat, add);
    }
    this.fillBots(now);
  }

  /** A bot leaves its seat (between hands); a funded bot is cashed out like a player. */
  private removeBot(botId: string, now: number): void {
    const m = this.member(botId);
    const seat = this.seatOf(botId);
    const chips = seat !== undefined ? (this.engine.leave(seat) ?? 0) : (m?.stack ?? 0);
    this.members = this.members.filter((x) => x.userId !== botId);
    this.banks.delete(botId);
    if (m?.membershipId !== undefined) this.release(botId, m.membershipId, chips, 'leave', now);
  }

  /** Room bot-fill and operator bot-only tables: bots take empty seats up to the target. */
  private fillBots(now: number): void {
    const fill = this.config.botFill.mode === 'fill';
    const target = this.botsOnly
      ? fill
        ? this.config.botFill.targetPlayers
        : this.config.seats
      : fill
        ? this.config.botFill.targetPlayers
        : 0;
    const seated = this.engine.seats().filter((s) => !this.leaving.has(s.playerId));
    const humansSeated = seated.filter((s) => !this.member(s.playerId)?.bot).length;
    const bots = seated.filter((s) => this.member(s.playerId)?.bot);
    // Bots keep humans company; without a human (and not bot-only) they leave.
    const wanted = this.botsOnly || humansSeated > 0 ? Math.max(0, target - humansSeated) : 0;
    for (const b of bots.slice(wanted).reverse()) this.removeBot(b.playerId, now);
    let count = Math.min(bots.length, wanted);
    const reserved = new Set(this.members.filter((m) => !m.bot).map((m) => m.seat));
    // Bots asked for and not funded yet count; those no longer wanted are dropped.
    this.botRequests = this.botRequests
      .filter((r) => this.engine.seat(r.seat) === undefined && !reserved.has(r.seat))
      .slice(0, Math.max(0, wanted - count));
    count += this.botRequests.length;
    if (this.deps.fundedBots === true && now < this.botBackoffUntil) return;
    for (let seat = this.config.seats; seat >= 1 && count < wanted; seat--) {
      if (this.engine.seat(seat) !== undefined || reserved.has(seat)) continue;
      if (this.botRequests.some((r) => r.seat === seat)) continue;
      if (this.deps.fundedBots === true && this.heldSeats.has(seat)) continue;
      const id = this.deps.random.uuid();
      const stack = this.config.buyIn.max;
      count++;
      if (this.deps.fundedBots === true) {
        // Funded first (the actor calls seatBot), seated by botFunded().
        this.botRequests.push({ botId: id, seat, stack });
        continue;
      }
      const name = `Bot ${seat}`;
      this.members.push({ userId: id, name, seat, stack, bot: true });
      this.engine.sit(seat, id, stack, { name });
      this.banks.set(id, this.timing.timeBankMs);
    }
  }

  /** When a bot could not be funded, asking again waits until then. */
  private botBackoffUntil = 0;
  /**
   * Seats still booked in the room rows by memberships this table let go (their cash-out is not
   * recorded yet): no bot is asked for there meanwhile. Refreshed with every read of the rows.
   */
  private heldSeats = new Set<number>();

  /**
   * The actor funded a requested bot (it is now a user with a membership and a buy-in): it joins
   * the members, and sits at once between hands (else at the next hand boundary).
   */
  botFunded(request: BotRequest, membershipId: string, now: number): void {
    this.botRequests = this.botRequests.filter((r) => r.botId !== request.botId);
    this.botsBlocked = null;
    this.members.push({
      userId: request.botId,
      name: `Bot ${request.seat}`,
      seat: request.seat,
      stack: request.stack,
      bot: true,
      membershipId,
    });
    if (this.closed) {
      // Closed while it was being funded: its buy-in goes straight back.
      this.release(request.botId, membershipId, request.stack, 'room_close', now);
      return;
    }
    this.syncSeats(now);
    // A player sat down: the pause before the next hand starts over from now (funding took time the
    // pause was meant to give people arriving at the table).
    if (this.engine.currentHandId === null && this.pending === null) this.nextHandAt = null;
    this.reschedule(now);
  }

  /**
   * A bot could not be funded (the seat was taken in the room rows, Postgres down; or the house
   * bankroll refused its stake, `refusal`, which the table then shows its players): try later.
   */
  botRefused(request: BotRequest, now: number, retryMs = 5_000, refusal?: BotFundingRefusal): void {
    this.botRequests = this.botRequests.filter((r) => r.botId !== request.botId);
    this.botBackoffUntil = now + retryMs;
    if (refusal !== undefined) this.botsBlocked = refusal;
  }

  private markLeaving(userId: string, now: number): void {
    this.leaving.add(userId);
    const seat = this.seatOf(userId);
    if (seat === undefined) return;
    // Between hands the seat goes at once; in a hand it goes when the hand ends (finishHand), and
    // at their turn settle() lets the clock act for them at once.
    const chips = this.engine.leave(seat);
    if (chips !== null) this.release(userId, this.member(userId)?.membershipId, chips, 'leave', now);
  }

  // ------------------------------------------------------------------------------------------
  // Client commands. Each throws TableError (nothing changed) or applies completely.

  command(userId: string, frame: Exclude<TableCommandFrame, { type: 'resync_request' }>, now: number): void {
    if (this.closed) throw tableClosed(this.tableId);
    switch (frame.type) {
      case 'action':
        return this.act(userId, frame, now);
      case 'client_seed':
        return this.clientSeed(userId, frame.hand_id, frame.seed, now);
      case 'sit_in':
        return this.sitIn(userId, frame.post === true, now);
      case 'sit_out': {
        const seat = this.requireSeat(userId);
        this.engine.sitOut(seat);
        this.settle(now);
        return;
      }
      case 'leave':
        this.requireSeat(userId);
        if (this.leaving.has(userId)) return;
        this.markLeaving(userId, now);
        this.settle(now);
        return;
      case 'start_hand':
        return this.forceStart(userId, now);
      case 'show_cards':
        return this.showCards(userId, frame.hand_id);
    }
  }

  private refuse(
    code: ErrorCode,
    message: string,
    details: { reason?: string; min?: number; max?: number } = {},
  ): never {
    throw new TableError(code, message, this.tableId, details);
  }

  private requireSeat(userId: string): number {
    const seat = this.seatOf(userId);
    if (seat === undefined || !this.isHuman(userId))
      this.refuse(ErrorCode.NOT_SEATED, 'you have no seat at this table');
    return seat;
  }

  private act(userId: string, frame: ActionFrame, now: number): void {
    const seat = this.requireSeat(userId);
    const hand = this.liveHand;
    const current = hand?.handId ?? this.pending?.handId;
    if (current === undefined || frame.hand_id !== current) {
      this.refuse(ErrorCode.STALE_HAND, 'that is not the hand in progress');
    }
    const turn = this.turn;
    if (hand === null || turn === null || turn.seat !== seat || hand.actor !== seat) {
      this.refuse(ErrorCode.NOT_YOUR_TURN, 'it is not your turn');
    }
    if (frame.turn_token !== turn.token) this.refuse(ErrorCode.STALE_TURN, 'that turn token is not the current one');
    if (this.frozenAt !== null) this.unfreeze(now);

    const action = this.toEngineAction(hand, frame);
    try {
      hand.verifyAction(seat, action);
    } catch (err) {
      if (!(err instanceof ActionError)) throw err;
      if (ENGINE_ERROR_AMOUNT.has(err.code)) {
        this.refuse(ErrorCode.INVALID_AMOUNT, 'that amount is not allowed', {
          ...(err.details.min !== undefined ? { min: err.details.min } : {}),
          ...(err.details.max !== undefined ? { max: err.details.max } : {}),
        });
      }
      this.refuse(ErrorCode.ILLEGAL_ACTION, 'the rules do not allow that now', { reason: err.code });
    }
    hand.act(seat, action);
    const used = Math.max(0, now - turn.deadline);
    this.banks.set(userId, Math.max(0, turn.bankAtStart - used));
    this.away.delete(userId);
    this.turn = null;
    this.settle(now);
  }

  private toEngineAction(hand: Hand, frame: ActionFrame): PlayerAction {
    const needAmount = (): number => {
      if (frame.amount === undefined) this.refuse(ErrorCode.INVALID_AMOUNT, `${frame.action} needs an amount`);
      return frame.amount;
    };
    switch (frame.action) {
      case 'fold':
      case 'check':
      case 'call':
      case 'all_in':
      case 'bring_in':
        return { type: frame.action };
      case 'bet':
        return { type: 'bet', to: needAmount() };
      case 'raise':
        return { type: 'raise', to: needAmount() };
      case 'complete':
        // Completing a due bring-in is the round's first bet; once a bring-in is posted it is a raise.
        return hand.validActions()?.bringIn !== null
          ? { type: 'bet', to: needAmount() }
          : { type: 'raise', to: needAmount() };
      case 'discard':
        // The engine checks that these are the player's own cards.
        return { type: 'discard', cards: (frame.cards ?? []) as Card[] };
    }
  }

  private clientSeed(userId: string, handId: string, seed: string, now: number): void {
    const seat = this.requireSeat(userId);
    const p = this.pending;
    if (p === null || p.handId !== handId) {
      if (this.hand?.handId === handId) this.refuse(ErrorCode.SEED_REFUSED, 'the client-seed window is closed');
      this.refuse(ErrorCode.STALE_HAND, 'that is not the hand being dealt');
    }
    if (now > p.windowClosesAt && this.frozenAt === null) {
      this.refuse(ErrorCode.SEED_REFUSED, 'the client-seed window is closed');
    }
    if (!p.seats.includes(seat)) this.refuse(ErrorCode.SEED_REFUSED, 'your seat is not dealt into this hand');
    if (p.clientSeeds.some((s) => s.seat === seat)) this.refuse(ErrorCode.SEED_REFUSED, 'your seed is already in');
    p.clientSeeds.push({ seat, seed });
    if (p.humanSeats.every((s) => p.clientSeeds.some((c) => c.seat === s))) this.deal(now);
    this.settle(now);
  }

  private sitIn(userId: string, post: boolean, now: number): void {
    const seat = this.requireSeat(userId);
    // A leave is final: the seat goes (and is cashed out) when the hand ends.
    if (this.leaving.has(userId)) this.refuse(ErrorCode.NOT_SEATED, 'you are leaving this table');
    const s = this.engine.seat(seat)!;
    if (s.stack + s.pendingChips <= 0) this.refuse(ErrorCode.NO_CHIPS, 'you have no chips at this table');
    this.away.delete(userId);
    this.engine.sitIn(seat, { post });
    this.settle(now);
  }

  private forceStart(userId: string, now: number): void {
    if (userId !== this.hostId || !this.config.startHand.hostMayForceStart) {
      this.refuse(ErrorCode.NOT_ALLOWED, 'only the host may start a hand here');
    }
    if (this.engine.currentHandId !== null || this.pending !== null) {
      this.refuse(ErrorCode.CANNOT_START, 'a hand is on');
    }
    this.syncSeats(now);
    if (this.engine.planNextHand() === null) this.refuse(ErrorCode.CANNOT_START, 'fewer than two players are ready');
    this.beginHand(now);
    this.settle(now);
  }

  private showCards(userId: string, handId: string): void {
    const hand = this.hand;
    if (hand === null || hand.handId !== handId) this.refuse(ErrorCode.STALE_HAND, 'that hand is not on the table');
    if (!hand.isComplete) this.refuse(ErrorCode.CANNOT_SHOW, 'cards can be shown once the hand is over');
    const seat = hand.setup.players.find((p) => p.id === userId)?.seat;
    if (seat === undefined || !hand.canShow(seat)) this.refuse(ErrorCode.CANNOT_SHOW, 'nothing of yours to show');
    const before = hand.operations.length;
    hand.show(seat);
    this.emitOperations(before);
  }

  // ------------------------------------------------------------------------------------------
  // Time

  /** Runs everything due at `now`. */
  tick(now: number): void {
    if (this.botBackoffUntil !== 0 && now >= this.botBackoffUntil) this.botBackoffUntil = 0;
    if (this.closed) return;
    if (
      this.frozenAt === null &&
      !this.botsOnly &&
      !this.closing &&
      this.noHumanSince !== null &&
      now - this.noHumanSince >= this.timing.freezeAfterMs &&
      (this.liveHand !== null || this.pending !== null)
    ) {
      // Reference 002 §9: with the last human gone, the hand, its clock and the bots wait.
      this.frozenAt = now;
      return;
    }
    if (this.frozenAt !== null) return;
    if (this.pending !== null && now >= this.pending.windowClosesAt) this.deal(now);
    this.settle(now);
  }

  /** When the table next needs a tick, or null. */
  nextWakeAt(): number | null {
    if (this.closed) return null;
    const times: number[] = [];
    if (this.frozenAt === null) {
      if (this.pending) times.push(this.pending.windowClosesAt);
      const t = this.turn;
      if (t) {
        if (t.botAt !== null) times.push(t.botAt);
        const expires = t.deadline + t.bankAtStart;
        times.push(expires);
        if (!t.warned && this.isHuman(t.playerId)) times.push(expires - this.timing.warningMs);
      }
      if (this.nextHandAt !== null) times.push(this.nextHandAt);
      // Bots that could not be funded are asked for again then.
      if (this.botBackoffUntil !== 0) times.push(this.botBackoffUntil);
      if (
        !this.botsOnly &&
        !this.closing &&
        this.noHumanSince !== null &&
        (this.liveHand !== null || this.pending !== null)
      ) {
        times.push(this.noHumanSince + this.timing.freezeAfterMs);
      }
    }
    return times.length > 0 ? Math.min(...times) : null;
  }

  private unfreeze(now: number): void {
    const shift = now - (this.frozenAt ?? now);
    this.frozenAt = null;
    // The turn resumes with the time it had left when the table froze.
    if (this.turn) {
      this.turn.deadline += shift;
      if (this.turn.botAt !== null) this.turn.botAt += shift;
    }
    if (this.pending) this.pending.windowClosesAt += shift;
    if (this.nextHandAt !== null) this.nextHandAt += shift;
  }

  /**
   * Brings the table to rest at `now`: plays out decisions that are due (bots, timeouts, leaving
   * players), finishes a completed hand, starts a turn for the next actor, and (re)schedules the
   * next hand. Called after every change.
   */
  private settle(now: number): void {
    for (let guard = 0; guard < 1000; guard++) {
      const hand = this.liveHand;
      if (hand === null || this.frozenAt !== null) break;
      if (hand.actor === null) break;
      if (this.turn === null || this.turn.handId !== hand.handId) {
        this.beginTurn(hand, now);
        continue;
      }
      const t = this.turn;
      const bot = this.member(t.playerId)?.bot === true;
      const expires = t.deadline + t.bankAtStart;
      if (this.leaving.has(t.playerId) || (bot && this.abandoned())) {
        this.timeoutDecision(hand, t, now, false);
        continue;
      }
      if (bot && t.botAt !== null && now >= t.botAt) {
        this.botDecision(hand, t);
        continue;
      }
      if (now >= expires) {
        this.timeoutDecision(hand, t, now, true);
        continue;
      }
      if (!t.warned && !bot && now >= expires - this.timing.warningMs) {
        t.warned = true;
        this.emit(ALL, {
          type: 'turn_warning',
          table_id: this.tableId,
          hand_id: hand.handId,
          hand_seq: hand.operations.length,
          seat: t.seat,
          expires_at: expires,
        });
      }
      break;
    }
    this.emitOperationsOfHand();
    const hand = this.hand;
    if (hand !== null && hand.isComplete && this.meta !== null && this.meta.endedAt === null) this.finishHand(now);
    this.reschedule(now);
  }

  private beginTurn(hand: Hand, now: number): void {
    const seat = hand.actor!;
    const playerId = hand.setup.players.find((p) => p.seat === seat)!.id;
    const bot = this.member(playerId)?.bot === true;
    const bank = bot ? 0 : (this.banks.get(playerId) ?? this.timing.timeBankMs);
    const think = this.timing.botThinkMs;
    this.turn = {
      handId: hand.handId,
      seat,
      playerId,
      token: bytesToHex(this.deps.random.bytes(16)),
      deadline: now + this.timing.actionMs,
      bankAtStart: bank,
      warned: false,
      botAt: bot ? now + Math.round(think / 2 + (think * (this.botRng.nextUint32() % 1000)) / 1000) : null,
    };
    // Events of the log so far go out before the turn, in the order they happened.
    this.emitOperationsOfHand();
    const valid = validActionsView(hand, seat);
    if (!bot && valid !== null) {
      this.emit(
        { kind: 'user', userId: playerId },
        {
          type: 'your_turn',
          table_id: this.tableId,
          hand_id: hand.handId,
          hand_seq: hand.operations.length,
          seat,
          turn_token: this.turn.token,
          deadline: this.turn.deadline,
          time_bank_ms: bank,
          valid_actions: valid,
        },
      );
    }
  }

  private timeoutDecision(hand: Hand, t: TurnState, now: number, clock: boolean): void {
    hand.applyTimeout();
    if (clock && this.isHuman(t.playerId)) {
      this.banks.set(t.playerId, Math.max(0, t.bankAtStart - Math.max(0, now - t.deadline)));
      this.away.add(t.playerId);
      this.deps.onHandEvent?.({ kind: 'timeout', handId: hand.handId, seat: t.seat });
    }
    this.turn = null;
  }

  private botDecision(hand: Hand, t: TurnState): void {
    const valid = hand.validActions();
    let action: PlayerAction | null = null;
    if (valid !== null) {
      action = decideBotAction(
        { rules: hand.rules, state: hand.view(t.seat), seat: t.seat, valid },
        this.botRng,
        this.deps.bot,
      );
    }
    if (action === null || !hand.canAct(t.seat, action)) hand.applyTimeout();
    else hand.act(t.seat, action);
    this.turn = null;
  }

  // ------------------------------------------------------------------------------------------
  // Hands

  /** Whether a hand may start now (without the host forcing it). */
  private startable(): boolean {
    if (this.closed || this.engine.currentHandId !== null || this.pending !== null || this.frozenAt !== null) {
      return false;
    }
    const plan = this.engine.planNextHand();
    if (plan === null) return false;
    if (this.botsOnly) return true;
    // At least one connected human plays: nobody deals to an empty room.
    return plan.dealtIn.some((seat) => {
      const id = this.engine.seat(seat)?.playerId;
      return id !== undefined && this.isHuman(id) && this.isConnected(id);
    });
  }

  /**
   * Auto-start: a pause after each hand (or after the table becomes ready), then the next hand if
   * the table is still ready.
   */
  private reschedule(now: number): void {
    if (this.closed) return;
    if (this.closing) {
      // The hand the close waited for is over: refund the seats and close now.
      if (this.liveHand === null && this.engine.currentHandId === null && this.closingSeed !== undefined) {
        this.close(this.closingSeed, now);
      }
      return;
    }
    this.syncSeats(now);
    if (this.engine.currentHandId !== null || this.pending !== null || this.frozenAt !== null) return;
    if (this.nextHandAt !== null && now < this.nextHandAt) return;
    if (!this.config.startHand.autoStart || !this.startable()) {
      this.nextHandAt = null;
      return;
    }
    if (this.nextHandAt === null) {
      this.nextHandAt = now + this.timing.handPauseMs;
      return;
    }
    this.beginHand(now);
    if (this.pending === null) this.settle(now);
  }

  /** seed_commit: the hand id and the commitment, before the window opens and before any card. */
  private beginHand(now: number): void {
    const plan = this.engine.planNextHand();
    if (plan === null) return;
    this.nextHandAt = null;
    // The finished hand stays on the table (show_cards) until this moment.
    this.hand = null;
    this.meta = null;
    this.turn = null;
    const handId = this.deps.random.uuid();
    const serverSeed = this.deps.random.bytes(32);
    const commit = seedCommit(serverSeed);
    const humanSeats = plan.dealtIn.filter((seat) => {
      const id = this.engine.seat(seat)?.playerId;
      return id !== undefined && this.isHuman(id) && this.isConnected(id);
    });
    this.pending = {
      handId,
      handNo: this.handNo + 1,
      serverSeed: bytesToHex(serverSeed),
      seedCommit: commit,
      windowClosesAt: now + this.timing.seedWindowMs,
      seats: [...plan.dealtIn],
      humanSeats,
      clientSeeds: [],
    };
    this.emit(ALL, {
      type: 'seed_commit',
      table_id: this.tableId,
      hand_id: handId,
      hand_seq: 0,
      seed_commit: commit,
      window_closes_at: this.pending.windowClosesAt,
      seats: [...plan.dealtIn],
    });
    if (humanSeats.length === 0) this.deal(now);
  }

  /** The window closed (or every human sent a seed): fix the deck and deal. */
  private deal(now: number): void {
    const p = this.pending;
    if (p === null) return;
    this.pending = null;
    const kind = this.engine.rules.deck;
    const clientSeeds = [...p.clientSeeds].sort((a, b) => a.seat - b.seat);
    const { commitment, order } = prepareDeck({
      handId: p.handId,
      serverSeed: hexToBytes(p.serverSeed),
      clientSeeds: clientSeeds.map((s) => ({ seat: s.seat, seed: hexToBytes(s.seed) })),
      kind,
    });
    let hand: Hand;
    try {
      hand = this.engine.startHand({
        handId: p.handId,
        deck: order,
        deckSeed: bytesToHex(commitment.deckSeed),
        startedAt: new Date(now).toISOString(),
      });
    } catch (err) {
      // Players left during the window and fewer than two can play: no hand, no cards.
      this.deps.onHandEvent?.({
        kind: 'aborted',
        handId: p.handId,
        reason: err instanceof Error ? err.message : 'cannot deal',
      });
      if (this.engine.currentHandId !== null) this.engine.voidHand();
      return;
    }
    // The number is taken when the hand completes: a voided hand takes none.
    this.hand = hand;
    this.meta = {
      handId: p.handId,
      handNo: p.handNo,
      serverSeed: p.serverSeed,
      seedCommit: p.seedCommit,
      clientSeeds,
      deckSeed: bytesToHex(commitment.deckSeed),
      deck: kind,
      startedAt: now,
      endedAt: null,
      seats: hand.setup.players.map((pl) => ({
        seat: pl.seat,
        userId: pl.id,
        name: this.member(pl.id)?.name ?? pl.name ?? '',
        startingStack: pl.stack,
        bot: this.member(pl.id)?.bot === true,
      })),
      emitted: 0,
    };
    this.deps.onHandEvent?.({
      kind: 'started',
      handId: p.handId,
      handNo: p.handNo,
      players: hand.setup.players.length,
    });
    const posts = hand.operations.filter((op) => op.type === 'post');
    this.emit(ALL, {
      type: 'hand_started',
      table_id: this.tableId,
      hand_id: hand.handId,
      hand_seq: posts.length,
      variant: { game: hand.setup.game, limit: hand.setup.limit, stakes: stakesView(hand.setup.stakes) },
      button: hand.setup.button,
      seats: hand.setup.players.map((pl) => pl.seat),
      forced_bets: posts.map((op) => ({ seat: op.seat, kind: op.kind, amount: op.amount, all_in: op.allIn })),
    });
  }

  private emitOperationsOfHand(): void {
    if (this.hand === null || this.meta === null) return;
    this.emitOperations(this.meta.emitted);
  }

  private emitOperations(from: number): void {
    const hand = this.hand;
    if (hand === null || this.meta === null) return;
    for (const e of operationEmissions(hand, from, this.tableId, (seat) => this.humanAt(hand, seat))) {
      this.emissions.push(e);
    }
    this.meta.emitted = hand.operations.length;
  }

  private humanAt(hand: Hand, seat: number): string | undefined {
    const id = hand.setup.players.find((p) => p.seat === seat)?.id;
    return id !== undefined && this.isHuman(id) ? id : undefined;
  }

  private finishHand(now: number): void {
    const hand = this.hand!;
    const meta = this.meta!;
    const settlement = hand.settlement!;
    meta.endedAt = now;
    const { left } = this.engine.finishHand(hand);
    this.handNo = meta.handNo;
    this.turn = null;
    const shown = shownSeats(hand);
    this.emit(ALL, {
      type: 'hand_result',
      table_id: this.tableId,
      hand_id: hand.handId,
      hand_seq: hand.operations.length,
      pots: settlement.pots.map((p) => ({
        index: p.index,
        amount: p.amount,
        rake: p.rake,
        eligible: [...p.eligible],
        winners: p.winners.map((w) => ({ seat: w.seat, amount: w.net, side: w.side })),
      })),
      uncalled: settlement.uncalled.map((u) => ({ seat: u.seat, amount: u.amount })),
      rake: settlement.rake.amount,
      players: settlement.players.map((p) => ({ seat: p.seat, net: p.net, stack: p.finalStack })),
      // Only hands everyone has seen are named: a mucked hand's strength stays private.
      hands: settlement.hands.filter((h) => shown.has(h.seat)).map((h) => ({ seat: h.seat, names: [...h.names] })),
    });
    const reveal = this.revealRecord(hand, meta);
    this.emit(ALL, {
      type: 'seed_reveal',
      table_id: this.tableId,
      hand_id: hand.handId,
      hand_seq: hand.operations.length,
      reveal,
    });
    // The record first, then the cash-outs of the players it let go (their last hand is this one).
    this.outbox.push({ kind: 'hand', job: this.handJob(hand, meta, reveal, now) });
    for (const l of left) {
      const m = this.member(l.playerId);
      // A member the room no longer lists was paid out by the lobby: nothing to send.
      if (m !== undefined) this.release(l.playerId, m.membershipId, l.cashOut, 'leave', now);
    }
    for (const m of [...this.members]) {
      if (!m.bot) continue;
      const s = this.engine.seats().find((x) => x.playerId === m.userId);
      if (!s || s.stack !== 0) continue;
      if (m.membershipId !== undefined) {
        // A funded bot that went broke leaves (a cash-out of nothing); a fresh one is funded.
        this.removeBot(m.userId, now);
      } else {
        // Unfunded bots (no Postgres) buy in again.
        this.engine.addChips(s.seat, this.config.buyIn.max);
        this.engine.sitIn(s.seat);
      }
    }
    // A seat the clock sat out is no longer merely away.
    for (const s of this.engine.seats()) {
      if (s.status === EngineSeatStatus.SITTING_OUT) this.away.delete(s.playerId);
    }
    this.deps.onHandEvent?.({
      kind: 'completed',
      handId: hand.handId,
      handNo: meta.handNo,
      durationMs: now - meta.startedAt,
    });
    this.nextHandAt = this.config.startHand.autoStart ? now + this.timing.handPauseMs : null;
  }

  private revealRecord(hand: Hand, meta: HandMeta) {
    const record = toRevealRecord(
      {
        handId: meta.handId,
        serverSeed: hexToBytes(meta.serverSeed),
        clientSeeds: meta.clientSeeds.map((s) => ({ seat: s.seat, seed: hexToBytes(s.seed) })),
        deckSeed: hexToBytes(meta.deckSeed),
        seedCommit: meta.seedCommit,
        kind: meta.deck,
        version: DERIVATION_VERSION,
      },
      hand.setup.game,
      hand.dealtCards(),
      hand.reshuffles(),
    );
    return { ...record, deck: meta.deck };
  }

  private handJob(
    hand: Hand,
    meta: HandMeta,
    reveal: ReturnType<LiveTable['revealRecord']>,
    now: number,
  ): CompletedHandJob {
    const json = JSON.parse(JSON.stringify(hand.toJSON())) as CompletedHandJob['payload']['hand'];
    const job = {
      hand_id: hand.handId,
      room_id: this.tableId,
      hand_no: meta.handNo,
      game: hand.setup.game,
      limit: hand.setup.limit,
      blinds: JSON.parse(JSON.stringify(hand.setup.stakes)) as CompletedHandJob['blinds'],
      started_at: new Date(meta.startedAt).toISOString(),
      ended_at: new Date(now).toISOString(),
      payload: {
        format: HAND_RECORD_FORMAT,
        hand: json,
        settlement: JSON.parse(JSON.stringify(hand.settlement)) as CompletedHandJob['payload']['settlement'],
        reveal,
        seats: meta.seats.map((s) => ({
          seat: s.seat,
          user_id: s.userId,
          name: s.name.slice(0, 64),
          starting_stack: s.startingStack,
          bot: s.bot,
        })),
        // Every top-up added since the last report, all seats (docs/dev/money-flows.md §2).
        top_ups: this.moneyBook.takeAllUnreported(),
      },
    };
    // A record that does not match the contract must fail here, loudly, not in the persister.
    return completedHandJobSchema.parse(job);
  }

  /**
   * Voids the hand in progress: stacks stay at their hand-start values. Everyone at the table is
   * told (`hand_voided`), and the void goes to the hands queue so that the ledger records a void
   * rather than a result (docs/dev/money-flows.md). The hand takes no number.
   */
  private voidHand(reason: HandVoidReason, now: number, detail?: string): void {
    const hand = this.liveHand;
    const meta = this.meta;
    const id = this.engine.currentHandId ?? hand?.handId ?? meta?.handId ?? null;
    // The hand-start stacks: the record's, else the hand's setup (the engine moves no chips before
    // the hand is finished, so these are also the seats' stacks after the void).
    const players =
      meta?.seats.map((s) => ({ seat: s.seat, userId: s.userId, name: s.name, stack: s.startingStack })) ??
      hand?.setup.players.map((p) => ({
        seat: p.seat,
        userId: p.id,
        name: this.member(p.id)?.name ?? p.name ?? '',
        stack: p.stack,
      })) ??
      this.seatedPlayers();
    if (this.engine.currentHandId !== null) this.engine.voidHand();
    this.hand = null;
    this.meta = null;
    this.turn = null;
    if (id === null) return;
    this.deps.onHandEvent?.({
      kind: 'voided',
      handId: id,
      reason: detail !== undefined ? `${reason}: ${detail}` : reason,
    });
    this.announceVoid(id, reason, hand?.operations.length ?? 0, players, now, {
      ...(hand !== null ? { game: hand.setup.game, limit: hand.setup.limit } : {}),
      ...(meta !== null ? { handNo: meta.handNo, startedAt: meta.startedAt } : {}),
    });
  }

  /**
   * A new owner found the table's checkpoint missing or corrupt while a hand was in progress: the
   * hand is void and the table restarted from the room rows, whose stacks are the hand-start ones.
   * Who was dealt in is lost with the checkpoint, so the void lists every seated player.
   */
  announceLostHand(handId: string, now: number): void {
    this.announceVoid(handId, HandVoidReason.CHECKPOINT_LOST, 0, this.seatedPlayers(), now, {});
  }

  private seatedPlayers(): { seat: number; userId: string; name: string; stack: number }[] {
    return this.engine.seats().map((s) => ({
      seat: s.seat,
      userId: s.playerId,
      name: this.member(s.playerId)?.name ?? '',
      stack: s.stack,
    }));
  }

  private announceVoid(
    handId: string,
    reason: HandVoidReason,
    handSeq: number,
    players: readonly { seat: number; userId: string; name: string; stack: number }[],
    now: number,
    known: { game?: string; limit?: string; handNo?: number; startedAt?: number },
  ): void {
    this.emit(ALL, {
      type: 'hand_voided',
      table_id: this.tableId,
      hand_id: handId,
      hand_seq: handSeq,
      reason,
      stacks: players.map((p) => ({ seat: p.seat, stack: p.stack })).sort((a, b) => a.seat - b.seat),
    });
    const job: VoidedHandJob = {
      kind: 'voided',
      hand_id: handId,
      room_id: this.tableId,
      ...(known.handNo !== undefined ? { hand_no: known.handNo } : {}),
      reason,
      ...(known.game !== undefined ? { game: known.game } : {}),
      ...(known.limit !== undefined ? { limit: known.limit } : {}),
      ...(known.startedAt !== undefined ? { started_at: new Date(known.startedAt).toISOString() } : {}),
      voided_at: new Date(now).toISOString(),
      players: players.map((p) => ({ seat: p.seat, user_id: p.userId, name: p.name.slice(0, 64), stack: p.stack })),
    };
    this.outbox.push({ kind: 'voided', job });
  }

  private emit(audience: Emission['audience'], body: Emission['body']): void {
    this.emissions.push({ audience, body });
  }

  /** The variant the current hand plays, or the next one between hands. */
  variantView(): VariantView {
    if (this.hand !== null) {
      return { game: this.hand.setup.game, limit: this.hand.setup.limit, stakes: stakesView(this.hand.setup.stakes) };
    }
    const v = this.engine.currentVariant;
    return { game: v.game, limit: v.limit, stakes: stakesView(v.stakes) };
  }
}

/** The engine's valid actions in wire terms. */
export function validActionsView(hand: Hand, seat: number): ValidActionsView | null {
  const va = hand.validActions();
  if (va === null || va.seat !== seat) return null;
  const range = (r: { min: number; max: number; choices?: readonly number[] } | null) =>
    r === null ? null : { min: r.min, max: r.max, ...(r.choices !== undefined ? { choices: [...r.choices] } : {}) };
  const bringInDue = va.bringIn !== null;
  return {
    fold: va.fold,
    check: va.check,
    call: va.call,
    bet: bringInDue ? null : range(va.bet),
    raise: range(va.raise),
    all_in: hand.canAct(seat, { type: 'all_in' }) && va.discard === null ? va.allInTo : null,
    bring_in: va.bringIn,
    complete: bringInDue ? range(va.bet) : null,
    discard: va.discard ? { max: va.discard.max } : null,
    current_bet: va.currentBet,
    player_bet: va.playerBet,
    stack: va.stack,
    pot: va.pot,
  };
}
