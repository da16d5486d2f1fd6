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
  type HandPlan,
  type Table,
} from '@felt/engine';
import type { VariantView } from '@felt/protocol';
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

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    state: DealerState,
  ) {
    this.current = state.hand;
    this.record = state.meta ? { ...state.meta } : null;
    this.pendingHand = state.pending ? { ...state.pending, clientSeeds: [...state.pending.clientSeeds] } : null;
    this.lastHandNo = state.handNo;
  }

  toJSON(): { hand: HandJSON | null; meta: HandMeta | null; pending: PendingHand | null; handNo: number } {
    return {
      hand: this.current ? this.current.toJSON() : null,
      meta: this.record,
      pending: this.pendingHand,
      handNo: this.lastHandNo,
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

  /** seed_commit: the hand id and the commitment, before the window opens and before any card. */
  announce(plan: HandPlan, now: number): void {
    const { deps, engine, timing } = this.ctx;
    // The finished hand stays on the table (show_cards) until this moment.
    this.current = null;
    this.record = null;
    const handId = deps.random.uuid();
    const serverSeed = deps.random.bytes(32);
    const commit = seedCommit(serverSeed);
    const humanSeats = plan.dealtIn.filter((seat) => {
      const id = engine.seat(seat)?.playerId;
      return id !== undefined && this.seating.isHuman(id) && this.seating.isConnected(id);
    });
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
    // The number is taken when the hand completes: a voided hand takes none.
    this.current = hand;
    this.record = {
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
        name: this.seating.member(pl.id)?.name ?? pl.name ?? '',
        startingStack: pl.stack,
        bot: this.seating.member(pl.id)?.bot === true,
      })),
      emitted: 0,
    };
    deps.onHandEvent?.({
      kind: 'started',
      handId: p.handId,
      handNo: p.handNo,
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
