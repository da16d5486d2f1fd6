import type { BetLimit } from '../betting/structure.js';
import type { GameRules } from '../games/types.js';
import type { Hand } from '../hand/hand.js';
import { isDeadForcedBet } from '../hand/setup.js';
import { simulateHand, type PlayerCount } from './simulate.js';

/**
 * The pot subsystem's three properties, checked from the operation log alone (not from the pot manager's
 * state), so that a defect in the engine's own bookkeeping cannot hide itself:
 *
 * - conservation: chips at the end plus rake equal chips at the start;
 * - membership: every winner was dealt in, never folded and contributed; every never-folded contributor
 *   is eligible for the main pot;
 * - per-level amounts: each pot holds exactly the chips bet at its levels, and pays exactly that.
 *
 * Plus one more the soak gets for free: each contested pot goes to the best hand(s) among its contenders.
 * And the rake: the decided amount from the contested total, taken from the winners in
 * proportion (every share pays the floor or the ceiling of its quota, never below 0 nor above its gross),
 * so no pot's rake and no player's rake paid is negative. And no bet, raise or completion was made
 * when no opponent still in the hand could put in more than the current bet ({@link checkAnswerable}).
 */
export const SoakProperty = {
  CONSERVATION: 'conservation',
  MEMBERSHIP: 'membership',
  LEVELS: 'levels',
  WINNERS: 'winners',
  RAKE: 'rake',
  /** Every bet, raise or completion could be answered by an opponent still in the hand. */
  ANSWERABLE: 'answerable',
  TERMINATION: 'termination',
  ERROR: 'error',
} as const;
export type SoakProperty = (typeof SoakProperty)[keyof typeof SoakProperty];

export interface PropertyViolation {
  readonly property: SoakProperty;
  readonly message: string;
}

interface Ledger {
  live: number;
  dead: number;
  folded: boolean;
  start: number;
}

/**
 * Replays the operation log's chips (posts, bring-ins, calls, bets, raises, returns, folds) and checks
 * that every bet or raise was made while some other player still in the hand could put in more than the
 * bet then to call. The bet to call is recomputed here: the highest bet of the round, and on the first
 * street at least the nominal big blind (or button blind, or bring-in) under the `full_blind` house rule.
 */
export function checkAnswerable(hand: Hand): PropertyViolation[] {
  const out: PropertyViolation[] = [];
  const stack = new Map<number, number>();
  const bet = new Map<number, number>();
  const folded = new Set<number>();
  for (const p of hand.setup.players) {
    stack.set(p.seat, p.stack);
    bet.set(p.seat, 0);
  }
  const fullBlind = hand.houseRules.shortAllInBlind === 'full_blind';
  let nominal = 0;
  for (const fb of hand.setup.forcedBets) {
    if (fullBlind && (fb.kind === 'big_blind' || fb.kind === 'button_blind')) nominal = Math.max(nominal, fb.amount);
  }
  let dealt = false;
  let toCall = 0;
  const maxBet = (): number => Math.max(0, ...bet.values());
  for (const op of hand.operations) {
    switch (op.type) {
      case 'post':
        stack.set(op.seat, stack.get(op.seat)! - op.amount);
        if (op.kind !== 'ante' && !isDeadForcedBet(op.kind)) bet.set(op.seat, bet.get(op.seat)! + op.amount);
        break;
      case 'street':
        if (op.street > 0) for (const seat of bet.keys()) bet.set(seat, 0);
        toCall = op.street === 0 ? Math.max(maxBet(), nominal) : maxBet();
        dealt = true;
        break;
      case 'return':
        stack.set(op.seat, stack.get(op.seat)! + op.amount);
        // Before the first round opens a return is the ante round's excess, which was never a bet.
        if (dealt) bet.set(op.seat, Math.max(0, bet.get(op.seat)! - op.amount));
        break;
      case 'bring_in':
        stack.set(op.seat, stack.get(op.seat)! - op.amount);
        bet.set(op.seat, bet.get(op.seat)! + op.amount);
        // A short bring-in is still called in full (the house rule is about blinds).
        toCall = Math.max(toCall, hand.structure.bringIn);
        break;
      case 'call':
        stack.set(op.seat, stack.get(op.seat)! - op.amount);
        bet.set(op.seat, bet.get(op.seat)! + op.amount);
        break;
      case 'bet':
      case 'raise': {
        const answerable = [...bet.keys()].some(
          (seat) => seat !== op.seat && !folded.has(seat) && bet.get(seat)! + stack.get(seat)! > toCall,
        );
        if (!answerable) {
          out.push({
            property: 'answerable',
            message: `seat ${op.seat} made a ${op.type} to ${op.to} that no opponent could answer (bet to call ${toCall})`,
          });
        }
        stack.set(op.seat, stack.get(op.seat)! - op.amount);
        bet.set(op.seat, op.to);
        toCall = Math.max(toCall, op.to);
        break;
      }
      case 'fold':
        folded.add(op.seat);
        break;
      default:
        break;
    }
  }
  return out;
}

