import { describe, expect, it } from 'vitest';
import { initialDeck, type Card } from '../cards.js';
import { CardPositionTable, cardPositionChiSquare, chiSquareSurvival, gammaQ } from './chi-square.js';
import { DeckStream, deriveDeckSeed, shuffleDeck } from './index.js';

const ALPHA = 0.01;
const SOAK = process.env.FELT_SOAK === '1';

const SERVER_SEED = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);

function handId(i: number): string {
  return `5eed0000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

/** Card-by-position table over `decks` hands dealt exactly as Felt deals them: derived seed, then shuffle. */
function feltTable(decks: number, kind: 'standard52' | 'short36', offset = 0): CardPositionTable {
  const index = new Map<Card, number>(initialDeck(kind).map((c, i) => [c, i]));
  const table = new CardPositionTable(index.size);
  const perm = new Array<number>(index.size);
  for (let h = 0; h < decks; h++) {
    const deck = shuffleDeck(deriveDeckSeed(SERVER_SEED, handId(offset + h), []), kind);
    for (let p = 0; p < deck.length; p++) perm[p] = index.get(deck[p] as Card) as number;
    table.add(perm);
  }
  return table;
}

/**
 * The positive controls draw from Felt's own unbiased byte stream, so the only defect each one has is the
 * shuffle algorithm under test.
 */
function controlStream(label: number): DeckStream {
  return new DeckStream(deriveDeckSeed(SERVER_SEED, handId(0xc0_0000 + label), []));
}

/** The classic mistake: swap every position with a uniformly random one (n^n paths onto n! orders). */
function naiveSwapTable(decks: number, stream: DeckStream): CardPositionTable {
  const n = 52;
  const table = new CardPositionTable(n);
  for (let d = 0; d < decks; d++) {
    const deck = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < n; i++) {
      const j = stream.draw(n);
      [deck[i], deck[j]] = [deck[j] as number, deck[i] as number];
    }
    table.add(deck);
  }
  return table;
}

/** Fisher–Yates, but each draw is one stream byte taken `% (i + 1)`: modulo bias without rejection. */
function moduloBiasTable(decks: number, stream: DeckStream): CardPositionTable {
  const n = 52;
  const table = new CardPositionTable(n);
  let word = 0;
  let bytesLeft = 0;
  const nextByte = (): number => {
    if (bytesLeft === 0) {
      word = stream.nextUint32();
      bytesLeft = 4;
    }
    bytesLeft--;
    return (word >>> (8 * bytesLeft)) & 0xff;
  };
  for (let d = 0; d < decks; d++) {
    const deck = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i >= 1; i--) {
      const j = nextByte() % (i + 1);
      [deck[i], deck[j]] = [deck[j] as number, deck[i] as number];
    }
    table.add(deck);
  }
  return table;
}

describe('chi-square machinery', () => {
  it('matches closed forms and independently computed quantiles', () => {
    // df = 2 is an exponential: Q(1, x/2) = e^(−x/2).
    for (const x of [0.5, 3, 10, 40]) expect(chiSquareSurvival(x, 2)).toBeCloseTo(Math.exp(-x / 2), 12);
    expect(gammaQ(1, 0)).toBe(1);
    // Reference values from scipy.stats.chi2 (ppf and sf), not from this code.
    expect(chiSquareSurvival(23.209251158954356, 10)).toBeCloseTo(0.01, 9);
    expect(chiSquareSurvival(2771.7229545695204, 2601)).toBeCloseTo(0.01, 9);
    expect(chiSquareSurvival(1343.0808815829043, 1225)).toBeCloseTo(0.01, 9);
    expect(chiSquareSurvival(2700, 2601)).toBeCloseTo(0.08615871653443165, 9);
  });

  it('a table of identical decks is rejected with certainty', () => {
    const table = new CardPositionTable(52);
    const identity = Array.from({ length: 52 }, (_, i) => i);
    for (let d = 0; d < 100; d++) table.add(identity);
    expect(cardPositionChiSquare(table).pValue).toBeLessThan(1e-12);
  });
});

describe('positive controls: the test catches broken shuffles', () => {
  it('a naive swap shuffle is caught at 1,000 decks', () => {
    const result = cardPositionChiSquare(naiveSwapTable(1_000, controlStream(1)));
    expect(result.pValue).toBeLessThan(ALPHA);
  });

  it('byte % n modulo bias is caught at 10,000 decks', () => {
    const result = cardPositionChiSquare(moduloBiasTable(10_000, controlStream(2)));
    expect(result.pValue).toBeLessThan(ALPHA);
  });
});

describe('felt-deck-v1 shuffles are uniform by card and position', () => {
  // 25,000 decks (about 480 per cell) keep the default run short; the positive controls above show the
  // test already catches modulo bias at 10,000, and FELT_SOAK=1 runs a million.
  it('52×52 over 25,000 derived shuffles at α = 0.01', { timeout: 180_000 }, () => {
    const table = feltTable(25_000, 'standard52');
    expect(table.decks).toBe(25_000);
    const result = cardPositionChiSquare(table);
    expect(result.df).toBe(2601);
    expect(result.pValue).toBeGreaterThan(ALPHA);
  });

  it.runIf(SOAK)('soak: 52×52 over 1,000,000 derived shuffles', { timeout: 1_800_000 }, () => {
    const result = cardPositionChiSquare(feltTable(1_000_000, 'standard52', 1_000_000));
    expect(result.pValue).toBeGreaterThan(ALPHA);
  });

  it.runIf(SOAK)('soak: 36×36 short deck over 300,000 derived shuffles', { timeout: 1_800_000 }, () => {
    const result = cardPositionChiSquare(feltTable(300_000, 'short36', 3_000_000));
    expect(result.df).toBe(1225);
    expect(result.pValue).toBeGreaterThan(ALPHA);
  });
});
