import type { ResolvedRake } from './setup.js';

export const RakeRule = {
  /** No rake configured. */
  NONE: 'none',
  /** No flop, no drop. */
  NO_FLOP: 'no_flop',
  STANDARD: 'standard',
  HEADS_UP: 'heads_up',
} as const;
export type RakeRule = (typeof RakeRule)[keyof typeof RakeRule];

export interface RakeDecision {
  readonly amount: number;
  readonly rule: RakeRule;
  /** Basis points applied (0 when no rake). */
  readonly bps: number;
  /** The contested total the percentage was taken from (uncalled returns never count). */
  readonly contested: number;
  readonly capped: boolean;
}

/**
 * Reference 001: once per hand, `floor(contested * percent / 100)` limited by the cap (0 = no cap); the
 * heads-up percentage when exactly two players are still in; nothing when the hand did not see a flop
 * and no-flop-no-drop is on.
 */
export function decideRake(
  rake: ResolvedRake | null,
  contested: number,
  playersInHand: number,
  sawFlop: boolean,
): RakeDecision {
  if (rake === null || contested <= 0) return { amount: 0, rule: RakeRule.NONE, bps: 0, contested, capped: false };
  if (rake.noFlopNoDrop && !sawFlop) return { amount: 0, rule: RakeRule.NO_FLOP, bps: 0, contested, capped: false };
  const headsUp = playersInHand === 2 && rake.headsUpBps !== null;
  const bps = headsUp && rake.headsUpBps !== null ? rake.headsUpBps : rake.bps;
  const raw = Number((BigInt(contested) * BigInt(bps)) / 10000n);
  const capped = rake.cap > 0 && raw > rake.cap;
  return {
    amount: capped ? rake.cap : raw,
    rule: headsUp ? RakeRule.HEADS_UP : RakeRule.STANDARD,
    bps,
    contested,
    capped,
  };
}

export interface GrossShare {
  readonly pot: number;
  readonly seat: number;
  readonly gross: number;
}

/**
 * Takes `rake` out of the winners' shares in proportion: each share becomes
 * `floor(share * (total - rake) / total)`, and the chips that rounding leaves over go to the first
 * winner clockwise after the button (on that winner's first share). Returns the net of every share, in
 * the order given.
 * @param clockwise winner seats ordered from the first seat after the button
 */
export function deductRake(
  shares: readonly GrossShare[],
  rake: number,
  clockwise: ReadonlyMap<number, number>,
): number[] {
  let total = 0;
  for (const s of shares) total += s.gross;
  if (rake <= 0 || total === 0) return shares.map((s) => s.gross);
  if (rake > total) throw new RangeError(`rake ${rake} exceeds the pots ${total}`);
  const keep = BigInt(total - rake);
  const big = BigInt(total);
  const nets = shares.map((s) => Number((BigInt(s.gross) * keep) / big));
  let leftover = total - rake;
  for (const n of nets) leftover -= n;
  if (leftover > 0) {
    let best = -1;
    shares.forEach((s, i) => {
      if (s.gross === 0) return;
      if (best < 0) best = i;
      else {
        const rs = clockwise.get(s.seat) ?? Infinity;
        const rb = clockwise.get(shares[best]!.seat) ?? Infinity;
        if (rs < rb || (rs === rb && s.pot < shares[best]!.pot)) best = i;
      }
    });
    nets[best] = nets[best]! + leftover;
  }
  return nets;
}
