import type { BetLimit, Stakes } from '../betting/structure.js';
import type { GameRules } from '../games/types.js';
import { Hand, type PlayerAction } from '../hand/hand.js';
import {
  standardForcedBets,
  type HandSetup,
  type HouseRules,
  type RakeConfig,
  type ShowdownOptions,
} from '../hand/setup.js';
import { bytesToHex, prepareDeck, toRevealRecord, type DeckCommitment, type RevealRecord } from '../fairness/index.js';
import {
  SeededRng,
  randomBetween,
  randomBytes,
  randomInt,
  randomUnit,
  randomUuid,
  shuffleInPlace,
  weightedIndex,
  type Rng,
} from '../rng.js';

/** Players per hand: a fixed count or a range drawn per hand. */
export type PlayerCount = number | { readonly min: number; readonly max: number };

export interface SimulationOptions {
  readonly rules: GameRules;
  readonly limit: BetLimit;
  readonly players: PlayerCount;
  readonly rake: boolean;
  /** Seed of this one hand; the same seed replays the same hand. */
  readonly seed: string;
  /** Base time for `startedAt`, so exports are reproducible (no ambient clock). */
  readonly startedAt?: string;
  /**
   * Draw random house rules, showdown options and raise caps for each hand (drawn after everything else,
   * so the hands of a seed are otherwise the same as without it).
   */
  readonly randomRules?: boolean;
}

export interface SimulatedHand {
  readonly seed: string;
  readonly hand: Hand;
  readonly commitment: DeckCommitment;
  /** The reveal record of the hand (docs/fairness.md), as `felt verify` checks it. */
  reveal(): RevealRecord;
}

const STAKES: readonly Stakes[] = [
  { smallBlind: 1, bigBlind: 2 },
  { smallBlind: 5, bigBlind: 10 },
  { smallBlind: 25, bigBlind: 50 },
  { smallBlind: 1, bigBlind: 3 },
  { smallBlind: 2, bigBlind: 5 },
];

/** Stud-family stakes: small bet, big bet, bring-in and ante, as [smallBet, bringIn, ante]. */
const STUD_STAKES: readonly (readonly [number, number, number])[] = [
  [2, 1, 1],
  [10, 3, 1],
  [50, 15, 5],
  [4, 2, 1],
  [6, 2, 0],
];

/** Random stakes for the game's forced-bet style. */
export function drawStakes(rng: Rng, rules: GameRules): Stakes {
  if (rules.forcedBets === 'bring_in') {
    const [smallBet, bringIn, ante] = STUD_STAKES[randomInt(rng, STUD_STAKES.length)]!;
    return { smallBlind: 0, bigBlind: 0, smallBet, bigBet: smallBet * 2, bringIn, ...(ante > 0 ? { ante } : {}) };
  }
  const base = STAKES[randomInt(rng, STAKES.length)]!;
  if (rules.forcedBets === 'button_blind') {
    // Short Deck: an ante from everyone and a button blind (one or two antes' worth of big blind).
    const ante = Math.max(1, Math.floor(base.bigBlind / 2));
    return { ...base, smallBlind: 0, ante, buttonBlind: randomUnit(rng) < 0.5 ? base.bigBlind : base.bigBlind * 2 };
  }
  const roll = randomUnit(rng);
  if (roll < 0.2) return { ...base, ante: Math.max(1, Math.floor(base.bigBlind / 4)) };
  if (roll < 0.35) return { ...base, bigBlindAnte: base.bigBlind };
  return base;
}

/** Stacks of varied depth, many of them short, so that all-ins and side pots are common. */
function drawStack(rng: Rng, bigBlind: number): number {
  const depth = weightedIndex(rng, [0.3, 0.4, 0.3]);
  const bbs =
    depth === 0 ? randomBetween(rng, 1, 20) : depth === 1 ? randomBetween(rng, 20, 100) : randomBetween(rng, 100, 400);
  // Odd amounts make odd chips and unequal all-in levels.
  return Math.max(1, bbs * bigBlind + randomBetween(rng, -Math.floor(bigBlind / 2), bigBlind));
}

