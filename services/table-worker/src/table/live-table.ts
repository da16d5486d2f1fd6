import { Hand, Table } from '@felt/engine';
import type { BlindFailure, ShuffleCheck } from '@felt/blind';
import {
  ErrorCode,
  HandVoidReason,
  parseRoomConfig,
  type BlindShuffleFrame,
  type DealingView,
  type RoomConfig,
  type VariantView,
} from '@felt/protocol';
import { TableError } from '../actor/table-error.js';
import type { BotFundingRefusal, LiveTableMoney, MoneySeed } from '../money/ports.js';
import { TableMoney } from '../money/table-money.js';
import type { TournamentOrder, TournamentOrderResult } from '../tournament/contracts.js';
import { BotSeats, type BotRequest } from './bot-seats.js';
import { TableChat } from './chat.js';
import { CommandHistory } from './command-history.js';
import { TableCommands, type ClientCommandFrame } from './commands.js';
import { Dealer, type HandMeta, type PendingHand } from './dealer.js';
import { EmissionQueue, type Emission } from './emissions.js';
import { engineTableConfig } from './engine-config.js';
import { HandRecords } from './hand-records.js';
import { newTableJSON, type LiveTableJSON } from './live-table-json.js';
import { Outbox } from './outbox.js';
import { RoomClose } from './room-close.js';
import { Seating, type ConnectionState, type MemberState } from './seating.js';
import { StreamBook, type Recipients } from './stream-book.js';
import { TableLifecycle, type LiveTableDeps, type TableContext } from './table-context.js';
import { TimeBanks } from './time-banks.js';
import { TournamentTable } from './tournament-table.js';
import { resolveTiming } from './timing.js';
import { TurnClock, type TurnState } from './turn-clock.js';

/**
 * One live table: the facade the actor talks to. Its parts, each with its own state:
 * `Seating` (members, connections, seats, top-ups, cash-outs), `BotSeats` (bot fill, funding,
 * decisions), `TurnClock` (turns, time banks, deadlines, freezing), `Dealer` (seed commitment,
 * window, deal, operation events), `HandRecords` (results, records, voids), `RoomClose` (the
 * close and its refunds) and `TableCommands` (client commands). This class keeps the table's
 * rhythm: after every change it `settle`s (plays what is due, finishes a completed hand) and
 * `reschedule`s (seats people between hands, starts the next hand after the pause).
 *
 * Every method is synchronous and takes `now`, so the actor decides when things happen and tests
 * drive time by hand. Events go into a queue that the actor drains, sequences, fans out and
 * checkpoints; jobs for the hands queue go into the outbox.
 */
export class LiveTable {
  readonly tableId: string;
  readonly engine: Table;
  /** Per member, the command ids already answered (a retry gets the same answer). */
  readonly history: CommandHistory;
  /** Each recipient stream's prev_table_seq chain and last snapshot. */
  readonly streams: StreamBook;
  /** Jobs for the hands queue, until the queue has them. */
  readonly outbox: Outbox;
  private seq: number;
  /**
   * The room's config as the table plays it: fixed when the table is made, except `chat`, which a
   * refresh of the room rows updates at once (chat.ts reads it on every message).
   */
  private roomConfig: RoomConfig;
  private readonly lifecycle: TableLifecycle;
  private readonly events = new EmissionQueue();
  private readonly money: TableMoney;
  private readonly banks: TimeBanks;
  /** The room clock's time-bank refill (timing.ts). */
  private readonly bankRefill: { readonly ms: number; readonly everyHands: number };
  private readonly seating: Seating;
  private readonly bots: BotSeats;
  private readonly dealer: Dealer;
  private readonly clock: TurnClock;
  private readonly records: HandRecords;
  private readonly closer: RoomClose;
  private readonly commands: TableCommands;
  /** A tournament's table: the director's side (null at a cash table). */
  private readonly tournament: TournamentTable | null;

