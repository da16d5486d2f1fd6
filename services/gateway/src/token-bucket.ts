/**
 * Per-socket rate limit: `burst` tokens, refilled continuously at `ratePerSec`. The clock is passed
 * in (ms) so the bucket is a pure function of the times it is asked at.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSec: number,
    private readonly burst: number,
    now: number,
  ) {
    if (!(ratePerSec > 0) || !(burst >= 1)) throw new RangeError('rate must be > 0 and burst >= 1');
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    const elapsed = Math.max(0, now - this.last);
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSec) / 1000);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
