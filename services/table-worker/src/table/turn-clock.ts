import { bytesToHex, type Hand } from '@felt/engine';
import type { BotSeats } from './bot-seats.js';
import type { Dealer } from './dealer.js';
import { ALL } from './emissions.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TimeBanks } from './time-banks.js';
import { validActionsView } from './valid-actions.js';

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

/** The clock's part of the checkpoint (LiveTableJSON's fields of the same names). */
export interface TurnClockJSON {
  readonly turn: TurnState | null;
  readonly nextHandAt: number | null;
  readonly noHumanSince: number | null;
  readonly frozenAt: number | null;
}

/**
 * Every deadline of the table, as absolute times on the injected clock: each turn's action clock
 * and time bank (with its warning and the timeout when it runs out), bots' think time, the pause
 * before the next hand, and the freeze when no human has been connected for a while (docs/protocol.md,
 * "Seats, disconnects and leaving"), which stops them all until a human is back.
 */
export class TurnClock {
  private current: TurnState | null;
  private nextHand: number | null;
  private noHuman: number | null;
  private frozenSince: number | null;

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly bots: BotSeats,
    private readonly dealer: Dealer,
    private readonly banks: TimeBanks,
    json: TurnClockJSON,
  ) {
    this.current = json.turn ? { ...json.turn } : null;
    this.nextHand = json.nextHandAt;
    this.noHuman = json.noHumanSince;
    this.frozenSince = json.frozenAt;
  }

  toJSON(): TurnClockJSON {
    return { turn: this.current, nextHandAt: this.nextHand, noHumanSince: this.noHuman, frozenAt: this.frozenSince };
  }

  get turn(): Readonly<TurnState> | null {
    return this.current;
  }

  /** When the next hand is due to begin (the pause after a hand), or null. */
  get nextHandAt(): number | null {
    return this.nextHand;
  }

  get frozen(): boolean {
    return this.frozenSince !== null;
  }

  // ------------------------------------------------------------------------------------------
  // Who is there

  /** A human connected: the table runs again (a frozen turn resumes with the time it had left). */
  humanConnected(now: number): void {
    this.noHuman = null;
    this.thaw(now);
  }

  /** Someone disconnected: if no human is left, the freeze delay starts now. */
  disconnected(now: number): void {
    if (!this.seating.humanConnected() && this.noHuman === null) this.noHuman = now;
  }

  /**
   * With the last human gone for freezeAfterMs, the hand, its clock and the bots wait (docs/protocol.md,
   * "Seats, disconnects and leaving"). Returns whether the table froze now.
   */
  freezeIfDeserted(now: number): boolean {
    if (
      this.frozenSince === null &&
      !this.seating.botsOnly &&
      // A tournament never waits for its absent players: the clock folds for them.
      !this.ctx.tournament &&
      !this.ctx.lifecycle.closing &&
      this.noHuman !== null &&
      now - this.noHuman >= this.ctx.timing.freezeAfterMs &&
      (this.dealer.liveHand !== null || this.dealer.announced)
    ) {
      this.frozenSince = now;
      return true;
    }
    return false;
  }

  /** Unfreezes, if frozen: every deadline moves by the time the table stood still. */
  thaw(now: number): void {
    if (this.frozenSince === null) return;
    const shift = now - this.frozenSince;
    this.frozenSince = null;
    // The turn resumes with the time it had left when the table froze.
    if (this.current) {
      this.current.deadline += shift;
      if (this.current.botAt !== null) this.current.botAt += shift;
    }
    this.dealer.shiftWindow(shift);
    this.dealer.blind.shift(shift);
    if (this.nextHand !== null) this.nextHand += shift;
  }

  // ------------------------------------------------------------------------------------------
  // The next hand

  /** A hand begins: no pause pending, no turn. */
  handStarting(): void {
    this.nextHand = null;
    this.current = null;
  }

  /** The pause before the next hand starts now. */
  startPause(now: number): void {
    this.nextHand = now + this.ctx.timing.handPauseMs;
  }

  /** After a hand: the pause, then the next one (if hands start by themselves here). */
  afterHand(now: number): void {
    this.nextHand = this.ctx.config.startHand.autoStart ? now + this.ctx.timing.handPauseMs : null;
  }

  cancelNextHand(): void {
    this.nextHand = null;
  }

  // ------------------------------------------------------------------------------------------
  // Turns

  /** The turn is over (acted, voided, or the hand finished). */
  endTurn(): void {
    this.current = null;
  }

  /** The player acted in time (or in their bank): what is left of the bank is theirs; the turn ends. */
  acted(userId: string, now: number): void {
    const turn = this.current!;
    this.banks.spend(userId, turn.bankAtStart, Math.max(0, now - turn.deadline));
    this.current = null;
  }

  /**
   * Plays out the decisions that are due at `now` in the hand in progress: bots whose think time
   * is over, the clock for a leaving player (at once) or one whose time ran out, and the warning
   * before that. Starts each next actor's turn (your_turn).
   */
  playDue(now: number): void {
    const { timing } = this.ctx;
    for (let guard = 0; guard < 1000; guard++) {
      const hand = this.dealer.liveHand;
      if (hand === null || this.frozenSince !== null) break;
      if (hand.actor === null) break;
      if (this.current === null || this.current.handId !== hand.handId) {
        this.beginTurn(hand, now);
        continue;
      }
      const t = this.current;
      const bot = this.seating.isBot(t.playerId);
      const expires = t.deadline + t.bankAtStart;
      if (this.seating.isLeaving(t.playerId) || (bot && this.seating.abandoned())) {
        this.timeout(hand, t, now, false);
        continue;
      }
      if (bot && t.botAt !== null && now >= t.botAt) {
        this.bots.decide(hand, t.seat);
        this.current = null;
        continue;
      }
      if (now >= expires) {
        this.timeout(hand, t, now, true);
        continue;
      }
      if (!t.warned && !bot && now >= expires - timing.warningMs) {
        t.warned = true;
        this.ctx.events.emit(ALL, {
          type: 'turn_warning',
          table_id: this.ctx.tableId,
          hand_id: hand.handId,
          hand_seq: hand.operations.length,
          seat: t.seat,
          expires_at: expires,
        });
      }
      break;
    }
  }

  private beginTurn(hand: Hand, now: number): void {
    const seat = hand.actor!;
    const playerId = hand.setup.players.find((p) => p.seat === seat)!.id;
    const bot = this.seating.isBot(playerId);
    const bank = bot ? 0 : this.banks.of(playerId);
    this.current = {
      handId: hand.handId,
      seat,
      playerId,
      token: bytesToHex(this.ctx.deps.random.bytes(16)),
      deadline: now + this.ctx.timing.actionMs,
      bankAtStart: bank,
      warned: false,
      botAt: bot ? this.bots.actsAt(now) : null,
    };
    // Events of the log so far go out before the turn, in the order they happened.
    this.dealer.emitOperationsOfHand();
    const valid = validActionsView(hand, seat);
    if (!bot && valid !== null) {
      this.ctx.events.emit(
        { kind: 'user', userId: playerId },
        {
          type: 'your_turn',
          table_id: this.ctx.tableId,
          hand_id: hand.handId,
          hand_seq: hand.operations.length,
          seat,
          turn_token: this.current.token,
          deadline: this.current.deadline,
          time_bank_ms: bank,
          valid_actions: valid,
        },
      );
    }
  }

  /** The clock acts (check if free, else fold). `clock`: the time ran out (not a leaving player). */
  private timeout(hand: Hand, t: TurnState, now: number, clock: boolean): void {
    hand.applyTimeout();
    if (clock && this.seating.isHuman(t.playerId)) {
      this.banks.spend(t.playerId, t.bankAtStart, Math.max(0, now - t.deadline));
      this.seating.markAway(t.playerId);
      this.ctx.deps.onHandEvent?.({ kind: 'timeout', handId: hand.handId, seat: t.seat });
    }
    this.current = null;
  }

  /** When the table next needs a tick, or null. */
  nextWakeAt(): number | null {
    const { lifecycle, timing } = this.ctx;
    if (lifecycle.closed) return null;
    const times: number[] = [];
    if (this.frozenSince === null) {
      const pending = this.dealer.pending;
      if (pending) times.push(pending.windowClosesAt);
      const blindDue = this.dealer.blind.deadline;
      if (blindDue !== null) times.push(blindDue);
      const t = this.current;
      if (t) {
        if (t.botAt !== null) times.push(t.botAt);
        const expires = t.deadline + t.bankAtStart;
        times.push(expires);
        if (!t.warned && this.seating.isHuman(t.playerId)) times.push(expires - timing.warningMs);
      }
      if (this.nextHand !== null) times.push(this.nextHand);
      // Bots that could not be funded are asked for again then.
      const retry = this.bots.retryAt;
      if (retry !== null) times.push(retry);
      if (
        !this.seating.botsOnly &&
        !lifecycle.closing &&
        this.noHuman !== null &&
        (this.dealer.liveHand !== null || this.dealer.announced)
      ) {
        times.push(this.noHuman + timing.freezeAfterMs);
      }
    }
    return times.length > 0 ? Math.min(...times) : null;
  }
}
