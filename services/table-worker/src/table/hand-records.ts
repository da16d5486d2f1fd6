import type { Hand } from '@felt/engine';
import { completedHandJobSchema, HAND_RECORD_FORMAT, type CompletedHandJob, type VoidedHandJob } from '@felt/platform';
import { HandVoidReason } from '@felt/protocol';
import type { BlindFailure } from '@felt/blind';
import type { AppliedTopUp } from '../money/table-money.js';
import { failureView } from './blind-dealing.js';
import { revealRecord, type Dealer, type HandMeta, type RevealRecord } from './dealer.js';
import { ALL, shownSeats } from './emissions.js';
import type { SeatedPlayer, Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TurnClock } from './turn-clock.js';

/**
 * The `hand.completed` job for the hands queue (docs/dev/money-flows.md §1): the hand, its
 * settlement and reveal, the seats, and every top-up added since the last report.
 */
function completedHandJob(
  roomId: string,
  hand: Hand,
  meta: HandMeta,
  reveal: RevealRecord | null,
  topUps: readonly AppliedTopUp[],
  now: number,
): CompletedHandJob {
  const json = JSON.parse(JSON.stringify(hand.toJSON())) as CompletedHandJob['payload']['hand'];
  const job = {
    hand_id: hand.handId,
    room_id: roomId,
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
      ...(reveal !== null ? { reveal } : {}),
      seats: meta.seats.map((s) => ({
        seat: s.seat,
        user_id: s.userId,
        name: s.name.slice(0, 64),
        starting_stack: s.startingStack,
        bot: s.bot,
      })),
      // Every top-up added since the last report, all seats (docs/dev/money-flows.md §2).
      top_ups: topUps,
    },
  };
  // A record that does not match the contract must fail here, loudly, not in the persister.
  return completedHandJobSchema.parse(job);
}

/** What is known of a voided hand beyond its id and players. */
interface VoidDetails {
  readonly game?: string;
  readonly limit?: string;
  readonly handNo?: number;
  readonly startedAt?: number;
}

/** The `hand.voided` job (docs/dev/money-flows.md §1b): hand-start stacks, no result. */
function voidedHandJob(
  roomId: string,
  handId: string,
  reason: HandVoidReason,
  players: readonly SeatedPlayer[],
  known: VoidDetails,
  now: number,
): VoidedHandJob {
  return {
    kind: 'voided',
    hand_id: handId,
    room_id: roomId,
    ...(known.handNo !== undefined ? { hand_no: known.handNo } : {}),
    reason,
    ...(known.game !== undefined ? { game: known.game } : {}),
    ...(known.limit !== undefined ? { limit: known.limit } : {}),
    ...(known.startedAt !== undefined ? { started_at: new Date(known.startedAt).toISOString() } : {}),
    voided_at: new Date(now).toISOString(),
    players: players.map((p) => ({ seat: p.seat, user_id: p.userId, name: p.name.slice(0, 64), stack: p.stack })),
  };
}

/**
 * How each hand ends up on record: a completed hand's result and reveal go to everyone and its
 * record into the outbox; a void is announced (`hand_voided`) and recorded as a void, so that the
 * ledger records no result (docs/dev/money-flows.md §1, §1b).
 */