  private constructor(
    json: LiveTableJSON,
    engine: Table,
    hand: Hand | null,
    private readonly deps: LiveTableDeps,
  ) {
    this.tableId = json.tableId;
    this.seq = json.tableSeq;
    this.lifecycle = new TableLifecycle(json.closed, json.closing === true);
    this.roomConfig = json.config;
    const timing = resolveTiming(json.config, deps.timing);
    this.engine = engine;
    this.history = new CommandHistory(json.commands);
    this.streams = new StreamBook(json.streams);
    this.outbox = new Outbox(json.outbox);
    this.money = TableMoney.fromJSON(json.moneyBook);
    this.banks = new TimeBanks(json.banks, timing.timeBankMs);
    this.bankRefill = { ms: timing.timeBankRefillMs, everyHands: timing.refillEveryHands };
    const ctx: TableContext = {
      tableId: this.tableId,
      engine,
      config: json.config,
      timing,
      deps,
      lifecycle: this.lifecycle,
      events: this.events,
      outbox: this.outbox,
      money: this.money,
      tournament: json.tournament !== undefined,
    };
    this.seating = new Seating(ctx, this.banks, () => this.dealer.handNo, json);
    this.tournament =
      json.tournament !== undefined ? new TournamentTable(ctx, this.seating, this.banks, json.tournament) : null;
    this.dealer = new Dealer(ctx, this.seating, {
      hand,
      meta: json.meta,
      pending: json.pending,
      handNo: json.handNo,
      ...(json.blind !== undefined ? { blind: json.blind } : {}),
    });
    this.bots = new BotSeats(ctx, this.seating, this.banks);
    this.clock = new TurnClock(ctx, this.seating, this.bots, this.dealer, this.banks, json);
    this.records = new HandRecords(ctx, this.seating, this.dealer, this.clock);
    this.closer = new RoomClose(ctx, this.seating, this.bots, this.dealer, this.clock, (now) => this.settle(now));
    this.commands = new TableCommands(
      ctx,
      this.seating,
      this.dealer,
      this.clock,
      {
        settle: (now) => this.settle(now),
        syncSeats: (now) => this.syncSeats(now),
        beginHand: (now) => this.beginHand(now),
      },
      new TableChat(ctx, this.seating, () => this.roomConfig.chat),
    );
  }

  /** A new live table from the room's rows. */
  static create(tableId: string, seed: MoneySeed, tableSeq: number, now: number, deps: LiveTableDeps): LiveTable {
    const config = seed.config ?? parseRoomConfig({ seats: Math.min(10, Math.max(2, seed.seatCount)) });
    // A tournament player who times out is folded hand after hand, never sat out: they are blinded
    // away until they come back or are out.
    const engine = new Table({
      ...engineTableConfig(config, tableId),
      ...(seed.tournament !== undefined ? { sitOutAfterTimeouts: Number.MAX_SAFE_INTEGER } : {}),
    });
    const live = new LiveTable(newTableJSON(tableId, seed, config, engine, tableSeq, now), engine, null, deps);
    live.refresh(seed, now);
    return live;
  }

