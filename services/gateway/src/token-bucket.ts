/** The two numbers a token bucket keeps; the rate and burst are the caller's (one per gateway). */
export interface BucketState {
  tokens: number;
  /** When the bucket was last refilled (ms, the caller's clock). */
  last: number;
}

/**
 * Takes one token from `state` at `now` if there is one: `burst` tokens, refilled continuously at
 * `ratePerSec`. A pure function of the times it is asked at, so a socket can hold its bucket in two
 * of its own fields instead of a separate object.
 */
export function takeToken(state: BucketState, now: number, ratePerSec: number, burst: number): boolean {
  const elapsed = Math.max(0, now - state.last);
  state.last = Math.max(state.last, now);
  state.tokens = Math.min(burst, state.tokens + (elapsed * ratePerSec) / 1000);
  if (state.tokens < 1) return false;
  state.tokens -= 1;
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
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    return takeToken(this, now, this.ratePerSec, this.burst);
  }
}
