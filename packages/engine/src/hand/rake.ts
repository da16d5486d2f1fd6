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
 * Once per hand, `floor(contested * percent / 100)` limited by the cap (0 = no cap); the
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
 * Takes `rake` out of the winners' shares in proportion to what they win, by largest
 * remainder on the chips each share keeps:
 *
 * 1. every share keeps `floor(gross * (total - rake) / total)`, `total` being the sum of all shares
 *    (every pot of the hand together, since the rake is decided once per hand);
 * 2. the chips that rounding leaves over (fewer than the shares with a fractional part) go one each to
 *    the shares with the largest fractional part of `gross * (total - rake) / total`; equal parts go
 *    first to the winner nearest clockwise from the button, then to the lower pot index, then to the
 *    earlier share (high before low): the order odd chips go in.
 *
 * Equivalently each share pays `floor` or `ceil` of its quota `rake * gross / total`, the ceilings going
 * to the largest fractional quotas. So every share's rake is an integer in [0, gross] (a pot's rake and
 * a player's rake paid are never negative, nothing is paid beyond a share's gross), and the shares'
 * rakes add up to `rake` exactly. Returns the net of every share, in the order given.
 * @param clockwise clockwise position of each winner seat, 0 for the first seat after the button
 */
export function deductRake(
  shares: readonly GrossShare[],
  rake: number,
  clockwise: ReadonlyMap<number, number>,
): number[] {
  let total = 0;
  for (const s of shares) {
    if (!Number.isSafeInteger(s.gross) || s.gross < 0) throw new RangeError(`share gross ${s.gross} is not chips`);
    total += s.gross;
  }
  if (!Number.isSafeInteger(rake) || rake < 0) throw new RangeError(`rake ${rake} is not chips`);
  if (rake === 0 || total === 0) {
    if (rake > 0) throw new RangeError(`rake ${rake} exceeds the pots ${total}`);
    return shares.map((s) => s.gross);
  }
  if (rake > total) throw new RangeError(`rake ${rake} exceeds the pots ${total}`);
  const keep = BigInt(total - rake);
  const big = BigInt(total);
  const nets: number[] = [];
  // Fractional parts share the denominator `total`, so the numerators compare exactly.
  const remainders: bigint[] = [];
  let leftover = total - rake;
  for (const s of shares) {
    const scaled = BigInt(s.gross) * keep;
    const net = Number(scaled / big);
    nets.push(net);
    remainders.push(scaled % big);
    leftover -= net;
  }
  if (leftover > 0) {
    const order = shares.map((_, i) => i);
    const position = (i: number): number => clockwise.get(shares[i]!.seat) ?? Number.MAX_SAFE_INTEGER;
    order.sort((a, b) => {
      const ra = remainders[a]!;
      const rb = remainders[b]!;
      if (ra !== rb) return ra > rb ? -1 : 1;
      return position(a) - position(b) || shares[a]!.pot - shares[b]!.pot || a - b;
    });
    // Fewer leftover chips than shares with a non-zero remainder: each of them gets at most one.
    for (let k = 0; k < leftover; k++) {
      const i = order[k]!;
      if (remainders[i] === 0n) throw new Error('rake allocation: leftover chip without a fractional share');
      nets[i] = nets[i]! + 1;
    }
  }
  return nets;
}
