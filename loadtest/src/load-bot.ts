import {
  CommandRefusedError,
  DEFAULT_BOT_STYLE,
  FeltSdkError,
  SdkErrorCode,
  chooseDecision,
  type TableSession,
  type TurnInfo,
  type Unsubscribe,
} from '@felt/client';
import type { Ack } from '@felt/protocol';
import type { ThinkRange } from './play-args.js';

/** One acked action: when it was sent and its ack, for the broadcast measurement. */
export interface AckedAction {
  readonly ack: Ack;
  /** When the action was sent (the runner's clock, ms). */
  readonly sentAt: number;
  readonly ackedAt: number;
  /** Sent inside the measured window. */
  readonly measured: boolean;
}

export interface LoadBotOptions {
  /** Uniform [0, 1); seeded, so a run's decisions and think times reproduce. */
  readonly random: () => number;
  readonly think: ThinkRange;
  /** The runner's clock, ms (performance.now). */
  readonly now: () => number;
  /** Whether an action sent now falls inside the measured window. */
  readonly measuring: () => boolean;
  readonly onAck: (acked: AckedAction) => void;
  /** An action that ended without an ack: `kind` is a short stable label. */
  readonly onError: (kind: string, err: unknown) => void;
  /** Buys back in (lobby top-up) once the seat has no chips left; resolves when the lobby accepted it. */
  readonly rebuy: () => Promise<void>;
}

/**
 * Plays one seat for the load runner. It decides with the SDK's {@link chooseDecision} (the same
 * choice as the SDK's TableBot) and differs from TableBot where a load test needs it to: a random
 * think time per decision, the action's own ack (with its at_table_seq) timed from the send, and a
 * rebuy when the seat is busted so that long runs keep their tables playing.
 */
export class LoadBot {
  private readonly offs: Unsubscribe[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private think: ThinkRange;
  private stopped = false;
  private sitInPending = false;
  /** A rebuy is in flight, or accepted and its chips not at the table yet. */
  private rebuying = false;
  private inFlight = 0;
  private idle: (() => void) | undefined;

  constructor(
    readonly session: TableSession,
    private readonly o: LoadBotOptions,
  ) {
    this.think = o.think;
    this.offs.push(session.on('turn', (turn) => this.onTurn(turn)));
    this.offs.push(session.on('view', () => this.onView()));
    const pending = session.turn;
    if (pending !== null) this.onTurn(pending);
  }

  /** Actions sent and not settled yet. */
  get pending(): number {
    return this.inFlight;
  }

  /** From now on, act at once: used to finish the hand in progress quickly when the run ends. */
  flatOut(): void {
    this.think = { minMs: 0, maxMs: 0 };
  }

  /** No more decisions; resolves when every action sent has settled. */
  stop(): Promise<void> {
    this.stopped = true;
    for (const off of this.offs.splice(0)) off();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle = resolve;
    });
  }

  private thinkMs(): number {
    const { minMs, maxMs } = this.think;
    return maxMs <= 0 ? 0 : minMs + Math.floor(this.o.random() * (maxMs - minMs + 1));
  }

  private onTurn(turn: TurnInfo): void {
    if (this.stopped) return;
    const delay = this.thinkMs();
    if (delay === 0) {
      this.act(turn);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.act(turn);
    }, delay);
    this.timers.add(timer);
  }

  private act(turn: TurnInfo): void {
    // The turn may be over already (the clock acted, a resync moved on): nothing to answer.
    if (this.stopped || this.session.turn?.turnToken !== turn.turnToken) return;
    const decision = chooseDecision(
      turn.validActions,
      this.o.random,
      this.session.state?.hero?.cards ?? [],
      DEFAULT_BOT_STYLE,
    );
    const measured = this.o.measuring();
    const sentAt = this.o.now();
    this.inFlight += 1;
    this.session
      .act(decision)
      .then(
        (ack) => this.o.onAck({ ack, sentAt, ackedAt: this.o.now(), measured }),
        (err: unknown) => this.o.onError(actionErrorKind(err), err),
      )
      .finally(() => {
        this.inFlight -= 1;
        if (this.inFlight === 0 && this.idle) this.idle();
      });
  }

  private onView(): void {
    if (this.stopped) return;
    const state = this.session.state;
    const seatNo = state?.hero?.seat;
    const seat = seatNo === undefined ? undefined : state?.seats.find((s) => s.seat === seatNo);
    if (!seat) return;
    if (seat.stack > 0) this.rebuying = false;
    if (seat.stack === 0 && !seat.in_hand && !this.rebuying) {
      this.rebuying = true;
      // The runner retries what can be retried and reports a final failure; the seat then stays out.
      this.o.rebuy().catch(() => undefined);
      return;
    }
    if (seat.status === 'sitting_out' && seat.stack > 0 && !this.sitInPending) {
      this.sitInPending = true;
      // A refusal here is a race with the table's own view of the seat (e.g. the chips of a rebuy not
      // added yet); the next view tries again.
      this.session
        .sitIn({ post: true })
        .catch(() => undefined)
        .finally(() => {
          this.sitInPending = false;
        });
    }
  }
}

/** A short stable label for an action that got no ack. */
export function actionErrorKind(err: unknown): string {
  if (err instanceof CommandRefusedError) return `action_refused_${err.serverCode}`;
  if (err instanceof FeltSdkError) {
    if (err.code === SdkErrorCode.COMMAND_TIMEOUT) return 'ack_timeout';
    return `action_${err.code}`;
  }
  return 'action_unexpected';
}
