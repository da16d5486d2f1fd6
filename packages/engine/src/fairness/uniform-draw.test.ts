import { describe, expect, it } from 'vitest';
import { FairnessError, FairnessErrorCode, drawLimit, uniformDraw } from './index.js';

const TWO_32 = 2 ** 32;

/** A crafted stream: yields the given words in order and fails the test if read past the end. */
function words(...values: number[]): { next: () => number; consumed: () => number } {
  let i = 0;
  return {
    next: () => {
      const v = values[i++];
      if (v === undefined) throw new Error('crafted stream exhausted');
      return v;
    },
    consumed: () => i,
  };
}

describe('rejection sampling is exactly uniform for every n in 2..52', () => {
  for (let n = 2; n <= 52; n++) {
    it(`n = ${n}`, () => {
      const limit = drawLimit(n);
      // Counting over the whole 2^32 range analytically (all values below 2^53, so exact in a double):
      // x in [0, limit) is accepted, and residue r has floor((limit − 1 − r) / n) + 1 preimages there.
      expect(limit).toBe(TWO_32 - (TWO_32 % n));
      expect(limit % n).toBe(0);
      expect(TWO_32 - limit).toBeLessThan(n);
      const counts = Array.from({ length: n }, (_, r) => Math.floor((limit - 1 - r) / n) + 1);
      expect(new Set(counts)).toEqual(new Set([limit / n]));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(limit);

      // The implementation's boundary: limit − 1 is the last accepted word, limit the first rejected one.
      const accepted = words(limit - 1);
      expect(uniformDraw(accepted.next, n)).toBe(n - 1);
      expect(accepted.consumed()).toBe(1);

      const rejectedThenAccepted = words(limit, TWO_32 - 1, n + 3);
      const expectedRejections = limit === TWO_32 ? 0 : 2;
      if (expectedRejections === 0) {
        // n divides 2^32 (a power of two): nothing is rejected, and limit itself is not a uint32.
        expect(uniformDraw(words(TWO_32 - 1).next, n)).toBe((TWO_32 - 1) % n);
      } else {
        expect(uniformDraw(rejectedThenAccepted.next, n)).toBe(3 % n);
        expect(rejectedThenAccepted.consumed()).toBe(3);
      }
      expect(uniformDraw(words(0).next, n)).toBe(0);
    });
  }

  it('modulo without rejection would not be uniform (the check above can fail)', () => {
    // For n = 52, 2^32 mod 52 = 48, so plain x mod 52 would give residues 0..47 one extra preimage.
    const n = 52;
    const plain = Array.from({ length: n }, (_, r) => Math.floor((TWO_32 - 1 - r) / n) + 1);
    expect(new Set(plain).size).toBe(2);
  });

  it('refuses a bound outside 1..2^32', () => {
    for (const n of [0, -1, 1.5, TWO_32 + 1, Number.NaN]) {
      expect(() => drawLimit(n)).toThrowError(FairnessError);
    }
    try {
      drawLimit(0);
    } catch (err) {
      expect((err as FairnessError).code).toBe(FairnessErrorCode.INVALID_DRAW_BOUND);
    }
  });
});
