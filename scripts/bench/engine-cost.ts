/*
 * The anchor of the cost benches: the engine's CPU per hand, alone and in this process, for the game
 * the load plays (6-max no-limit hold'em, no rake), hand by hand as felt-sim plays them
 * (packages/engine/src/cli/felt-sim.ts, `--format jsonl`): deal a hand from its seed, play it out
 * with random legal actions and settle it, check its properties (checkHandProperties), and build its
 * history as felt-sim's JSON line.
 *
 * felt-sim's file write is left out: it is I/O, not the engine, and the noisiest part by far (from
 * 0.05 to 0.3 ms a hand here, with the disk's mood). So is the CLI's start-up (about 2 s of CPU,
 * mostly building the evaluator's tables), which a whole `felt-sim` run divides among its hands.
 */
import { checkHandProperties, getGameRules, simulateHand } from '@felt/engine';
import { median } from './measure.js';
import { ownCpuSeconds } from './proc-cpu.js';

export interface EngineCost {
  /** CPU milliseconds per hand, the median of the rounds. */
  readonly msPerHand: number;
  /** Player decisions per hand (fold, check, call, bet, raise), for comparing with the load's hands. */
  readonly actionsPerHand: number;
  /** Bytes of history (the JSON line) per hand. */
  readonly historyBytes: number;
  readonly hands: number;
  readonly rounds: number;
}

const DECISIONS: ReadonlySet<string> = new Set(['fold', 'check', 'call', 'bet', 'raise']);
const STARTED_AT = '2026-01-01T00:00:00Z';

/**
 * `rounds` of `hands` hands after `warmup` hands: the first few thousand hands cost up to five times
 * as much (the JIT compiling, on threads this process's CPU time counts too), so the warm-up is long.
 */
export function engineCpuPerHand(hands: number, players: number, rounds = 5, warmup = 6000): EngineCost {
  const rules = getGameRules('holdem');
  let decisions = 0;
  let bytes = 0;
  let violations = 0;
  const play = (seed: string): void => {
    const { hand } = simulateHand({ rules, limit: 'nl', players, rake: false, seed, startedAt: STARTED_AT });
    violations += checkHandProperties(hand).length;
    bytes += `${JSON.stringify({ seed, hand: hand.toJSON(), settlement: hand.settlement })}\n`.length;
    for (const op of hand.operations) if (DECISIONS.has(op.type)) decisions++;
  };
  for (let i = 0; i < warmup; i++) play(`felt-bench-warmup/${i}`);
  decisions = 0;
  bytes = 0;
  const perHand: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = ownCpuSeconds();
    for (let i = 0; i < hands; i++) play(`felt-bench/${r}/${i}`);
    perHand.push(((ownCpuSeconds() - start) * 1000) / hands);
  }
  if (violations > 0) throw new Error(`the engine broke its hand properties in ${violations} hands`);
  const played = hands * rounds;
  return {
    msPerHand: median(perHand),
    actionsPerHand: decisions / played,
    historyBytes: bytes / played,
    hands,
    rounds,
  };
}
