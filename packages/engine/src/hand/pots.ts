import { ShowdownIntegrityCode, ShowdownIntegrityError } from '../errors.js';

/**
 * The pot subsystem (docs/engine.md, "Pots, rake, showdown"). Pots are formed when a betting round
 * ends, from that round's bets: an all-in caps the pot it is in, the pot closes, and chips above the
 * cap open a new pot that the all-in player has no claim on. Eligibility is maintained, never rebuilt:
 * a pot is born with the live players who reached its level, and a fold removes the folder from every
 * pot. Folded chips stay in the pots at the levels where they were bet (dead money per level).
 */

export interface Pot {
  /** Chips in the pot, dead money included. */
  amount: number;
  /** Live-contribution level the pot starts above (exclusive). */
  from: number;
  /** Live-contribution level the pot reaches (inclusive); grows while the pot is open. */
  to: number;
  /** Seats that can win the pot, ascending. */
  eligible: number[];
  /** Capped by an all-in: later chips go to a new pot. */
  closed: boolean;
  /** Dead money (big-blind antes, dead blinds) in `amount`; always in the main pot. */
  dead: number;
}

export type PotJSON = Pot;

/** One player's contributions as the level oracle sees them. */
export interface Contribution {
  readonly seat: number;
  /** Live chips (antes, blinds, bets) net of returned uncalled bets. */
  readonly live: number;
  /** Dead chips (big-blind ante, dead blinds). */
  readonly dead: number;
  readonly folded: boolean;
  readonly allIn: boolean;
}

export interface LevelPot {
  readonly from: number;
  readonly to: number;
  readonly amount: number;
  readonly eligible: readonly number[];
}

export class PotManager {
  private pots: Pot[] = [];
  /** Live level every still-active player has reached at the start of the current round. */
  private base = 0;

  /** Dead money goes to the main pot, which every dealt-in player contests until they fold. */
  addDead(amount: number, liveSeats: readonly number[]): void {
    if (amount <= 0) return;
    const main = this.pots[0] ?? this.open(0, liveSeats);
    main.amount += amount;
    main.dead += amount;
  }

  /**
   * Forms pots from one round's bets (after any uncalled excess has been returned).
   * @param bets chips each seat put in during the round, folded seats included
   * @param allInThisRound seats whose stack reached zero during the round
   * @param live seats not folded
   */
  collect(bets: ReadonlyMap<number, number>, allInThisRound: ReadonlySet<number>, live: ReadonlySet<number>): void {
    let top = 0;
    const caps = new Set<number>();
    for (const [seat, bet] of bets) {
      if (bet > top) top = bet;
      if (bet > 0 && allInThisRound.has(seat) && live.has(seat)) caps.add(bet);
    }
    if (top === 0) return;
    const levels = [...caps].filter((c) => c < top).sort((a, b) => a - b);
    levels.push(top);
    let prev = 0;
    for (const level of levels) {
      let amount = 0;
      const reached: number[] = [];
      for (const [seat, bet] of bets) {
        const slice = Math.min(bet, level) - prev;
        if (slice > 0) amount += slice;
        if (bet >= level && live.has(seat)) reached.push(seat);
      }
      const last = this.pots[this.pots.length - 1];
      const target = last !== undefined && !last.closed ? last : this.open(this.base + prev, reached);
      target.amount += amount;
      target.to = this.base + level;
      if (caps.has(level)) target.closed = true;
      prev = level;
    }
    this.base += top;
  }

  /** A fold sweeps the folder out of every pot. */
  removeFolded(seat: number): void {
    for (const pot of this.pots) {
      const i = pot.eligible.indexOf(seat);
      if (i >= 0) pot.eligible.splice(i, 1);
    }
  }

  /**
   * Blind showdown: a muck gives up the seat's claim on every pot someone else still contests. A pot in
   * which it is the last contender stays its own (everyone else folded or mucked), so no pot is ever
   * left without a contender.
   */
  removeMucked(seat: number): void {
    for (const pot of this.pots) {
      const i = pot.eligible.indexOf(seat);
      if (i >= 0 && pot.eligible.length > 1) pot.eligible.splice(i, 1);
    }
  }

  /** Whether `seat` is the last contender of every pot it is in (it wins them without showing). */
  uncontestedFor(seat: number): boolean {
    return this.pots.every((pot) => !pot.eligible.includes(seat) || pot.eligible.length === 1);
  }

  get total(): number {
    let t = 0;
    for (const p of this.pots) t += p.amount;
    return t;
  }

  list(): readonly Readonly<Pot>[] {
    return this.pots;
  }