  /**
   * A live table from its checkpoint. A hand that no longer replays is voided: every stack stays
   * at its hand-start value (docs/architecture.md, invariant 9: only a failure voids a hand), and
   * the void is reported.
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
    if (voided !== null) {
      live.records.voidHand(HandVoidReason.UNREADABLE, now, voided);
      // A voided hand does not count: the director's deal still stands, or it would wait forever for
      // a report of a hand that never ended.
      live.tournament?.handVoided();
    }
    return live;
  }

  toJSON(): LiveTableJSON {
    const seating = this.seating.toJSON();
    const dealer = this.dealer.toJSON();
    const clock = this.clock.toJSON();
    return {
      format: 'felt-live-table/1',
      tableId: this.tableId,
      tableSeq: this.seq,
      closed: this.lifecycle.closed,
      config: this.config,
      hostId: seating.hostId,
      botsOnly: seating.botsOnly,
      members: seating.members,
      connections: seating.connections,
      engine: this.engine.toJSON(),
      hand: dealer.hand,
      meta: dealer.meta,
      pending: dealer.pending,
      turn: clock.turn,
      banks: this.banks.toJSON(),
      away: seating.away,
      leaving: seating.leaving,
      nextHandAt: clock.nextHandAt,
      handNo: dealer.handNo,
      noHumanSince: clock.noHumanSince,
      frozenAt: clock.frozenAt,
      streams: this.streams.toJSON(),
      commands: this.history.toJSON(),
      outbox: this.outbox.toJSON(),
      moneyBook: this.money.toJSON(),
      ...(this.lifecycle.closing ? { closing: true } : {}),
      ...(this.tournament !== null ? { tournament: this.tournament.toJSON() } : {}),
      ...(this.config.dealing === 'engine_blind' ? { blind: dealer.blind } : {}),
    };
  }

  /** What the checkpoint mark keeps: the hand in progress, if any, and the last completed hand's number. */
  checkpointMark(): { handId: string | null; handNo: number } {
    return this.dealer.checkpointMark();
  }

  /** Seated stacks as the audit compares them (hand-start stacks while a hand runs). */
  liveMoney(): LiveTableMoney {
    return this.money.liveMoney(this.engine, this.dealer.handNo);
  }

  /** How many events were produced since the last drain. */
  get pendingEvents(): number {
    return this.events.size;
  }

  /** The events produced since the last drain, in order. */
  drain(): Emission[] {
    return this.events.drain();
  }

  // ------------------------------------------------------------------------------------------
  // Sequence: every message the table sends takes the next table_seq, across owners.

  get tableSeq(): number {
    return this.seq;
  }

  nextTableSeq(): number {
    return ++this.seq;
  }

  // ------------------------------------------------------------------------------------------
  // Reading (the actor and the per-viewer views)

  get config(): RoomConfig {
    return this.roomConfig;
  }

  get closed(): boolean {
    return this.lifecycle.closed;
  }

  get closing(): boolean {
    return this.lifecycle.closing;
  }

  get botsOnly(): boolean {
    return this.seating.botsOnly;
  }

  member(userId: string): MemberState | undefined {
    return this.seating.member(userId);
  }

  /** Everyone who is a member now (whose command history is kept). */
  memberIds(): Set<string> {
    return new Set(this.seating.memberList().map((m) => m.userId));
  }

  /** The engine seat a player sits in, if any. */
  seatOf(playerId: string): number | undefined {
    return this.seating.seatOf(playerId);
  }

  isConnected(userId: string): boolean {
    return this.seating.isConnected(userId);
  }

  isAway(userId: string): boolean {
    return this.seating.isAway(userId);
  }

  isLeaving(userId: string): boolean {
    return this.seating.isLeaving(userId);
  }

  connection(connectionId: string): ConnectionState | undefined {
    return this.seating.connection(connectionId);
  }

  connections(): readonly ConnectionState[] {
    return this.seating.connectionList();
  }

  /** Who hears the table now: connected members and whether anyone spectates. */
  recipients(): Recipients {
    return this.seating.recipients();
  }

  /** What is left of the player's time bank. */
  bankOf(userId: string): number {
    return this.banks.of(userId);
  }

  get hand(): Hand | null {
    return this.dealer.hand;
  }

  /** The number of the table's last completed hand. */
  get handNo(): number {
    return this.dealer.handNo;
  }

  get meta(): Readonly<HandMeta> | null {
    return this.dealer.meta;
  }

  get pending(): Readonly<PendingHand> | null {
    return this.dealer.pending;
  }

  /** A hand announced and not dealt yet (a client-seed window, or an engine-blind hand's setup). */
  get announcedHandId(): string | null {
    return this.dealer.announcedHandId;
  }

