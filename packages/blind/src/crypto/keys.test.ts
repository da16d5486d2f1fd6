import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from './seeded-rng.test-support.js';
import { Fn, IDENTITY_HEX, Point, parseScalar, scalarHex } from './group.js';
import { generateKey, jointKey, proveKey, verifyKey, type KeyProof } from './keys.js';

const CONTEXT = 't1|h1|key|3';

describe('generateKey', () => {
  it('publishes Y = x·G with x in [1, ℓ)', () => {
    const key = generateKey();
    expect(key.x > 0n && key.x < Fn.ORDER).toBe(true);
    expect(key.Y).toBe(Point.BASE.multiply(key.x).toHex());
    expect(generateKey().Y).not.toBe(key.Y);
  });

  it('is deterministic under a seeded rng', () => {
    expect(generateKey(seededRng('a'))).toEqual(generateKey(seededRng('a')));
    expect(generateKey(seededRng('a')).Y).not.toBe(generateKey(seededRng('b')).Y);
  });
});

describe('proveKey / verifyKey', () => {
  const key = generateKey(seededRng('key'));
  const proof = proveKey(key, CONTEXT, seededRng('nonce'));

  it('accepts an honest proof, for any key and context', () => {
    expect(proof.Y).toBe(key.Y);
    expect(verifyKey(proof, CONTEXT)).toBe(true);
    fc.assert(
      fc.property(fc.string(), fc.bigInt({ min: 1n, max: Fn.ORDER - 1n }), (context, x) => {
        const k = { x, Y: Point.BASE.multiply(x).toHex() };
        expect(verifyKey(proveKey(k, context), context)).toBe(true);
      }),
      { numRuns: 10 },
    );
  });

  it('survives a JSON round trip', () => {
    expect(verifyKey(JSON.parse(JSON.stringify(proof)) as KeyProof, CONTEXT)).toBe(true);
  });

  it('rejects a proof for another context', () => {
    expect(verifyKey(proof, 't1|h1|key|4')).toBe(false);
    expect(verifyKey(proof, `${CONTEXT} `)).toBe(false);
  });

  it('rejects a wrong c or s', () => {
    const c = Fn.add(parseScalar(proof.c), 1n);
    expect(verifyKey({ ...proof, c: scalarHex(c) }, CONTEXT)).toBe(false);
    expect(verifyKey({ ...proof, s: scalarHex(1n) }, CONTEXT)).toBe(false);
    expect(verifyKey({ ...proof, s: proof.c, c: proof.s }, CONTEXT)).toBe(false);
  });

  it("rejects another key's Y, and the identity as Y", () => {
    expect(verifyKey({ ...proof, Y: generateKey().Y }, CONTEXT)).toBe(false);
    expect(verifyKey({ ...proof, Y: IDENTITY_HEX }, CONTEXT)).toBe(false);
    // The trivial "proof" for the identity: R = s·G, c = H(…, 0, R) needs no secret at all.
    expect(verifyKey({ Y: IDENTITY_HEX, c: scalarHex(0n), s: scalarHex(0n) }, CONTEXT)).toBe(false);
  });

  it('answers false, never throws, on garbage', () => {
    const garbage: unknown[] = [
      { ...proof, Y: proof.Y.toUpperCase() },
      { ...proof, c: 'zz' },
      { ...proof, s: 'ff'.repeat(32) },
      { ...proof, Y: 'ff'.repeat(32) },
      { Y: proof.Y },
      null,
      'proof',
    ];
    for (const g of garbage) expect(verifyKey(g as KeyProof, CONTEXT)).toBe(false);
  });

  it('refuses to prove for a key whose Y is not x·G', () => {
    expect(() => proveKey({ x: key.x, Y: generateKey().Y }, CONTEXT)).toThrowError(
      expect.objectContaining({ code: 'invalid_point' }),
    );
    expect(() => proveKey({ x: 0n, Y: key.Y }, CONTEXT)).toThrowError(
      expect.objectContaining({ code: 'invalid_scalar' }),
    );
  });
});

describe('jointKey', () => {
  it('is Σ Y_j = (Σ x_j)·G, in any order', () => {
    const keys = [1, 2, 3].map((i) => generateKey(seededRng(`j${i}`)));
    const expected = Point.BASE.multiply(keys.reduce((s, k) => Fn.add(s, k.x), 0n)).toHex();
    expect(jointKey(keys.map((k) => k.Y))).toBe(expected);
    expect(jointKey(keys.map((k) => k.Y).reverse())).toBe(expected);
    expect(jointKey([keys[0]!.Y])).toBe(keys[0]!.Y);
  });

  it('throws invalid_point on a bad key, an identity key, no keys, or keys that cancel', () => {
    const { Y } = generateKey();
    const minusY = Point.fromHex(Y).negate().toHex();
    for (const bad of [[Y, 'nope'], [Y, IDENTITY_HEX], [], [Y, minusY], [Y.toUpperCase()]]) {
      expect(() => jointKey(bad)).toThrowError(expect.objectContaining({ name: 'BlindError', code: 'invalid_point' }));
    }
  });
});
