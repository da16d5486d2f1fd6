// The hand evaluators of @felt/engine (built dist) against phe, a JS port of PokerHandEvaluator, on the
// same seeded deals in the same run. phe is a devDependency used for comparison only.
import { createRequire } from 'node:module';
import { evaluate7, evaluateOmahaHighCodes, evaluatorTableBytes, orderAgreement } from '@felt/engine';
import { perSecond, race, ratio, seededDeals, type BenchReporter } from './bench-api.js';

type Eval7 = (a: number, b: number, c: number, d: number, e: number, f: number, g: number) => number;
type Eval5 = (a: number, b: number, c: number, d: number, e: number) => number;
const require = createRequire(import.meta.url);
// phe's raw evaluators (lower is better), without its array-dispatching wrapper.
const pheEvaluate7 = require('phe/lib/evaluator7.js') as Eval7;
const pheEvaluate5 = require('phe/lib/evaluator5.js') as Eval5;

const HANDS_7 = 1_000_000;
const DEALS_OMAHA = 200_000;
const SEED_7 = 0xfe17;
const SEED_OMAHA = 0x0a4a;

function feltPass7(h: Uint8Array, out: Uint16Array | null): number {
  let sum = 0;
  for (let i = 0, o = 0; i < HANDS_7; i++, o += 7) {
    const v = evaluate7(h[o]!, h[o + 1]!, h[o + 2]!, h[o + 3]!, h[o + 4]!, h[o + 5]!, h[o + 6]!);
    if (out) out[i] = v;
    sum += v;
  }
  return sum;
}

function phePass7(h: Uint8Array, out: Uint16Array | null): number {
  let sum = 0;
  for (let i = 0, o = 0; i < HANDS_7; i++, o += 7) {
    const v = pheEvaluate7(h[o]!, h[o + 1]!, h[o + 2]!, h[o + 3]!, h[o + 4]!, h[o + 5]!, h[o + 6]!);
    if (out) out[i] = v;
    sum += v;
  }
  return sum;
}

function bench7(report: BenchReporter): void {
  const hands = seededDeals(SEED_7, HANDS_7, 7);
  const ours = new Uint16Array(HANDS_7);
  const theirs = new Uint16Array(HANDS_7);
  feltPass7(hands, ours);
  phePass7(hands, theirs);
  const agreement = orderAgreement(ours, theirs, true);

  const rates = race(
    [
      { name: 'felt', pass: () => feltPass7(hands, null) },
      { name: 'phe', pass: () => phePass7(hands, null) },
    ],
    HANDS_7,
  );
  const felt = rates.best.felt!;
  const phe = rates.best.phe!;
  report.figure('evaluator-7card', { ratio: ratio(felt, phe), felt: perSecond(felt), phe: perSecond(phe) });
  report.figure('evaluator-7card-agreement', {
    percent: agreement.percent.toFixed(4),
    hands: agreement.hands,
    classes: agreement.classes,
  });
  report.info(
    `7-card: ${HANDS_7} seeded hands, best of ${rates.rounds} interleaved rounds after warm-up; ` +
      `median felt=${perSecond(rates.median.felt!)} phe=${perSecond(rates.median.phe!)} evals/s`,
  );
}

/** Index pairs of 4 hole cards and triples of 5 board cards: the 6 x 10 = 60 Omaha fives. */
const PAIRS = [0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3];
const TRIPLES = [0, 1, 2, 0, 1, 3, 0, 1, 4, 0, 2, 3, 0, 2, 4, 0, 3, 4, 1, 2, 3, 1, 2, 4, 1, 3, 4, 2, 3, 4];

function feltPassOmaha(d: Uint8Array, out: Uint16Array | null): number {
  const hole = new Uint8Array(4);
  const board = new Uint8Array(5);
  let sum = 0;
  for (let i = 0, o = 0; i < DEALS_OMAHA; i++, o += 9) {
    hole[0] = d[o]!;
    hole[1] = d[o + 1]!;
    hole[2] = d[o + 2]!;
    hole[3] = d[o + 3]!;
    board[0] = d[o + 4]!;
    board[1] = d[o + 5]!;
    board[2] = d[o + 6]!;
    board[3] = d[o + 7]!;
    board[4] = d[o + 8]!;
    const v = evaluateOmahaHighCodes(hole, board);
    if (out) out[i] = v;
    sum += v;
  }
  return sum;
}

function phePassOmaha(d: Uint8Array, out: Uint16Array | null): number {
  let sum = 0;
  for (let i = 0, o = 0; i < DEALS_OMAHA; i++, o += 9) {
    let best = 1 << 30;
    for (let p = 0; p < PAIRS.length; p += 2) {
      const a = d[o + PAIRS[p]!]!;
      const b = d[o + PAIRS[p + 1]!]!;
      for (let t = 0; t < TRIPLES.length; t += 3) {
        const v = pheEvaluate5(a, b, d[o + 4 + TRIPLES[t]!]!, d[o + 4 + TRIPLES[t + 1]!]!, d[o + 4 + TRIPLES[t + 2]!]!);
        if (v < best) best = v;
      }
    }
    if (out) out[i] = best;
    sum += best;
  }
  return sum;
}

function benchOmaha(report: BenchReporter): void {
  const deals = seededDeals(SEED_OMAHA, DEALS_OMAHA, 9);
  const ours = new Uint16Array(DEALS_OMAHA);
  const theirs = new Uint16Array(DEALS_OMAHA);
  feltPassOmaha(deals, ours);
  phePassOmaha(deals, theirs);
  const agreement = orderAgreement(ours, theirs, true);

  const rates = race(
    [
      { name: 'felt', pass: () => feltPassOmaha(deals, null) },
      { name: 'phe', pass: () => phePassOmaha(deals, null) },
    ],
    DEALS_OMAHA,
  );
  const felt = rates.best.felt!;
  const phe = rates.best.phe!;
  report.figure('evaluator-omaha', { ratio: ratio(felt, phe), felt: perSecond(felt), phe: perSecond(phe) });
  report.figure('evaluator-omaha-agreement', {
    percent: agreement.percent.toFixed(4),
    hands: agreement.hands,
    classes: agreement.classes,
  });
  report.info(
    `Omaha: ${DEALS_OMAHA} seeded deals (4 hole + 5 board), hands/s; phe evaluates the 60 2+3 fives with ` +
      `its 5-card evaluator; median felt=${perSecond(rates.median.felt!)} phe=${perSecond(rates.median.phe!)}`,
  );
}

export function run(report: BenchReporter): void {
  bench7(report);
  benchOmaha(report);
  const bytes = evaluatorTableBytes();
  report.figure('evaluator-tables', { bytes, mb: (bytes / 2 ** 20).toFixed(3) });
}