export class HandRecords {
  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly dealer: Dealer,
    private readonly clock: TurnClock,
  ) {}

  /** hand_result and seed_reveal to everyone, then the record into the outbox. */
  completed(hand: Hand, meta: HandMeta, now: number): void {
    const { events, tableId } = this.ctx;
    const settlement = hand.settlement!;
    const shown = shownSeats(hand);
    events.emit(ALL, {
      type: 'hand_result',
      table_id: tableId,
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
    // An engine-blind hand has no seed to reveal: its transcript was checked step by step.
    const reveal = meta.dealing === 'blind' ? null : revealRecord(hand, meta);
    if (reveal !== null) {
      events.emit(ALL, {
        type: 'seed_reveal',
        table_id: tableId,
        hand_id: hand.handId,
        hand_seq: hand.operations.length,
        reveal,
      });
    }
    // The record first, then the cash-outs of the players it let go (their last hand is this one).
    // A tournament's hands move tournament chips, which no ledger holds: the director gets the
    // table's report instead (tournament-table.ts), and the record is not persisted yet.
    if (this.ctx.tournament) return;
    const job = completedHandJob(tableId, hand, meta, reveal, this.ctx.money.takeAllUnreported(), now);
    this.ctx.outbox.push({ kind: 'hand', job });
  }

  /**
   * Voids the hand in progress: stacks stay at their hand-start values. Everyone at the table is
   * told (`hand_voided`), and the void goes to the hands queue so that the ledger records a void
   * rather than a result (docs/dev/money-flows.md). The hand takes no number.
   */
  voidHand(reason: HandVoidReason, now: number, detail?: string, blindFailure?: BlindFailure): void {
    const { engine } = this.ctx;
    const hand = this.dealer.liveHand;
    const meta = this.dealer.meta;
    // An engine-blind hand that failed before the engine dealt it: no chip moved yet.
    const announced = this.dealer.blind.pending;
    const id = engine.currentHandId ?? hand?.handId ?? meta?.handId ?? announced?.handId ?? null;
    // The hand-start stacks: the record's, else the hand's setup (the engine moves no chips before
    // the hand is finished, so these are also the seats' stacks after the void).
    const players =
      meta?.seats.map((s) => ({ seat: s.seat, userId: s.userId, name: s.name, stack: s.startingStack })) ??
      hand?.setup.players.map((p) => ({
        seat: p.seat,
        userId: p.id,
        name: this.seating.member(p.id)?.name ?? p.name ?? '',
        stack: p.stack,
      })) ??
      (announced !== null
        ? this.seating.seatedPlayers().filter((p) => announced.seats.includes(p.seat))
        : this.seating.seatedPlayers());
    if (engine.currentHandId !== null) engine.voidHand();
    this.dealer.clearHand();
    if (announced !== null) this.dealer.dropPending();
    this.clock.endTurn();
    if (id === null) return;
    this.ctx.deps.onHandEvent?.({
      kind: 'voided',
      handId: id,
      reason: detail !== undefined ? `${reason}: ${detail}` : reason,
    });
    this.announceVoid(
      id,
      reason,
      hand?.operations.length ?? 0,
      players,
      now,
      {
        ...(hand !== null ? { game: hand.setup.game, limit: hand.setup.limit } : {}),
        ...(meta !== null ? { handNo: meta.handNo, startedAt: meta.startedAt } : {}),
      },
      blindFailure,
    );
  }

  /**
   * A new owner found the table's checkpoint missing or corrupt while a hand was in progress: the
   * hand is void and the table restarted from the room rows, whose stacks are the hand-start ones.
   * Who was dealt in is lost with the checkpoint, so the void lists every seated player.
   */
  announceLostHand(handId: string, now: number): void {
    this.announceVoid(handId, HandVoidReason.CHECKPOINT_LOST, 0, this.seating.seatedPlayers(), now, {});
  }

  private announceVoid(
    handId: string,
    reason: HandVoidReason,
    handSeq: number,
    players: readonly SeatedPlayer[],
    now: number,
    known: VoidDetails,
    blindFailure?: BlindFailure,
  ): void {
    this.ctx.events.emit(ALL, {
      type: 'hand_voided',
      table_id: this.ctx.tableId,
      hand_id: handId,
      hand_seq: handSeq,
      reason,
      ...(blindFailure !== undefined ? { blind_failure: failureView(blindFailure) } : {}),
      stacks: players.map((p) => ({ seat: p.seat, stack: p.stack })).sort((a, b) => a.seat - b.seat),
    });
    const job = voidedHandJob(this.ctx.tableId, handId, reason, players, known, now);
    this.ctx.outbox.push({ kind: 'voided', job });
  }
}
