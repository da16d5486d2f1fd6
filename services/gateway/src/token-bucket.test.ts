import { describe, expect, it } from 'vitest';
import { fullBucket, takeToken, TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst, then the refill rate', () => {
    const b = new TokenBucket(10, 5, 0);
    const t0 = Array.from({ length: 8 }, () => b.take(0));
    expect(t0.filter(Boolean)).toHaveLength(5);
    // 10/s refills one token per 100 ms.
    expect(b.take(50)).toBe(false);
    expect(b.take(100)).toBe(true);
    expect(b.take(100)).toBe(false);
  });

  it('never holds more than the burst after a long pause', () => {
    const b = new TokenBucket(10, 3, 0);
    let n = 0;
    for (let i = 0; i < 10; i++) if (b.take(60_000)) n++;
    expect(n).toBe(3);
  });

  it('ignores a clock that goes backwards', () => {
    const b = new TokenBucket(1, 1, 1000);
    expect(b.take(1000)).toBe(true);
    expect(b.take(0)).toBe(false);
    expect(b.take(1500)).toBe(false);
    expect(b.take(2000)).toBe(true);
  });

  it('sustains exactly the configured rate over time', () => {
    const b = new TokenBucket(20, 40, 0);
    let allowed = 0;
    // 100 frames per second offered for 10 s, after the burst is spent.
    for (let t = 0; t <= 10_000; t += 10) if (b.take(t)) allowed++;
    expect(allowed).toBeGreaterThanOrEqual(40 + 200 - 1);
    expect(allowed).toBeLessThanOrEqual(40 + 200 + 1);
  });

  it('takes a cost of several tokens at once, or none of it', () => {
    const state = { tokens: fullBucket(10), last: 0 };
    expect(takeToken(state, 0, 1, 10, 7)).toBe(true);
    // 3 left: a second cost of 7 is refused and takes nothing; single tokens still pass.
    expect(takeToken(state, 0, 1, 10, 7)).toBe(false);
    expect(state.tokens).toBe(3_000);
    expect(takeToken(state, 0, 1, 10)).toBe(true);
    // After 5 s at 1 a second: 2 + 5 = 7 tokens, enough again.
    expect(takeToken(state, 5_000, 1, 10, 7)).toBe(true);
    expect(state.tokens).toBe(0);
  });

  it('rejects nonsense limits', () => {
    expect(() => new TokenBucket(0, 1, 0)).toThrow(RangeError);
    expect(() => new TokenBucket(1, 0, 0)).toThrow(RangeError);
  });
});
