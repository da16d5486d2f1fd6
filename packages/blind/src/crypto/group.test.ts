import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlindError } from './errors.js';
import {
  Fn,
  IDENTITY_HEX,
  Point,
  Transcript,
  parseNonZeroPoint,
  parsePoint,
  parseScalar,
  randomScalar,
  scalarHex,
} from './group.js';

// ℓ = 2^252 + 27742317777372353535851937790883648493, 32 bytes little-endian.
const ORDER_HEX = 'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010';
// p = 2^255 − 19 as a ristretto255 encoding: s = p is the non-canonical spelling of s = 0.
const P_HEX = 'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    return error instanceof BlindError ? error.code : `not a BlindError: ${String(error)}`;
  }
  return undefined;
}

describe('point codec', () => {
  const G = Point.BASE.toHex();

  it('round-trips canonical encodings and accepts the identity', () => {
    expect(parsePoint(G).equals(Point.BASE)).toBe(true);
    expect(parsePoint(IDENTITY_HEX).is0()).toBe(true);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: Fn.ORDER - 1n }), (k) => {
        const hex = Point.BASE.multiply(k).toHex();
        expect(parsePoint(hex).toHex()).toBe(hex);
      }),
      { numRuns: 20 },
    );
  });

  it('rejects wrong lengths, non-hex, upper case and non-strings as invalid_point', () => {
    for (const bad of [
      G.slice(2),
      `${G}00`,
      '',
      `zz${G.slice(2)}`,
      G.toUpperCase(),
      ` ${G.slice(1)}`,
      42,
      null,
      undefined,
    ]) {
      expect(codeOf(() => parsePoint(bad))).toBe('invalid_point');
    }
  });

  it('rejects non-canonical and off-curve encodings', () => {
    // s = p (non-canonical zero), s = 1 (odd, i.e. negative), all-ones (s ≥ p).
    for (const bad of [P_HEX, `01${'00'.repeat(31)}`, 'ff'.repeat(32)]) {
      expect(codeOf(() => parsePoint(bad))).toBe('invalid_point');
    }
  });

  it('parseNonZeroPoint refuses the identity', () => {
    expect(codeOf(() => parseNonZeroPoint(IDENTITY_HEX))).toBe('invalid_point');
    expect(parseNonZeroPoint(G).equals(Point.BASE)).toBe(true);
  });
});

describe('scalar codec', () => {
  it('round-trips every scalar below the order, little-endian', () => {
    expect(scalarHex(1n)).toBe(`01${'00'.repeat(31)}`);
    expect(parseScalar(scalarHex(Fn.ORDER - 1n))).toBe(Fn.ORDER - 1n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: Fn.ORDER - 1n }), (s) => {
        expect(parseScalar(scalarHex(s))).toBe(s);
      }),
      { numRuns: 50 },
    );
  });

  it('rejects the order itself, larger values and malformed hex as invalid_scalar', () => {
    expect(codeOf(() => parseScalar(ORDER_HEX))).toBe('invalid_scalar');
    expect(codeOf(() => parseScalar('ff'.repeat(32)))).toBe('invalid_scalar');
    expect(codeOf(() => parseScalar('0'.repeat(63)))).toBe('invalid_scalar');
    expect(codeOf(() => parseScalar(ORDER_HEX.toUpperCase()))).toBe('invalid_scalar');
  });

  it('draws non-zero scalars and refuses an rng that returns the wrong length', () => {
    let calls = 0;
    const zeroThenOne = (n: number) => {
      calls += 1;
      const out = new Uint8Array(n);
      if (calls > 1) out[0] = 1;
      return out;
    };
    expect(randomScalar(zeroThenOne)).toBe(1n);
    expect(calls).toBe(2);
    expect(() => randomScalar(() => new Uint8Array(3))).toThrowError(/rng/);
  });
});

describe('Transcript', () => {
  it('separates domains and length-prefixes strings', () => {
    const a = new Transcript('felt-eb-v1/key').string('ab').string('c').challenge();
    const b = new Transcript('felt-eb-v1/key').string('a').string('bc').challenge();
    const c = new Transcript('felt-eb-v1/share').string('ab').string('c').challenge();
    const again = new Transcript('felt-eb-v1/key').string('ab').string('c').challenge();
    expect(a).toBe(again);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(a < Fn.ORDER).toBe(true);
  });
});