  /** The participants of the engine-blind hand on the table, if any. */
  dealingSeats(): readonly number[] | null {
    return this.dealer.blind.state?.setup.seats ?? null;
  }

  /** `table_state.dealing` for a viewer's seat, in a room that deals engine-blind (else undefined). */
  dealingView(viewerSeat: number | null): DealingView | undefined {
    if (this.config.dealing !== 'engine_blind') return undefined;
    const hand = this.dealer.hand;
    return this.dealer.blind.view(hand, viewerSeat);
  }

  /** What an engine-blind shuffle's proof is checked against (throws TableError when it is not owed). */
  blindShuffleCheck(userId: string, frame: BlindShuffleFrame): ShuffleCheck {
    return this.commands.blindShuffleCheck(userId, frame);
  }

  get turn(): Readonly<TurnState> | null {
    return this.clock.turn;
  }

  get nextHandAt(): number | null {
    return this.clock.nextHandAt;
  }

  /** Why the house bankroll last refused to stake a bot, until one is seated (shown in table_state). */
  get botsBlocked(): BotFundingRefusal | null {
    return this.bots.blockedBy;
  }

  /** The variant the current hand plays, or the next one between hands. */
  variantView(): VariantView {
    return this.dealer.variantView();
  }

  // ------------------------------------------------------------------------------------------
  // Connections and membership

  attach(c: ConnectionState, now: number): void {
    if (this.seating.attach(c)) this.clock.humanConnected(now);
    this.reschedule(now);
  }

  /** Returns whether anything changed. */
  detach(connectionId: string, userId: string, now: number): boolean {
    if (!this.seating.detach(connectionId, userId)) return false;
    this.afterDisconnect(now);
    return true;
  }

  streamClosed(streamId: string, now: number): boolean {
    if (!this.seating.streamClosed(streamId)) return false;
    this.afterDisconnect(now);
    return true;
  }

  private afterDisconnect(now: number): void {
    this.clock.disconnected(now);
    this.reschedule(now);
  }

  /** The lobby changed the room: reread members, status and config. */
  refresh(seed: MoneySeed | null, now: number): void {
    if (seed === null || seed.status !== 'open') {
      this.closer.close(seed, now);
      return;
    }
    // A tournament's players are the director's to seat: its rows list none.
    if (this.tournament !== null) {
      this.settle(now);
      return;
    }
    this.applyChat(seed.config?.chat);
    this.seating.applySeed(seed, now);
    this.syncSeats(now);
    this.settle(now);
  }

  /**
   * The host's chat setting takes effect at once (it touches nothing of the game), and is kept in the
   * checkpoint's config from then on; the rest of the config is the table's from its start.
   */
  private applyChat(chat: RoomConfig['chat'] | undefined): void {
    const current = this.roomConfig.chat;
    if (chat === undefined || (chat.enabled === current.enabled && chat.spectators === current.spectators)) return;
    this.roomConfig = { ...this.roomConfig, chat: { enabled: chat.enabled, spectators: chat.spectators } };
  }

  /** The lobby recorded that a member is leaving (worker-mode cash-out): as `leave`. */
  memberLeaving(userId: string, now: number): void {
    if (this.lifecycle.closed || this.seating.seatOf(userId) === undefined || this.seating.isLeaving(userId)) return;
    this.seating.markLeaving(userId, now);
    this.settle(now);
  }

  /** The tournament this table belongs to, if any, and what the director last said of it. */
  get tournamentInfo(): TournamentTable['info'] {
    return this.tournament?.info ?? null;
  }

  get tournamentId(): string | null {
    return this.tournament?.tournamentId ?? null;
  }

  /** An order the director gave before: its first answer (undefined: a new order). */
  tournamentAnswer(orderId: string): TournamentOrderResult | undefined {
    return this.tournament?.answered(orderId);
  }

