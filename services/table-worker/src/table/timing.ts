import type { BlindDeadlines } from '@felt/blind';
import type { RoomConfig } from '@felt/protocol';

/** Every timer of a table, in milliseconds. */
export interface TableTiming {
  /** The action clock of each turn. */
  readonly actionMs: number;
  /** Each seat's time bank, used up across hands after the action clock. */
  readonly timeBankMs: number;
  /** Added back to each dealt-in player's bank (up to a full one) every `refillEveryHands` hands; 0: never. */
  readonly timeBankRefillMs: number;
  readonly refillEveryHands: number;
  /** turn_warning goes out when this much is left before the clock acts. */
  readonly warningMs: number;
  /** The client-seed window after seed_commit (docs/fairness.md, "The derivation", step 4: 1.5 s). */
  readonly seedWindowMs: number;
  /** Between hand_result and the next hand (show_cards, reading the result). */
  readonly handPauseMs: number;
  /** A bot acts after about this long (±50 %). */
  readonly botThinkMs: number;
  /** With no human connected for this long, the table freezes its hand, clock and bots. */
  readonly freezeAfterMs: number;
  /** Engine-blind dealing: each step's deadline (a step still owed then voids the hand). */
  readonly blind: BlindDeadlines;
}

/**
 * Engine-blind deadlines: long enough for a phone to prove a shuffle (a few seconds at lambda 40)
 * and for a dropped player to reconnect and continue, short enough that a player who left does not
 * hold the table up for long.
 */
export const DEFAULT_BLIND_DEADLINES: BlindDeadlines = { keyMs: 10_000, shuffleMs: 20_000, shareMs: 10_000 };

/** Worker-wide timer settings (env); the clock's three values default to the room config's. */
export interface TimingOverrides {
  /** Multiplies the room's action clock, time bank and warning (tests shorten them). */
  readonly clockScale: number;
  readonly actionMs?: number | undefined;
  readonly timeBankMs?: number | undefined;
  readonly warningMs?: number | undefined;
  readonly seedWindowMs: number;
  readonly handPauseMs: number;
  readonly botThinkMs: number;
  readonly freezeAfterMs: number;
  readonly blind?: BlindDeadlines | undefined;
}

export const DEFAULT_TIMING_OVERRIDES: TimingOverrides = {
  clockScale: 1,
  seedWindowMs: 1500,
  handPauseMs: 3000,
  botThinkMs: 800,
  freezeAfterMs: 10_000,
};

export function resolveTiming(config: RoomConfig, o: TimingOverrides = DEFAULT_TIMING_OVERRIDES): TableTiming {
  const scaled = (seconds: number): number => Math.round(seconds * 1000 * o.clockScale);
  return {
    actionMs: o.actionMs ?? scaled(config.clock.actionSeconds),
    timeBankMs: o.timeBankMs ?? scaled(config.clock.timeBankSeconds),
    warningMs: o.warningMs ?? scaled(config.clock.warningSeconds),
    timeBankRefillMs: scaled(config.clock.refillSeconds),
    refillEveryHands: config.clock.refillEveryHands,
    seedWindowMs: o.seedWindowMs,
    handPauseMs: o.handPauseMs,
    botThinkMs: o.botThinkMs,
    freezeAfterMs: o.freezeAfterMs,
    blind: o.blind ?? DEFAULT_BLIND_DEADLINES,
  };
}