  toJSON(): { pots: PotJSON[]; base: number } {
    return { pots: this.pots.map((p) => ({ ...p, eligible: [...p.eligible] })), base: this.base };
  }

  private open(from: number, eligible: readonly number[]): Pot {
    const pot: Pot = {
      amount: 0,
      from,
      to: from,
      eligible: [...eligible].sort((a, b) => a - b),
      closed: false,
      dead: 0,
    };
    this.pots.push(pot);
    return pot;
  }
}

/**
 * The pots as levels of total live contribution, computed from scratch. An independent formulation of
 * what {@link PotManager} builds round by round; settlement refuses to pay when the two disagree.
 */
export function levelPots(contributions: readonly Contribution[]): LevelPot[] {
  let top = 0;
  let dead = 0;
  const caps = new Set<number>();
  for (const c of contributions) {
    if (c.live > top) top = c.live;
    dead += c.dead;
    if (c.allIn && !c.folded && c.live > 0) caps.add(c.live);
  }
  const levels = [...caps].filter((c) => c < top).sort((a, b) => a - b);
  if (top > 0) levels.push(top);
  const pots: LevelPot[] = [];
  let prev = 0;
  for (const level of levels) {
    let amount = 0;
    const eligible: number[] = [];
    for (const c of contributions) {
      amount += Math.max(0, Math.min(c.live, level) - prev);
      if (!c.folded && c.live >= level) eligible.push(c.seat);
    }
    pots.push({ from: prev, to: level, amount, eligible: eligible.sort((a, b) => a - b) });
    prev = level;
  }
  if (dead > 0) {
    const main = pots[0];
    if (main === undefined) pots.push({ from: 0, to: 0, amount: dead, eligible: [] });
    else pots[0] = { ...main, amount: main.amount + dead };
  }
  return pots;
}

/**
 * Validates every pot before any is paid: each pot matches its level (amount and eligibility), and
 * every pot has at least one contender who was dealt in and never folded.
 */
export function validatePots(
  handId: string,
  pots: readonly Readonly<Pot>[],
  contributions: readonly Contribution[],
): void {
  const expected = levelPots(contributions);
  const live = new Set(contributions.filter((c) => !c.folded).map((c) => c.seat));
  const dealt = new Set(contributions.map((c) => c.seat));
  let potTotal = 0;
  for (const p of pots) potTotal += p.amount;
  let contributed = 0;
  for (const c of contributions) contributed += c.live + c.dead;
  if (potTotal !== contributed) {
    throw new ShowdownIntegrityError(ShowdownIntegrityCode.CHIPS_NOT_CONSERVED, 'pots do not hold the contributions', {
      handId,
      expected: contributed,
      actual: potTotal,
    });
  }
  pots.forEach((pot, i) => {
    for (const seat of pot.eligible) {
      if (!dealt.has(seat) || !live.has(seat)) {
        throw new ShowdownIntegrityError(
          ShowdownIntegrityCode.INELIGIBLE_CONTENDER,
          `pot ${i} names seat ${seat}, which folded or was not dealt in`,
          { handId, pot: i, seats: [seat] },
        );
      }
    }
    if (pot.eligible.length === 0) {
      throw new ShowdownIntegrityError(ShowdownIntegrityCode.POT_WITHOUT_CONTENDER, `pot ${i} has no live contender`, {
        handId,
        pot: i,
      });
    }
  });
  if (expected.length !== pots.length) {
    throw new ShowdownIntegrityError(
      ShowdownIntegrityCode.POT_AMOUNT_MISMATCH,
      'pot levels do not match contributions',
      {
        handId,
        expected: expected.map((p) => [p.from, p.to, p.amount]),
        actual: pots.map((p) => [p.from, p.to, p.amount]),
      },
    );
  }
  expected.forEach((e, i) => {
    const pot = pots[i]!;
    if (pot.amount !== e.amount || pot.from !== e.from || pot.to !== e.to) {
      throw new ShowdownIntegrityError(
        ShowdownIntegrityCode.POT_AMOUNT_MISMATCH,
        `pot ${i} holds ${pot.amount} for levels ${pot.from}..${pot.to}, expected ${e.amount} for ${e.from}..${e.to}`,
        { handId, pot: i, expected: e, actual: { amount: pot.amount, from: pot.from, to: pot.to } },
      );
    }
    if (pot.eligible.join(',') !== e.eligible.join(',')) {
      throw new ShowdownIntegrityError(
        ShowdownIntegrityCode.POT_ELIGIBILITY_MISMATCH,
        `pot ${i} eligibility is wrong`,
        {
          handId,
          pot: i,
          expected: e.eligible,
          actual: pot.eligible,
        },
      );
    }
  });
}
