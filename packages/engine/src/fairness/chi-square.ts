/**
 * The card-by-position chi-square test the fairness statistics use (docs/fairness.md, "How we test
 * it"). Not part of the engine's public entry: it exists so the tests and the soak share one
 * definition of the statistic.
 */

/** counts[card][position] over `decks` permutations of `size` cards (cards given as indices 0..size−1). */
export class CardPositionTable {
  readonly counts: Float64Array;
  decks = 0;

  constructor(readonly size: number) {
    this.counts = new Float64Array(size * size);
  }

  add(permutation: ArrayLike<number>): void {
    if (permutation.length !== this.size) throw new RangeError('permutation has the wrong length');
    for (let position = 0; position < this.size; position++) {
      const card = permutation[position] as number;
      this.counts[card * this.size + position]! += 1;
    }
    this.decks++;
  }
}

export interface ChiSquareResult {
  /** Pearson's X² = Σ (O − E)² / E over all size² cells, E = decks / size. */
  statistic: number;
  /** (size − 1)², the dimension of the space the fluctuations live in. */
  df: number;
  /** X² · (size − 1) / size, which is asymptotically χ²(df) for uniform permutations. */
  scaled: number;
  pValue: number;
}

/**
 * Why the scaling: for a uniform random permutation matrix P, the centered matrix has zero row and column
 * sums, a space of dimension (n−1)² on which row and column relabelling acts irreducibly; the covariance is
 * invariant under that action, so by Schur's lemma it is a multiple of the identity there, and matching the
 * trace (Σ Var P_ij = n − 1) gives 1/(n−1). Standardizing by E = N/n multiplies it by n, so
 * X² ≈ n/(n−1) · χ²((n−1)²): mean n(n−1), not the (n−1)² of a contingency table with estimated margins.
 * Using χ²((n−1)²) on raw X² would reject a fair shuffle several times too often.
 */
export function cardPositionChiSquare(table: CardPositionTable): ChiSquareResult {
  const n = table.size;
  const expected = table.decks / n;
  let statistic = 0;
  for (const observed of table.counts) statistic += (observed - expected) ** 2 / expected;
  const df = (n - 1) ** 2;
  const scaled = (statistic * (n - 1)) / n;
  return { statistic, df, scaled, pValue: chiSquareSurvival(scaled, df) };
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-13). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < 9; i++) sum += (c[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Regularized upper incomplete gamma Q(a, x), by series below a + 1 and Lentz's continued fraction above. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const lnPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let k = 1; k < 100_000; k++) {
      term *= x / (a + k);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return 1 - sum * Math.exp(lnPrefix);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(lnPrefix) * h;
}

/** P(χ²(df) ≥ x). */
export function chiSquareSurvival(x: number, df: number): number {
  return gammaQ(df / 2, x / 2);
}