function drawRake(rng: Rng, bigBlind: number): RakeConfig {
  const percent = [5, 2.5, 10, 4.5][randomInt(rng, 4)]!;
  const cap = [0, 3 * bigBlind, 10 * bigBlind, 1][randomInt(rng, 4)]!;
  const rake: RakeConfig = { percent, cap, noFlopNoDrop: randomUnit(rng) < 0.85 };
  return randomUnit(rng) < 0.5 ? { ...rake, headsUpPercent: 2.5 } : rake;
}

/** Random house rules, showdown options and raise cap (docs/engine.md), for the property tests. */
function drawRules(
  rng: Rng,
  limit: BetLimit,
): { houseRules: HouseRules; showdown: ShowdownOptions; raiseCap?: number | null } {
  const flip = (p = 0.5): boolean => randomUnit(rng) < p;
  const houseRules: HouseRules = {
    shortAllInBlind: flip() ? 'full_blind' : 'posted',
    oddChips: flip() ? 'one_each' : 'first_winner',
    studOpenPairBigBet: flip(0.7),
    limitHalfBetReopens: flip(),
  };
  const showdown: ShowdownOptions = {
    allowMuck: flip(0.8),
    showAllHands: flip(0.2),
    autoMuck: flip(0.7),
    lastAggressorShowsFirst: flip(0.7),
    allInMustShow: flip(0.7),
    contestedWinnerMustShow: flip(0.7),
  };
  const roll = randomUnit(rng);
  const raiseCap = roll < 0.4 ? undefined : roll < 0.6 ? null : randomBetween(rng, 1, limit === 'fl' ? 6 : 3);
  return { houseRules, showdown, ...(raiseCap !== undefined ? { raiseCap } : {}) };
}

/** Builds a random hand setup: fresh stacks, random seats and button, a provably fair deck. */
export function simulateSetup(opts: SimulationOptions, rng: Rng): { setup: HandSetup; commitment: DeckCommitment } {
  const { rules } = opts;
  const n =
    typeof opts.players === 'number'
      ? opts.players
      : randomBetween(rng, opts.players.min, Math.min(opts.players.max, rules.maxSeats));
  const seats = shuffleInPlace(
    rng,
    Array.from({ length: rules.maxSeats }, (_, i) => i + 1),
  )
    .slice(0, n)
    .sort((a, b) => a - b);
  const stakes = drawStakes(rng, rules);
  // The unit stacks are measured in: the big blind, or the small bet in the Stud family.
  const unit = rules.forcedBets === 'bring_in' ? stakes.smallBet! : stakes.bigBlind;
  const button = seats[randomInt(rng, seats.length)]!;
  const handId = randomUuid(rng);
  const serverSeed = randomBytes(rng, 32);
  // Half the hands carry client seeds from a random subset of seats: both proof cases occur.
  const clientSeeds =
    randomUnit(rng) < 0.5
      ? []
      : seats.filter(() => randomUnit(rng) < 0.5).map((seat) => ({ seat, seed: randomBytes(rng, 32) }));
  const { commitment, order } = prepareDeck({ handId, serverSeed, clientSeeds, kind: rules.deck });
  const stacks = seats.map(() => drawStack(rng, unit));
  const rake = opts.rake ? drawRake(rng, unit) : null;
  const drawn = opts.randomRules === true ? drawRules(rng, opts.limit) : null;
  const setup: HandSetup = {
    handId,
    game: rules.id,
    limit: opts.limit,
    stakes: drawn !== null && 'raiseCap' in drawn ? { ...stakes, raiseCap: drawn.raiseCap } : stakes,
    button,
    players: seats.map((seat, i) => ({
      seat,
      id: `player-${seat}`,
      name: `Seat ${seat}`,
      stack: stacks[i]!,
    })),
    forcedBets: standardForcedBets(rules, stakes, seats, button),
    deck: order,
    // Only draw games need the seed (to reshuffle); it costs a second derivation of the deck elsewhere.
    ...(rules.streets.some((st) => st.draw) ? { deckSeed: bytesToHex(commitment.deckSeed) } : {}),
    rake,
    ...(drawn !== null ? { houseRules: drawn.houseRules, showdown: drawn.showdown } : {}),
    ...(opts.startedAt !== undefined ? { startedAt: opts.startedAt } : {}),
    tableName: 'felt-sim',
  };
  return { setup, commitment };
}

