import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BackoffOptionsError, backoffCeiling, backoffDelay, resolveBackoff } from './backoff.js';

describe('backoff with full jitter', () => {
  const opts = resolveBackoff({ baseMs: 100, maxMs: 5_000, factor: 2 });

  it('ceilings grow exponentially from the base and stop at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((a) => Math.round(backoffCeiling(a, opts)))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000,
    ]);
    // A very long outage neither overflows nor turns into NaN.
    expect(backoffCeiling(10_000, opts)).toBe(5_000);
  });

  it('the delay is random() times the ceiling: the whole range from 0 is used', () => {
    expect(backoffDelay(3, opts, () => 0)).toBe(0);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(400);
    expect(backoffDelay(3, opts, () => 0.999_999)).toBe(799);
    expect(backoffDelay(20, opts, () => 0.5)).toBe(2_500);
  });

  it('every delay lies in [0, min(cap, base·2^attempt)) for any random in [0,1)', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const d = backoffDelay(attempt, opts, () => r);
        return Number.isInteger(d) && d >= 0 && d < Math.min(5_000, 100 * 2 ** attempt);
      }),
    );
  });

  it('refuses caps that cannot work', () => {
    expect(() => resolveBackoff({ maxMs: 0 })).toThrow(BackoffOptionsError);
    expect(() => resolveBackoff({ baseMs: Number.NaN })).toThrow(BackoffOptionsError);
    expect(() => resolveBackoff({ factor: 0.5 })).toThrow(BackoffOptionsError);
  });
});
