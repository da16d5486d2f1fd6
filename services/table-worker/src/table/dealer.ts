import {
  bytesToHex,
  DERIVATION_VERSION,
  hexToBytes,
  prepareDeck,
  seedCommit,
  toRevealRecord,
  type DeckKind,
  type Hand,
  type HandJSON,
  type Card,
  type HandPlan,
  type Table,
} from '@felt/engine';
import type { BlindFailure, BlindMessage } from '@felt/blind';
import type { VariantView } from '@felt/protocol';
import { BlindDealing, type BlindDealingJSON } from './blind-dealing.js';
import { stakesView } from './engine-config.js';
import { ALL, operationEmissions } from './emissions.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';

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
  /** Engine-blind: no seeds, no deck (the seed fields are empty), no reveal. */
  readonly dealing?: 'blind';
  endedAt: number | null;
  readonly seats: readonly { seat: number; userId: string; name: string; startingStack: number; bot: boolean }[];
  /** Operations already turned into events. */
  emitted: number;
}

/** The dealer's part of the checkpoint (LiveTableJSON's fields of the same names). */
export interface DealerState {
  readonly hand: Hand | null;
  readonly meta: HandMeta | null;
  readonly pending: PendingHand | null;
  readonly handNo: number;
  /** Engine-blind dealing (absent in checkpoints from before it). */
  readonly blind?: BlindDealingJSON;
}

export type RevealRecord = ReturnType<typeof revealRecord>;