export function checkHandProperties(hand: Hand): PropertyViolation[] {
  const out: PropertyViolation[] = [];
  const fail = (property: SoakProperty, message: string): void => {
    out.push({ property, message });
  };
  if (!hand.isComplete) {
    fail('termination', `hand ended in phase ${hand.phase}`);
    return out;
  }
  out.push(...checkAnswerable(hand));
  const ledger = new Map<number, Ledger>();
  for (const p of hand.setup.players) ledger.set(p.seat, { live: 0, dead: 0, folded: false, start: p.stack });
  const paid = new Map<number, number>();
  let rake = 0;
  let finalStacks: Map<number, number> | null = null;
  const awards: { pot: number; amount: number; rake: number; winners: { seat: number; amount: number }[] }[] = [];
  for (const op of hand.operations) {
    switch (op.type) {
      case 'post': {
        const l = ledger.get(op.seat)!;
        if (isDeadForcedBet(op.kind)) l.dead += op.amount;
        else l.live += op.amount;
        break;
      }
      case 'call':
      case 'bet':
      case 'raise':
      case 'bring_in':
        ledger.get(op.seat)!.live += op.amount;
        break;
      case 'return':
        ledger.get(op.seat)!.live -= op.amount;
        break;
      case 'fold':
        ledger.get(op.seat)!.folded = true;
        break;
      case 'award':
        awards.push({ pot: op.pot, amount: op.amount, rake: op.rake, winners: op.winners.map((w) => ({ ...w })) });
        for (const w of op.winners) paid.set(w.seat, (paid.get(w.seat) ?? 0) + w.amount);
        break;
      case 'hand_end':
        rake = op.rake;
        finalStacks = new Map(op.stacks.map((s) => [s.seat, s.stack]));
        break;
      default:
        break;
    }
  }
  if (finalStacks === null) {
    fail('termination', 'no hand_end record');
    return out;
  }

  // Conservation, at the table and per player.
  let before = 0;
  let after = 0;
  for (const [seat, l] of ledger) {
    before += l.start;
    const fin = finalStacks.get(seat) ?? NaN;
    after += fin;
    const expected = l.start - l.live - l.dead + (paid.get(seat) ?? 0);
    if (fin !== expected) fail('conservation', `seat ${seat} ends with ${fin}, its ledger says ${expected}`);
    if (fin < 0 || !Number.isSafeInteger(fin)) fail('conservation', `seat ${seat} ends with ${fin} chips`);
  }
  if (before !== after + rake) fail('conservation', `start ${before} != end ${after} + rake ${rake}`);
  let awardRake = 0;
  for (const a of awards) awardRake += a.rake;
  if (awardRake !== rake) fail('conservation', `pot rakes ${awardRake} != hand rake ${rake}`);

  // Per-level amounts, recomputed from the contributions.
  const allInLevels = new Set<number>();
  let top = 0;
  let dead = 0;
  for (const l of ledger.values()) {
    top = Math.max(top, l.live);
    dead += l.dead;
    if (!l.folded && l.start === l.live + l.dead && l.live > 0) allInLevels.add(l.live);
  }
  const levels = [...allInLevels].filter((x) => x < top).sort((a, b) => a - b);
  // Nothing left in the middle (a Stud bring-in without antes that nobody called) forms no pot at all.
  if (top > 0 || dead > 0) levels.push(top);
  const expectedPots: { amount: number; eligible: number[] }[] = [];
  let prev = 0;
  for (const level of levels) {
    let amount = 0;
    const eligible: number[] = [];
    for (const [seat, l] of ledger) {
      amount += Math.max(0, Math.min(l.live, level) - prev);
      if (!l.folded && l.live >= level) eligible.push(seat);
    }
    expectedPots.push({ amount, eligible: eligible.sort((a, b) => a - b) });
    prev = level;
  }
  if (expectedPots[0] !== undefined) expectedPots[0].amount += dead;
  const settlement = hand.settlement!;
  if (settlement.pots.length !== expectedPots.length || awards.length !== expectedPots.length) {
    fail('levels', `expected ${expectedPots.length} pots, got ${settlement.pots.length} (${awards.length} awards)`);
  } else {
    expectedPots.forEach((e, i) => {
      const pot = settlement.pots[i]!;
      const award = awards[i]!;
      if (pot.amount !== e.amount || award.amount !== e.amount) {
        fail('levels', `pot ${i} holds ${pot.amount} (award ${award.amount}), its level holds ${e.amount}`);
      }
      if (pot.eligible.join(',') !== e.eligible.join(',')) {
        fail('levels', `pot ${i} eligible [${pot.eligible.join(',')}], its level has [${e.eligible.join(',')}]`);
      }
      let net = 0;
      for (const w of award.winners) net += w.amount;
      if (net + award.rake !== award.amount) {
        fail('levels', `pot ${i} pays ${net} + rake ${award.rake}, holds ${award.amount}`);
      }
    });
  }

  // Rake: decided once from the contested total, taken from the shares in proportion, never below zero.
  for (const a of awards) {
    if (!Number.isSafeInteger(a.rake) || a.rake < 0) fail('rake', `pot ${a.pot} is raked ${a.rake}`);
    for (const w of a.winners) {
      if (!Number.isSafeInteger(w.amount) || w.amount < 0) fail('rake', `pot ${a.pot} pays seat ${w.seat} ${w.amount}`);
    }
  }
  const decided = settlement.rake;
  if (decided.amount !== rake) fail('rake', `settlement rake ${decided.amount} != hand_end rake ${rake}`);
  let contested = 0;
  for (const pot of settlement.pots) contested += pot.amount;
  if (decided.contested !== contested) fail('rake', `rake taken from ${decided.contested}, the pots hold ${contested}`);
  if (decided.rule === 'standard' || decided.rule === 'heads_up') {
    const raw = Number((BigInt(contested) * BigInt(decided.bps)) / 10000n);
    const cap = hand.setup.rake?.cap ?? 0;
    const expected = cap > 0 && raw > cap ? cap : raw;
    if (decided.amount !== expected)
      fail('rake', `rake ${decided.amount}, ${decided.bps} bps of ${contested} is ${expected}`);
  } else if (decided.amount !== 0) fail('rake', `rule ${decided.rule} takes ${decided.amount}`);
  let sharesRake = 0;
  for (const pot of settlement.pots) {
    let potRake = 0;
    for (const w of pot.winners) {
      const paid = w.gross - w.net;
      potRake += paid;
      if (!Number.isSafeInteger(paid) || paid < 0 || paid > w.gross) {
        fail('rake', `pot ${pot.index} share of seat ${w.seat}: gross ${w.gross}, net ${w.net}`);
        continue;
      }
      // In proportion: floor or ceiling of rake * gross / contested.
      if (contested > 0) {
        const quota = BigInt(rake) * BigInt(w.gross);
        const floor = quota / BigInt(contested);
        const exact = quota % BigInt(contested) === 0n;
        if (BigInt(paid) !== floor && (exact || BigInt(paid) !== floor + 1n)) {
          fail('rake', `pot ${pot.index} seat ${w.seat} pays ${paid} of a ${rake} x ${w.gross} / ${contested} quota`);
        }
      }
    }
    if (pot.rake !== potRake || pot.rake < 0)
      fail('rake', `pot ${pot.index} reports rake ${pot.rake}, its shares ${potRake}`);
    sharesRake += potRake;
  }
  if (sharesRake !== rake) fail('rake', `shares pay ${sharesRake} rake, the hand ${rake}`);
  let rakePaid = 0;
  for (const p of settlement.players) {
    if (!Number.isSafeInteger(p.rakePaid) || p.rakePaid < 0) fail('rake', `seat ${p.seat} paid rake ${p.rakePaid}`);
    rakePaid += p.rakePaid;
  }
  if (rakePaid !== rake) fail('rake', `players paid ${rakePaid} rake, the hand ${rake}`);

  // Membership.
  for (const a of awards) {
    for (const w of a.winners) {
      const l = ledger.get(w.seat);
      if (l === undefined) fail('membership', `pot ${a.pot} pays seat ${w.seat}, which was not dealt in`);
      else if (l.folded) fail('membership', `pot ${a.pot} pays seat ${w.seat}, which folded`);
      else if (l.live + l.dead === 0) fail('membership', `pot ${a.pot} pays seat ${w.seat}, which put nothing in`);
      const pot = settlement.pots[a.pot];
      if (pot !== undefined && !pot.eligible.includes(w.seat)) {
        fail('membership', `pot ${a.pot} pays seat ${w.seat}, outside its eligible seats`);
      }
    }
  }
  const main = settlement.pots[0];
  for (const [seat, l] of ledger) {
    if (!l.folded && l.live > 0 && main !== undefined && !main.eligible.includes(seat)) {
      fail('membership', `live contributor seat ${seat} is not eligible for the main pot`);
    }
  }

  // Winners: the best hand among each contested pot's contenders.
  if (settlement.showdown) {
    const values = new Map(settlement.hands.map((h) => [h.seat, h.values]));
    const sideIndex = new Map(hand.rules.showdown.map((side, i) => [side.kind, i] as const));
    for (const pot of settlement.pots) {
      if (!pot.contested) continue;
      const sides = new Set(pot.winners.map((w) => w.side));
      // A pot with a qualifying low among its contenders must be split; without one, high scoops it.
      const lowIndex = hand.rules.showdown.length > 1 ? sideIndex.get('low') : undefined;
      if (lowIndex !== undefined) {
        const anyLow = pot.eligible.some((seat) => (values.get(seat)?.[lowIndex] ?? null) !== null);
        if (anyLow !== sides.has('low')) fail('winners', `pot ${pot.index} low half: ${anyLow ? 'missing' : 'unowed'}`);
      }
      for (const side of sides) {
        const index = sideIndex.get(side === 'uncontested' ? 'high' : side) ?? 0;
        let best: number | null = null;
        for (const seat of pot.eligible) {
          const v = values.get(seat)?.[index] ?? null;
          if (v !== null && (best === null || v > best)) best = v;
        }
        const expected = pot.eligible.filter((s) => (values.get(s)?.[index] ?? null) === best).join(',');
        const actual = pot.winners
          .filter((w) => w.side === side)
          .map((w) => w.seat)
          .sort((a, b) => a - b)
          .join(',');
        if (expected !== actual) fail('winners', `pot ${pot.index} ${side} paid [${actual}], best hands [${expected}]`);
      }
    }
  }
  return out;
}

