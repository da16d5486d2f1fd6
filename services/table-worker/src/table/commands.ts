import { ActionError, type Card, type Hand, type PlayerAction } from '@felt/engine';
import { BlindRefusal, type BlindMessage, type ShuffleCheck } from '@felt/blind';
import {
  ErrorCode,
  NotAllowedReason,
  type ActionFrame,
  type BlindKeyFrame,
  type BlindSharesFrame,
  type BlindShuffleFrame,
  type ChatFrame,
  type TableCommandFrame,
} from '@felt/protocol';
import { tableClosed, TableError } from '../actor/table-error.js';
import type { TableChat } from './chat.js';
import type { Dealer } from './dealer.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TurnClock } from './turn-clock.js';

/**
 * A command a client sends to a table it is attached to (resync is the actor's, not the table's).
 * `chat` is named on its own until @felt/protocol's TableCommandFrame includes it (the gateway
 * forwards it from then on).
 */
export type ClientCommandFrame =
  Exclude<TableCommandFrame, { type: 'resync_request' | 'blind_shuffle' }> | ChatFrame | BlindFrame;

/**
 * An engine-blind frame as the table runs it. A shuffle carries the verdict of its proof, checked off
 * the event loop by the actor (`verified`); without one the table checks it itself.
 */
export type BlindFrame = BlindKeyFrame | BlindSharesFrame | (BlindShuffleFrame & { readonly verified?: boolean });

type BlindShuffle = Extract<BlindMessage, { kind: 'shuffle' }>;

/** The frame's values as @felt/blind's message. */
export function blindMessageOf(frame: BlindFrame): BlindMessage {
  switch (frame.type) {
    case 'blind_key':
      return { kind: 'key', proof: frame.proof };
    case 'blind_shuffle':
      return { kind: 'shuffle', output: frame.output, proof: frame.proof };
    case 'blind_shares':
      return {
        kind: 'shares',
        shares: frame.shares.map((s) => ({ position: s.position, share: { D: s.D, c: s.c, s: s.s } })),
      };
  }
}

/** What a command asks of the table as a whole once it has changed it. */
export interface TableRhythm {
  /** Brings the table to rest (plays out what is due, finishes a hand, schedules the next). */
  settle(now: number): void;
  /** Seats members and bots, between hands. */
  syncSeats(now: number): void;
  /** Announces the next hand (seed_commit). */
  beginHand(now: number): void;
}

const ENGINE_ERROR_AMOUNT = new Set(['amount_invalid', 'amount_too_small', 'amount_too_large']);

/**
 * Client commands (docs/protocol.md). Each is checked in full before it changes anything: it
 * throws TableError (a typed refusal, nothing changed) or applies completely.
 */
