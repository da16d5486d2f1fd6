import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { evaluate5, evaluate7, evaluateHighCodes } from './high.js';
import { orderAgreement } from './order-agreement.js';

/** phe (a JS port of PokerHandEvaluator): same card codes as cards.ts, and a LOWER rank is better. */
interface Phe {
  evaluateCardCodes(codes: readonly number[]): number;
}
const phe = createRequire(import.meta.url)('phe') as Phe;

/** mulberry32: a seeded stream, so that a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomHands(seed: number, hands: number, size: number): Uint8Array {
  const next = rng(seed);
  const out = new Uint8Array(hands * size);
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let h = 0; h < hands; h++) {
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(next() * (52 - i));
      const t = deck[i]!;
      deck[i] = deck[j]!;
      deck[j] = t;
      out[h * size + i] = deck[i]!;
    }
  }
  return out;
}

describe('agreement with phe', () => {
  it('orders 200,000 seeded 7-card hands exactly as phe does', () => {
    const n = 200_000;
    const hands = randomHands(0x5eed7, n, 7);
    const ours = new Int32Array(n);
    const theirs = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const h = hands.subarray(i * 7, i * 7 + 7);
      ours[i] = evaluate7(h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!);
      theirs[i] = phe.evaluateCardCodes(Array.from(h));
    }
    const agreement = orderAgreement(ours, theirs, true);
    expect(agreement.agreeing).toBe(n);
    expect(agreement.percent).toBe(100);
    expect(agreement.classes).toBeGreaterThan(4_000);
  });

  it.each([5, 6, 7])('orders %i-card hands through evaluateHighCodes as phe does', (size) => {
    const n = 50_000;
    const hands = randomHands(1000 + size, n, size);
    const ours = new Int32Array(n);
    const theirs = new Int32Array(n);
    let fastPathMismatches = 0;
    for (let i = 0; i < n; i++) {
      const h = Array.from(hands.subarray(i * size, (i + 1) * size));
      ours[i] = evaluateHighCodes(h);
      theirs[i] = phe.evaluateCardCodes(h);
      const fast =
        size === 7
          ? evaluate7(h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!)
          : size === 5
            ? evaluate5(h[0]!, h[1]!, h[2]!, h[3]!, h[4]!)
            : ours[i];
      if (fast !== ours[i]) fastPathMismatches++;
    }
    expect(fastPathMismatches).toBe(0);
    expect(orderAgreement(ours, theirs, true).percent).toBe(100);
  });

  it('detects a disagreement (the check can fail)', () => {
    const ours = Int32Array.from([1, 2, 3, 4, 5, 5]);
    const theirs = Int32Array.from([50, 40, 30, 35, 10, 10]); // hands 2 and 3 swapped
    const a = orderAgreement(ours, theirs, true);
    expect(a.agreeing).toBeLessThan(6);
    expect(orderAgreement(ours, Int32Array.from([50, 40, 30, 20, 10, 11]), true).agreeing).toBeLessThan(6);
    expect(orderAgreement(ours, Int32Array.from([50, 40, 30, 20, 10, 10]), true).percent).toBe(100);
  });
});