export interface SoakOptions {
  readonly rules: GameRules;
  /** One structure for every hand, or several that hand `i` takes in turn (`limits[i % length]`). */
  readonly limit: BetLimit | readonly BetLimit[];
  readonly hands: number;
  readonly seed: string;
  readonly rake: boolean;
  readonly players?: PlayerCount;
  /** Called after each hand (e.g. to add a restore check). */
  readonly onHand?: (hand: Hand, seed: string) => PropertyViolation[] | void;
}

export interface SoakFailure {
  /** Replays the failing hand: `simulateHand({ ..., seed })`. */
  readonly seed: string;
  readonly handIndex: number;
  readonly violations: readonly PropertyViolation[];
}

export interface SoakReport {
  readonly hands: number;
  readonly failures: readonly SoakFailure[];
  readonly showdowns: number;
  readonly allInHands: number;
  readonly multiwayPots: number;
  readonly sidePotHands: number;
  readonly rakeTotal: number;
}

/**
 * Plays `hands` seeded random hands and checks every property after each one. Hand `i` uses the seed
 * `${seed}/${i}`, which every failure reports, so one failing hand reproduces on its own.
 */
export function runSoak(opts: SoakOptions): SoakReport {
  const failures: SoakFailure[] = [];
  let showdowns = 0;
  let allInHands = 0;
  let multiwayPots = 0;
  let sidePotHands = 0;
  let rakeTotal = 0;
  for (let i = 0; i < opts.hands; i++) {
    const seed = `${opts.seed}/${i}`;
    try {
      const limits = typeof opts.limit === 'string' ? [opts.limit] : opts.limit;
      const { hand } = simulateHand({
        rules: opts.rules,
        limit: limits[i % limits.length]!,
        players: opts.players ?? { min: 2, max: opts.rules.maxSeats },
        rake: opts.rake,
        seed,
      });
      const violations = [...checkHandProperties(hand), ...(opts.onHand?.(hand, seed) ?? [])];
      if (violations.length > 0) failures.push({ seed, handIndex: i, violations });
      const s = hand.settlement;
      if (s !== null) {
        if (s.showdown) showdowns++;
        if (s.pots.length > 1) sidePotHands++;
        for (const pot of s.pots) if (pot.eligible.length > 2) multiwayPots++;
        rakeTotal += s.rake.amount;
      }
      if (
        hand.operations.some(
          (op) =>
            (op.type === 'call' || op.type === 'bet' || op.type === 'raise' || op.type === 'bring_in') && op.allIn,
        )
      ) {
        allInHands++;
      }
    } catch (e) {
      failures.push({
        seed,
        handIndex: i,
        violations: [{ property: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }],
      });
    }
  }
  return { hands: opts.hands, failures, showdowns, allInHands, multiwayPots, sidePotHands, rakeTotal };
}