/** The hand's reveal record (docs/fairness.md, "Verifying a hand"): seeds, deck seed and every card dealt, for seed_reveal and the record. */
export function revealRecord(hand: Hand, meta: HandMeta) {
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

/**
 * The deal, provably fair (docs/fairness.md): each hand is announced with its seed commitment
 * (seed_commit) before the client-seed window opens and before any card; when the window closes
 * (or every connected human sent a seed) the deck is fixed and the hand dealt. The dealer turns the
 * hand's operation log into events and numbers completed hands.
 */
export class Dealer {
  private pendingHand: PendingHand | null;
  private current: Hand | null;
  private record: HandMeta | null;
  private lastHandNo: number;
  /** Engine-blind dealing: the hand's protocol, the deck plan and the downgrade. */
  readonly blind: BlindDealing;

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    state: DealerState,
  ) {
    this.current = state.hand;
    this.record = state.meta ? { ...state.meta } : null;
    this.pendingHand = state.pending ? { ...state.pending, clientSeeds: [...state.pending.clientSeeds] } : null;
    this.lastHandNo = state.handNo;
    this.blind = new BlindDealing(ctx, state.blind, ctx.timing.blind);
  }

  toJSON(): {
    hand: HandJSON | null;
    meta: HandMeta | null;
    pending: PendingHand | null;
    handNo: number;
    blind: BlindDealingJSON;
  } {
    return {
      hand: this.current ? this.current.toJSON() : null,
      meta: this.record,
      pending: this.pendingHand,
      handNo: this.lastHandNo,
      blind: this.blind.toJSON(),
    };
  }

  /** The hand on the table: in progress, or finished and kept until the next begins (show_cards). */
  get hand(): Hand | null {
    return this.current;
  }

  get meta(): Readonly<HandMeta> | null {
    return this.record;
  }

  /** The hand announced and not dealt yet (its client-seed window open). */
  get pending(): Readonly<PendingHand> | null {
    return this.pendingHand;
  }

  /**
   * A hand is announced and the engine has not dealt it yet: its client-seed window is open, or an
   * engine-blind hand's keys, shuffles and hole cards are under way.
   */
  get announced(): boolean {
    return this.pendingHand !== null || this.blind.pending !== null;
  }

  /** The id of the hand announced and not dealt yet, if any. */
  get announcedHandId(): string | null {
    return this.pendingHand?.handId ?? this.blind.pending?.handId ?? null;
  }

  /** The number of the table's last completed hand. */
  get handNo(): number {
    return this.lastHandNo;
  }

  /** The hand in progress (not yet complete), if any. */
  get liveHand(): Hand | null {
    return this.current && !this.current.isComplete ? this.current : null;
  }

  /** Dealt and finished by the rules, and not yet finished by the table (`finish`). */
  get handCompleted(): boolean {
    const hand = this.current;
    return hand !== null && hand.isComplete && this.record !== null && this.record.endedAt === null;
  }

  /**
   * What the checkpoint mark keeps (docs/dev/contracts.md): the hand in progress (dealt and not
   * finished: a finished hand stays on the table until the next one begins) and the number of the
   * last completed hand.
   */
  checkpointMark(): { handId: string | null; handNo: number } {
    const meta = this.record;
    const inProgress = this.current !== null && meta !== null && meta.endedAt === null;
    return { handId: inProgress ? meta.handId : null, handNo: this.lastHandNo };
  }

  /** The variant the current hand plays, or the next one between hands. */
  variantView(): VariantView {
    if (this.current !== null) {
      const setup = this.current.setup;
      return { game: setup.game, limit: setup.limit, stakes: stakesView(setup.stakes) };
    }
    const v = this.ctx.engine.currentVariant;
    return { game: v.game, limit: v.limit, stakes: stakesView(v.stakes) };
  }

  /**
   * Whether the next hand may start without the host forcing it: two players can play, and (unless
   * the table is bot-only) a connected human is dealt in: nobody deals to an empty room.
   */
  startable(): boolean {
    const engine = this.ctx.engine;
    const plan = engine.planNextHand();
    if (plan === null) return false;
    // A bot-only table plays alone; a tournament deals whether or not its players are connected (the
    // clock folds for the absent).
    if (this.seating.botsOnly || this.ctx.tournament) return true;
    return plan.dealtIn.some((seat) => {
      const id = engine.seat(seat)?.playerId;
      return id !== undefined && this.seating.isHuman(id) && this.seating.isConnected(id);
    });
  }

  /**
   * seed_commit: the hand id and the commitment, before the window opens and before any card. Or, at
   * an engine-blind table, the hand's protocol begins (its players' keys are owed from now).
   */
  announce(plan: HandPlan, now: number): void {
    const { deps, timing } = this.ctx;
    // The finished hand stays on the table (show_cards) until this moment.
    this.current = null;
    this.record = null;
    this.blind.clear();
    const handId = deps.random.uuid();
    // Engine-blind when every player dealt in is a person at the table now: one who is not could not
    // take part, and the hand would only fail (the room's next hand tries again).
    if (this.blind.enabled && plan.dealtIn.every((seat) => this.connectedHumanAt(seat))) {
      this.blind.start(handId, this.lastHandNo + 1, plan, now);
      return;
    }
    const serverSeed = deps.random.bytes(32);
    const commit = seedCommit(serverSeed);
    const humanSeats = plan.dealtIn.filter((seat) => this.connectedHumanAt(seat));
    this.pendingHand = {
      handId,
      handNo: this.lastHandNo + 1,
      serverSeed: bytesToHex(serverSeed),
      seedCommit: commit,
      windowClosesAt: now + timing.seedWindowMs,
      seats: [...plan.dealtIn],
      humanSeats,
      clientSeeds: [],
    };
    this.ctx.events.emit(ALL, {
      type: 'seed_commit',
      table_id: this.ctx.tableId,
      hand_id: handId,
      hand_seq: 0,
      seed_commit: commit,
      window_closes_at: this.pendingHand.windowClosesAt,
      seats: [...plan.dealtIn],
    });
    if (humanSeats.length === 0) this.deal(now);
  }

  private connectedHumanAt(seat: number): boolean {
    const id = this.ctx.engine.seat(seat)?.playerId;
    return id !== undefined && this.seating.isHuman(id) && this.seating.isConnected(id);
  }

  /** The client-seed window of the pending hand is over. */
  windowClosed(now: number): boolean {
    return this.pendingHand !== null && now >= this.pendingHand.windowClosesAt;
  }

  /** The table was frozen for `ms`: the window closes that much later. */
  shiftWindow(ms: number): void {
    if (this.pendingHand) this.pendingHand.windowClosesAt += ms;
  }

  /** Takes a seat's client seed (checked by the caller); returns whether every connected human's is in. */
  addClientSeed(seat: number, seed: string): boolean {
    const p = this.pendingHand!;
    p.clientSeeds.push({ seat, seed });
    return p.humanSeats.every((s) => p.clientSeeds.some((c) => c.seat === s));
  }

  /** A hand announced and not dealt yet is dropped (the room closed): no card was dealt. */
  dropPending(): void {
    this.pendingHand = null;
    if (this.blind.pending !== null) this.blind.clear();
  }

  /** The window closed (or every human sent a seed): fix the deck and deal. */
  deal(now: number): void {
    const p = this.pendingHand;
    if (p === null) return;
    const { deps, engine } = this.ctx;
    this.pendingHand = null;
    const kind = engine.rules.deck;
    const clientSeeds = [...p.clientSeeds].sort((a, b) => a.seat - b.seat);
    const { commitment, order } = prepareDeck({
      handId: p.handId,
      serverSeed: hexToBytes(p.serverSeed),
      clientSeeds: clientSeeds.map((s) => ({ seat: s.seat, seed: hexToBytes(s.seed) })),
      kind,
    });
    let hand: Hand;
    try {
      hand = engine.startHand({
        handId: p.handId,
        deck: order,
        deckSeed: bytesToHex(commitment.deckSeed),
        startedAt: new Date(now).toISOString(),
      });
    } catch (err) {
      // Players left during the window and fewer than two can play: no hand, no cards.
      deps.onHandEvent?.({
        kind: 'aborted',
        handId: p.handId,
        reason: err instanceof Error ? err.message : 'cannot deal',
      });
      if (engine.currentHandId !== null) engine.voidHand();
      return;
    }
    this.started(
      hand,
      {
        handNo: p.handNo,
        serverSeed: p.serverSeed,
        seedCommit: p.seedCommit,
        clientSeeds,
        deckSeed: bytesToHex(commitment.deckSeed),
        deck: kind,
      },
      now,
    );
  }

  /** The engine dealt a hand: its record, then hand_started with the forced bets. */
  private started(
    hand: Hand,
    meta: Omit<HandMeta, 'handId' | 'startedAt' | 'endedAt' | 'seats' | 'emitted'>,
    now: number,
  ): void {
    // The number is taken when the hand completes: a voided hand takes none.
    this.current = hand;
    this.record = {
      ...meta,
      handId: hand.handId,
      startedAt: now,
      endedAt: null,
      seats: hand.setup.players.map((pl) => ({
        seat: pl.seat,
        userId: pl.id,
        name: this.seating.member(pl.id)?.name ?? pl.name ?? '',
        startingStack: pl.stack,
        bot: this.seating.member(pl.id)?.bot === true,
      })),
      emitted: 0,
    };
    this.ctx.deps.onHandEvent?.({
      kind: 'started',
      handId: hand.handId,
      handNo: meta.handNo,
      players: hand.setup.players.length,
    });
    const posts = hand.operations.filter((op) => op.type === 'post');
    this.ctx.events.emit(ALL, {
      type: 'hand_started',
      table_id: this.ctx.tableId,
      hand_id: hand.handId,
      hand_seq: posts.length,
      variant: { game: hand.setup.game, limit: hand.setup.limit, stakes: stakesView(hand.setup.stakes) },
      button: hand.setup.button,
      seats: hand.setup.players.map((pl) => pl.seat),
      forced_bets: posts.map((op) => ({ seat: op.seat, kind: op.kind, amount: op.amount, all_in: op.allIn })),
    });
  }

  // ------------------------------------------------------------------------------------------
  // Engine-blind hands (docs/fairness.md, "Engine-blind dealing")

  /**
   * A participant's key, shuffle or shares: throws a BlindRefusal (nothing changed) or takes it,
   * relays its step and moves the hand on as far as the cards that opened allow. Returns the hand's
   * failure, if the message failed it (the caller voids the hand).
   */
  blindMessage(seat: number, message: BlindMessage, now: number, verified?: boolean): BlindFailure | null {
    const handSeq = this.current?.operations.length ?? 0;
    for (const e of this.blind.take(seat, message, now, verified)) {
      this.ctx.events.emit(e.audience, { ...e.body, hand_seq: handSeq } as typeof e.body);
    }
    return this.progressBlind(now);
  }

  /**
   * Moves an engine-blind hand on: asks for the hole cards once the deck is shuffled, deals when every
   * owner can read them, opens the board the engine waits for, and shows each hand whose owner sent
   * its shares (in turn at the showdown, or after the hand). Returns the failure, if the hand failed.
   */
  progressBlind(now: number): BlindFailure | null {
    const blind = this.blind;
    if (blind.state === null) return null;
    if (blind.failure !== null) return blind.failure;
    if (blind.pending !== null) {
      blind.requestHoleCards(now);
      if (blind.failure === null && blind.holeCardsDelivered()) this.dealBlind(now);
    }
    const hand = this.current;
    if (hand === null || hand.dealing !== 'blind') return blind.failure;
    for (let guard = 0; guard < 64 && blind.failure === null; guard++) {
      const board = hand.pendingBoard;
      if (board !== null) {
        const cards = blind.boardCards(board.indices, now);
        if (cards === null || !hand.canRevealBoard(cards as Card[])) break;
        hand.revealBoard(cards as Card[]);
        continue;
      }
      const actor = hand.actor;
      if (hand.phase === 'showdown' && actor !== null) {
        const cards = blind.shownCards(actor);
        if (cards === null || !hand.canShowBlind(actor, cards as Card[])) break;
        hand.showBlind(actor, cards as Card[]);
        continue;
      }
      break;
    }
    // After the hand: a player may still show (its own shares open its cards for everyone).
    if (hand.isComplete) {
      for (const p of hand.setup.players) {
        const cards = blind.shownCards(p.seat);
        if (cards !== null && hand.canShowBlind(p.seat, cards as Card[])) hand.showBlind(p.seat, cards as Card[]);
      }
    }
    return blind.failure;
  }

  /** Fails the engine-blind hand if a step it owes is past its deadline; returns the failure. */
  expireBlind(now: number): BlindFailure | null {
    const hand = this.current;
    // A finished hand owes nothing that matters: late shows are a choice.
    if (this.blind.pending === null && (hand === null || hand.isComplete)) return null;
    this.blind.expire(now);
    return this.blind.failure;
  }

  /** Every hole card can be read by its owner: the engine deals the hand with those cards unknown. */
  private dealBlind(now: number): void {
    const p = this.blind.pending!;
    const { engine } = this.ctx;
    const plan = engine.planNextHand();
    const same =
      plan !== null &&
      plan.button === p.button &&
      plan.dealtIn.length === p.seats.length &&
      plan.dealtIn.every((s, i) => s === p.seats[i]);
    let hand: Hand;
    try {
      // Someone sat out or left while the deck was being shuffled: the plan the deck was dealt by no
      // longer holds. No card was dealt to the engine and no chip moved.
      if (!same) throw new Error('the seats dealt in changed while the deck was shuffled');
      hand = engine.startHand({ handId: p.handId, blind: true, startedAt: new Date(now).toISOString() });
    } catch (err) {
      this.ctx.deps.onHandEvent?.({
        kind: 'aborted',
        handId: p.handId,
        reason: err instanceof Error ? err.message : 'cannot deal',
      });
      if (engine.currentHandId !== null) engine.voidHand();
      this.blind.clear();
      return;
    }
    this.blind.dealt();
    this.started(
      hand,
      {
        handNo: p.handNo,
        serverSeed: '',
        seedCommit: '',
        clientSeeds: [],
        deckSeed: '',
        deck: engine.rules.deck,
        dealing: 'blind',
      },
      now,
    );
  }

  /** The hand's operations not yet turned into events go out now. */
  emitOperationsOfHand(): void {
    if (this.current === null || this.record === null) return;
    this.emitOperations(this.record.emitted);
  }

  /** The hand's operations from `from` on become events (hole cards only to their owner). */
  emitOperations(from: number): void {
    const hand = this.current;
    if (hand === null || this.record === null) return;
    this.ctx.events.push(operationEmissions(hand, from, this.ctx.tableId, (seat) => this.humanAt(hand, seat)));
    this.record.emitted = hand.operations.length;
  }

  private humanAt(hand: Hand, seat: number): string | undefined {
    const id = hand.setup.players.find((p) => p.seat === seat)?.id;
    return id !== undefined && this.seating.isHuman(id) ? id : undefined;
  }

  /**
   * The engine table takes the completed hand (stacks, who leaves with what); the hand takes its
   * number. The hand stays on the table until the next one begins.
   */
  finish(now: number): { hand: Hand; meta: HandMeta; left: ReturnType<Table['finishHand']>['left'] } {
    const hand = this.current!;
    const meta = this.record!;
    meta.endedAt = now;
    const { left } = this.ctx.engine.finishHand(hand);
    this.lastHandNo = meta.handNo;
    return { hand, meta, left };
  }

  /** The hand is void: it leaves the table (the engine's hand is voided by the caller). */
  clearHand(): void {
    this.current = null;
    this.record = null;
  }
}
