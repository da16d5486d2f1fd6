import type { Ack } from '@felt/protocol';
import type { Unsubscribe } from '../sdk/emitter.js';
import { CommandRefusedError } from '../sdk/errors.js';
import type { TableSession } from '../sdk/table-session.js';
import { systemTimers, type Timers } from '../sdk/timers.js';
import type { TurnInfo } from '../sdk/reducer.js';
import { chooseDecision, DEFAULT_BOT_STYLE, type BotStyle } from './simple-bot.js';

export interface TableBotOptions {
  /** Uniform [0, 1); inject a seeded one for reproducible play. */
  readonly random: () => number;
  readonly style?: BotStyle;
  /** Pause before each decision, ms. Default 0. */
  readonly thinkMs?: number;
  /** Send sit_in whenever the hero's seat is sitting out. Default true. */
  readonly autoSitIn?: boolean;
  readonly timers?: Timers;
}

/** One decision the bot sent and how it ended. */
export interface BotActionRecord {
  readonly handId: string;
  readonly action: string;
  /** ms from sending to its ack or its effect (own player_action), whichever came first; or to the refusal. */
  readonly ms: number;
  readonly outcome: 'acked' | 'refused' | 'failed';
  readonly code?: string;
}

/**
 * Plays the hero's seat of a {@link TableSession} with {@link chooseDecision}: acts on every turn,
 * sits back in when sat out, and records each decision's latency from send to ack or effect.
 */
export class TableBot {
  readonly actions: BotActionRecord[] = [];
  private readonly offs: Unsubscribe[] = [];
  private readonly timers: Timers;
  private sitInPending = false;
  private stopped = false;
  /** Stop sitting back in (the bot is leaving). */
  holdSeat = true;

  constructor(
    readonly session: TableSession,
    private readonly options: TableBotOptions,
  ) {
    this.timers = options.timers ?? systemTimers;
    this.offs.push(session.on('turn', (turn) => this.onTurn(turn)));
    if (options.autoSitIn ?? true) this.offs.push(session.on('view', () => this.maybeSitIn()));
    // A bot that takes over a seat in the middle of its turn answers that turn too.
    const pending = session.turn;
    if (pending !== null) this.onTurn(pending);
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.offs.splice(0)) off();
  }

  private maybeSitIn(): void {
    if (this.stopped || !this.holdSeat || this.sitInPending) return;
    const state = this.session.state;
    const seat = state?.hero?.seat;
    if (seat === undefined) return;
    const mine = state?.seats.find((s) => s.seat === seat);
    if (mine?.status !== 'sitting_out' || mine.stack === 0) return;
    this.sitInPending = true;
    this.session
      .sitIn({ post: true })
      .catch(() => undefined)
      .finally(() => {
        this.sitInPending = false;
      });
  }

  private onTurn(turn: TurnInfo): void {
    if (this.stopped) return;
    const go = (): void => {
      if (this.stopped || this.session.turn?.turnToken !== turn.turnToken) return;
      const decision = chooseDecision(
        turn.validActions,
        this.options.random,
        this.session.state?.hero?.cards ?? [],
        this.options.style ?? DEFAULT_BOT_STYLE,
      );
      const started = this.timers.now();
      // The decision's effect (our own player_action) may arrive before its ack; whichever comes first counts.
      let effectAt: number | undefined;
      const offEffect = this.session.on('event', (e) => {
        if (e.type === 'player_action' && e.hand_id === turn.handId && e.seat === turn.seat && effectAt === undefined) {
          effectAt = this.timers.now();
        }
      });
      const record = (outcome: BotActionRecord['outcome'], code?: string): void => {
        offEffect();
        const end =
          outcome === 'acked' && effectAt !== undefined ? Math.min(effectAt, this.timers.now()) : this.timers.now();
        this.actions.push({
          handId: turn.handId,
          action: decision.action,
          ms: end - started,
          outcome,
          ...(code !== undefined ? { code } : {}),
        });
      };
      this.session.act(decision).then(
        (_ack: Ack) => record('acked'),
        (err: unknown) => {
          if (err instanceof CommandRefusedError) record('refused', err.serverCode);
          else record('failed', err instanceof Error && 'code' in err ? String(err.code) : 'error');
        },
      );
    };
    const think = this.options.thinkMs ?? 0;
    if (think > 0) this.timers.setTimeout(go, think);
    else go();
  }
}