/**
 * A random legal action, weighted toward calls and all-ins so that pots go multiway and stacks go in.
 * Returns null when nobody is to act.
 */
export function randomAction(hand: Hand, rng: Rng): PlayerAction | null {
  const va = hand.validActions();
  if (va === null) return null;
  if (va.discard !== null) {
    // Heavy drawing, so that six-handed triple draw reshuffles the discards now and then.
    const hole = [...hand.holeCards(va.seat)];
    const n = weightedIndex(rng, [0.12, 0.13, 0.2, 0.2, 0.15, 0.2].slice(0, va.discard.max + 1));
    return { type: 'discard', cards: shuffleInPlace(rng, hole).slice(0, n) };
  }
  const wager = va.bet ?? va.raise;
  const options: { action: PlayerAction; weight: number }[] = [];
  const wagerAction = (to: number): PlayerAction => (va.bet !== null ? { type: 'bet', to } : { type: 'raise', to });
  if (va.bringIn !== null) options.push({ action: { type: 'bring_in' }, weight: 0.75 });
  if (va.fold) options.push({ action: { type: 'fold' }, weight: 0.2 });
  if (va.check) options.push({ action: { type: 'check' }, weight: 0.45 });
  if (va.call !== null) options.push({ action: { type: 'call' }, weight: 0.45 });
  if (wager?.choices !== undefined) {
    for (const to of wager.choices) options.push({ action: wagerAction(to), weight: 0.14 });
  } else if (wager !== null) {
    options.push({ action: wagerAction(wager.min), weight: 0.12 });
    options.push({ action: wagerAction(randomBetween(rng, wager.min, wager.max)), weight: 0.1 });
    options.push({ action: wagerAction(wager.max), weight: 0.06 });
  }
  return options[
    weightedIndex(
      rng,
      options.map((o) => o.weight),
    )
  ]!.action;
}

/** Plays one random hand to the end. */
export function simulateHand(opts: SimulationOptions): SimulatedHand {
  const rng = new SeededRng(opts.seed);
  const { setup, commitment } = simulateSetup(opts, rng);
  const hand = new Hand(setup, { rules: opts.rules });
  playOut(hand, rng);
  // Now and then a player shows after the hand, as any player may.
  if (randomUnit(rng) < 0.1) {
    const seats = setup.players.map((p) => p.seat);
    const seat = seats[randomInt(rng, seats.length)]!;
    if (hand.canShow(seat)) hand.show(seat);
  }
  return {
    seed: opts.seed,
    hand,
    commitment,
    reveal: () => toRevealRecord(commitment, opts.rules.id, hand.dealtCards(), hand.reshuffles()),
  };
}

/** Drives a hand to completion with random actions; a few timeouts are taken as the table would. */
export function playOut(hand: Hand, rng: Rng): void {
  let guard = 0;
  while (!hand.isComplete) {
    if (++guard > 10_000) throw new Error(`hand ${hand.handId} does not terminate`);
    const seat = hand.actor;
    if (seat === null) throw new Error(`hand ${hand.handId} is stuck in phase ${hand.phase} with no actor`);
    if (randomUnit(rng) < 0.02) {
      hand.applyTimeout();
      continue;
    }
    const action = randomAction(hand, rng)!;
    hand.act(seat, action);
  }
}