  /**
   * One of the tournament director's orders (docs/architecture.md, "Tournaments"): throws TableError
   * (nothing changed) or applies completely, then the table plays on (a `deal` starts the next hand
   * after the pause; a `close` closes it).
   */
  tournamentOrder(order: TournamentOrder, now: number): TournamentOrderResult {
    if (this.tournament === null) {
      throw new TableError(ErrorCode.NOT_ALLOWED, 'this table is not a tournament table', this.tableId);
    }
    const handInProgress = this.engine.currentHandId !== null || this.dealer.announced;
    const result = this.tournament.apply(order, handInProgress);
    if (order.kind === 'close') this.closer.close(null, now);
    else this.settle(now);
    return result;
  }

  /** A client command: throws TableError (nothing changed) or applies completely. */
  command(userId: string, frame: ClientCommandFrame, now: number): void {
    this.commands.run(userId, frame, now);
  }

  // ------------------------------------------------------------------------------------------
  // Bots the actor funds (@felt/db seatBot)

  /** The first bot waiting for its funding, if any. */
  nextBotRequest(): BotRequest | undefined {
    return this.bots.nextRequest();
  }

  /**
   * The actor funded a requested bot (it is now a user with a membership and a buy-in): it joins
   * the members, and sits at once between hands (else at the next hand boundary).
   */
  botFunded(request: BotRequest, membershipId: string, now: number): void {
    // Closed while it was being funded: its buy-in went straight back.
    if (!this.bots.fundedBot(request, membershipId, now)) return;
    this.syncSeats(now);
    // A player sat down: the pause before the next hand starts over from now (funding took time the
    // pause was meant to give people arriving at the table).
    if (this.engine.currentHandId === null && !this.dealer.announced) this.clock.cancelNextHand();
    this.reschedule(now);
  }

  /** A bot could not be funded (see BotSeats.refused): asked for again after `retryMs`. */
  botRefused(request: BotRequest, now: number, retryMs?: number, refusal?: BotFundingRefusal): void {
    this.bots.refused(request, now, retryMs, refusal);
  }

  /** A new owner lost this table's checkpoint while `handId` was in progress: it is void. */
  announceLostHand(handId: string, now: number): void {
    this.records.announceLostHand(handId, now);
  }

  // ------------------------------------------------------------------------------------------
  // The table's rhythm

  /** Runs everything due at `now`. */
  tick(now: number): void {
    this.bots.expireBackoff(now);
    if (this.lifecycle.closed) return;
    if (this.clock.freezeIfDeserted(now) || this.clock.frozen) return;
    if (this.dealer.windowClosed(now)) this.dealer.deal(now);
    const failure = this.dealer.expireBlind(now);
    if (failure !== null) this.failBlind(failure, now);
    this.settle(now);
  }

  /** When the table next needs a tick, or null. */
  nextWakeAt(): number | null {
    return this.clock.nextWakeAt();
  }

  /**
   * Brings the table to rest at `now`: plays out decisions that are due (bots, timeouts, leaving
   * players), finishes a completed hand, starts a turn for the next actor, and (re)schedules the
   * next hand. Called after every change.
   */
  private settle(now: number): void {
    this.playDue(now);
    this.dealer.emitOperationsOfHand();
    if (this.dealer.handCompleted) this.finishHand(now);
    this.reschedule(now);
  }

