/** The two numbers a token bucket keeps; the rate and burst are the caller's (one per gateway). */
export interface BucketState {
  /**
   * Thousandths of a token, a whole number: with whole-ms clocks both fields stay small integers,
   * which V8 keeps in the object itself (a fraction would be a separate 16-byte number per socket).
   */
  tokens: number;
  /** When the bucket was last refilled (ms, the caller's clock). */
  last: number;
}

/** A full bucket's `tokens`. */
export function fullBucket(burst: number): number {
  return burst * 1000;
}

/**
 * Takes `cost` tokens (one by default) from `state` at `now` if there are that many: `burst` tokens,
 * refilled continuously at `ratePerSec`. A pure function of the times it is asked at, so a socket can
 * hold its bucket in two of its own fields instead of a separate object. A cost above `burst` can
 * never be paid.
 */
export function takeToken(state: BucketState, now: number, ratePerSec: number, burst: number, cost = 1): boolean {
  const elapsed = Math.max(0, now - state.last);
  state.last = Math.max(state.last, now);
  state.tokens = Math.min(burst * 1000, state.tokens + Math.floor(elapsed * ratePerSec));
  if (state.tokens < cost * 1000) return false;
  state.tokens -= cost * 1000;
  return true;
}

/** Checks a rate and burst the way every bucket needs them. */
export function checkBucketLimits(ratePerSec: number, burst: number): void {
  if (!(ratePerSec > 0) || !(burst >= 1)) throw new RangeError('rate must be > 0 and burst >= 1');
}

/**
 * Per-socket rate limit: `burst` tokens, refilled continuously at `ratePerSec`. The clock is passed
 * in (ms) so the bucket is a pure function of the times it is asked at.
 */
export class TokenBucket implements BucketState {
  tokens: number;
  last: number;

  constructor(
    private readonly ratePerSec: number,
    private readonly burst: number,
    now: number,
  ) {
    checkBucketLimits(ratePerSec, burst);
    this.tokens = fullBucket(burst);
    this.last = now;
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    return takeToken(this, now, this.ratePerSec, this.burst);
  }
}