export class TableCommands {
  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly dealer: Dealer,
    private readonly clock: TurnClock,
    private readonly table: TableRhythm,
    private readonly chat: TableChat,
  ) {}

  run(userId: string, frame: ClientCommandFrame, now: number): void {
    if (this.ctx.lifecycle.closed) throw tableClosed(this.ctx.tableId);
    switch (frame.type) {
      case 'action':
        return this.act(userId, frame, now);
      case 'client_seed':
        return this.clientSeed(userId, frame.hand_id, frame.seed, now);
      case 'sit_in':
        return this.sitIn(userId, frame.post === true, now);
      case 'sit_out': {
        const seat = this.requireSeat(userId);
        this.notInTournament('sit out: the clock folds for you while you are away');
        this.ctx.engine.sitOut(seat);
        this.table.settle(now);
        return;
      }
      case 'leave':
        this.requireSeat(userId);
        this.notInTournament('leave a tournament table: you play until you are out');
        if (this.seating.isLeaving(userId)) return;
        this.seating.markLeaving(userId, now);
        this.table.settle(now);
        return;
      case 'start_hand':
        this.notInTournament('start a hand: the tournament director deals');
        return this.forceStart(userId, now);
      case 'show_cards':
        return this.showCards(userId, frame.hand_id);
      case 'chat':
        return this.chat.send(userId, frame.text, now);
      case 'blind_key':
      case 'blind_shuffle':
      case 'blind_shares':
        return this.blindMessage(userId, frame, now);
    }
  }

  /**
   * What a shuffle's proof must be checked against (the actor checks it off the event loop, then runs
   * the command with the verdict); throws TableError when the shuffle is not owed.
   */
  blindShuffleCheck(userId: string, frame: BlindShuffleFrame): ShuffleCheck {
    const seat = this.blindSeat(userId, frame.hand_id);
    return this.blindRefusal(() => this.dealer.blind.shuffleCheck(seat, blindMessageOf(frame) as BlindShuffle));
  }

  /**
   * An engine-blind key, shuffle or shares (docs/fairness.md, "Engine-blind dealing"). A message the
   * hand cannot take is refused and changes nothing; one whose proof fails fails the hand, which is
   * then void (the table's rhythm does that in `settle`).
   */
  private blindMessage(userId: string, frame: BlindFrame, now: number): void {
    const seat = this.blindSeat(userId, frame.hand_id);
    this.clock.thaw(now);
    const message = blindMessageOf(frame);
    const verified = frame.type === 'blind_shuffle' ? frame.verified : undefined;
    this.blindRefusal(() => this.dealer.blindMessage(seat, message, now, verified));
    this.seating.back(userId);
    this.table.settle(now);
  }

  private blindSeat(userId: string, handId: string): number {
    if (this.ctx.config.dealing !== 'engine_blind') {
      this.refuse(ErrorCode.NOT_ENGINE_BLIND, 'this table does not deal engine-blind hands');
    }
    const seat = this.requireSeat(userId);
    if (this.dealer.blind.seatsOf(handId) === null) {
      this.refuse(ErrorCode.STALE_HAND, 'that is not the engine-blind hand on the table');
    }
    return seat;
  }

  private blindRefusal<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof BlindRefusal) this.refuse(ErrorCode.BLIND_REFUSED, err.message, { reason: err.code });
      throw err;
    }
  }

  private refuse(
    code: ErrorCode,
    message: string,
    details: { reason?: string; min?: number; max?: number } = {},
  ): never {
    throw new TableError(code, message, this.ctx.tableId, details);
  }

  /** Refuses what a tournament's players may not do (the director owns seats and deals). */
  private notInTournament(what: string): void {
    if (this.ctx.tournament) {
      this.refuse(ErrorCode.NOT_ALLOWED, `at a tournament table you cannot ${what}`, {
        reason: NotAllowedReason.TOURNAMENT,
      });
    }
  }

  private requireSeat(userId: string): number {
    const seat = this.seating.seatOf(userId);
    if (seat === undefined || !this.seating.isHuman(userId))
      this.refuse(ErrorCode.NOT_SEATED, 'you have no seat at this table');
    return seat;
  }

  private act(userId: string, frame: ActionFrame, now: number): void {
    const seat = this.requireSeat(userId);
    const hand = this.dealer.liveHand;
    const current = hand?.handId ?? this.dealer.announcedHandId ?? undefined;
    if (current === undefined || frame.hand_id !== current) {
      this.refuse(ErrorCode.STALE_HAND, 'that is not the hand in progress');
    }
    const turn = this.clock.turn;
    if (hand === null || turn === null || turn.seat !== seat || hand.actor !== seat) {
      this.refuse(ErrorCode.NOT_YOUR_TURN, 'it is not your turn');
    }
    if (frame.turn_token !== turn.token) this.refuse(ErrorCode.STALE_TURN, 'that turn token is not the current one');
    this.clock.thaw(now);

    const action = this.toEngineAction(hand, frame);
    // The engine verifies the action before it changes anything: a refused one leaves the hand as
    // it was.
    try {
      hand.act(seat, action);
    } catch (err) {
      if (!(err instanceof ActionError)) throw err;
      this.refuseAction(err);
    }
    this.clock.acted(userId, now);
    this.seating.back(userId);
    this.table.settle(now);
  }

  private refuseAction(err: ActionError): never {
    if (ENGINE_ERROR_AMOUNT.has(err.code)) {
      this.refuse(ErrorCode.INVALID_AMOUNT, 'that amount is not allowed', {
        ...(err.details.min !== undefined ? { min: err.details.min } : {}),
        ...(err.details.max !== undefined ? { max: err.details.max } : {}),
      });
    }
    this.refuse(ErrorCode.ILLEGAL_ACTION, 'the rules do not allow that now', { reason: err.code });
  }

  private toEngineAction(hand: Hand, frame: ActionFrame): PlayerAction {
    const needAmount = (): number => {
      if (frame.amount === undefined) this.refuse(ErrorCode.INVALID_AMOUNT, `${frame.action} needs an amount`);
      return frame.amount;
    };
    switch (frame.action) {
      case 'fold':
        // At an engine-blind showdown, folding is mucking: the table cannot show cards it never held.
        return hand.validActions()?.showdown !== undefined ? { type: 'muck' } : { type: 'fold' };
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
    const p = this.dealer.pending;
    if (this.dealer.blind.seatsOf(handId) !== null) {
      this.refuse(ErrorCode.SEED_REFUSED, 'an engine-blind hand has no client seeds: its players shuffle the deck');
    }
    if (p === null || p.handId !== handId) {
      if (this.dealer.hand?.handId === handId) this.refuse(ErrorCode.SEED_REFUSED, 'the client-seed window is closed');
      this.refuse(ErrorCode.STALE_HAND, 'that is not the hand being dealt');
    }
    if (now > p.windowClosesAt && !this.clock.frozen) {
      this.refuse(ErrorCode.SEED_REFUSED, 'the client-seed window is closed');
    }
    if (!p.seats.includes(seat)) this.refuse(ErrorCode.SEED_REFUSED, 'your seat is not dealt into this hand');
    if (p.clientSeeds.some((s) => s.seat === seat)) this.refuse(ErrorCode.SEED_REFUSED, 'your seed is already in');
    if (this.dealer.addClientSeed(seat, seed)) this.dealer.deal(now);
    this.table.settle(now);
  }

  private sitIn(userId: string, post: boolean, now: number): void {
    const seat = this.requireSeat(userId);
    // A leave is final: the seat goes (and is cashed out) when the hand ends.
    if (this.seating.isLeaving(userId)) this.refuse(ErrorCode.NOT_SEATED, 'you are leaving this table');
    const s = this.ctx.engine.seat(seat)!;
    if (s.stack + s.pendingChips <= 0) this.refuse(ErrorCode.NO_CHIPS, 'you have no chips at this table');
    this.seating.back(userId);
    this.ctx.engine.sitIn(seat, { post });
    this.table.settle(now);
  }

  private forceStart(userId: string, now: number): void {
    const { engine, config } = this.ctx;
    if (userId !== this.seating.hostId || !config.startHand.hostMayForceStart) {
      this.refuse(ErrorCode.NOT_ALLOWED, 'only the host may start a hand here', { reason: NotAllowedReason.HOST_ONLY });
    }
    if (engine.currentHandId !== null || this.dealer.announced) {
      this.refuse(ErrorCode.CANNOT_START, 'a hand is on');
    }
    this.table.syncSeats(now);
    if (engine.planNextHand() === null) this.refuse(ErrorCode.CANNOT_START, 'fewer than two players are ready');
    this.table.beginHand(now);
    this.table.settle(now);
  }

  private showCards(userId: string, handId: string): void {
    const hand = this.dealer.hand;
    if (hand === null || hand.handId !== handId) this.refuse(ErrorCode.STALE_HAND, 'that hand is not on the table');
    if (!hand.isComplete) this.refuse(ErrorCode.CANNOT_SHOW, 'cards can be shown once the hand is over');
    if (hand.dealing === 'blind') {
      this.refuse(
        ErrorCode.CANNOT_SHOW,
        'the table never held your cards: show them with your own shares (blind_shares)',
      );
    }
    const seat = hand.setup.players.find((p) => p.id === userId)?.seat;
    if (seat === undefined || !hand.canShow(seat)) this.refuse(ErrorCode.CANNOT_SHOW, 'nothing of yours to show');
    const before = hand.operations.length;
    hand.show(seat);
    this.dealer.emitOperations(before);
  }
}