  /**
   * Auto-start: a pause after each hand (or after the table becomes ready), then the next hand if
   * the table is still ready.
   */
  private reschedule(now: number): void {
    if (this.lifecycle.closed) return;
    if (this.lifecycle.closing) {
      this.closer.closeIfHandOver(now);
      return;
    }
    this.syncSeats(now);
    if (this.engine.currentHandId !== null || this.dealer.announced || this.clock.frozen) return;
    const nextHandAt = this.clock.nextHandAt;
    // No next hand is announced while none could start (too few players who can play): the pause
    // begins once one can. A tournament table deals only when its director says so.
    const mayDeal = this.tournament !== null ? this.tournament.dealAllowed : this.config.startHand.autoStart;
    if (!mayDeal || !this.dealer.startable()) {
      this.clock.cancelNextHand();
      return;
    }
    if (nextHandAt !== null && now < nextHandAt) return;
    if (nextHandAt === null) {
      this.clock.startPause(now);
      return;
    }
    this.beginHand(now);
    if (!this.dealer.announced) this.settle(now);
  }

  /**
   * Seats members and bots and adds pending top-ups, between hands only (the seating layer changes
   * who plays, and stacks change, only at hand boundaries).
   */
  private syncSeats(now: number): void {
    const { closed, closing } = this.lifecycle;
    if (closed || closing || this.engine.currentHandId !== null || this.dealer.announced) return;
    // The director seats a tournament's players itself.
    if (this.tournament !== null) return;
    this.seating.seatMembers(now);
    this.bots.fill(now);
  }

  /** seed_commit for the next hand, if two players can play. */
  private beginHand(now: number): void {
    const plan = this.engine.planNextHand();
    if (plan === null) return;
    this.tournament?.dealing();
    this.clock.handStarting();
    this.dealer.announce(plan, now);
  }

  /**
   * Plays what is due: the clock's decisions and, in an engine-blind hand, what the players' shares
   * opened (the board, shown hands), each of which may give the next player the turn.
   */
  private playDue(now: number): void {
    for (let guard = 0; guard < 64; guard++) {
      this.endShownTurn(now);
      const before = this.dealer.hand?.operations.length ?? -1;
      this.clock.playDue(now);
      const failure = this.dealer.progressBlind(now);
      if (failure !== null) {
        this.failBlind(failure, now);
        return;
      }
      if ((this.dealer.hand?.operations.length ?? -1) === before) return;
    }
  }

  /** An engine-blind show ends the showing player's turn, as an action does. */
  private endShownTurn(now: number): void {
    const turn = this.clock.turn;
    const hand = this.dealer.hand;
    if (turn === null || hand === null || hand.dealing !== 'blind') return;
    if (hand.isComplete || hand.actor !== turn.seat) this.clock.acted(turn.playerId, now);
  }

  /**
   * An engine-blind hand failed (a step late or a proof that did not verify): it is void, every stake
   * goes back, everyone is told whom to blame, and the table deals standard hands from now on.
   */
  private failBlind(failure: BlindFailure, now: number): void {
    const handId = this.dealer.announcedHandId ?? this.dealer.hand?.handId;
    if (handId === undefined) return;
    this.records.voidHand(HandVoidReason.ENGINE_BLIND_FAILED, now, `${failure.step} ${failure.reason}`, failure);
    this.dealer.blind.downgrade(handId, failure);
    if (this.tournament === null) this.clock.afterHand(now);
  }

  /** The hand is complete: its result, its record, the seats it let go, then the pause. */
  private finishHand(now: number): void {
    const { hand, meta, left } = this.dealer.finish(now);
    this.clock.endTurn();
    this.records.completed(hand, meta, now);
    this.tournament?.handEnded(hand, meta.handNo);
    // Every refillEveryHands hands of the table, the players dealt into this one get time back.
    if (this.bankRefill.ms > 0 && meta.handNo % this.bankRefill.everyHands === 0) {
      this.banks.refill(
        hand.setup.players.map((p) => p.id),
        this.bankRefill.ms,
      );
    }
    this.seating.releaseLeft(left, now);
    this.bots.replaceBroke(now);
    this.seating.forgetAwayOfSittingOut();
    this.deps.onHandEvent?.({
      kind: 'completed',
      handId: hand.handId,
      handNo: meta.handNo,
      durationMs: now - meta.startedAt,
    });
    this.clock.afterHand(now);
  }
}
