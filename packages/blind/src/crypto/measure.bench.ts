/**
 * Timings and sizes of the crypto core: `npx tsx packages/blind/src/crypto/measure.bench.ts`.
 * Prints the median of a few runs per operation, for a 52-card deck at λ = 40 (override with
 * LAMBDA=… and RUNS=…), and what that means for a hand of 2, 6 and 9 players.
 */
import {
  DEFAULT_LAMBDA,
  cardIndex,
  decryptionShare,
  generateKey,
  initialDeck,
  jointKey,
  openCard,
  ownShare,
  proveKey,
  shuffleDeck,
  verifyKey,
  verifyShare,
  verifyShuffle,
  type Ciphertext,
  type ShuffleResult,
} from './index.js';

declare const process: { env: Record<string, string | undefined> };

const LAMBDA = Number(process.env['LAMBDA'] ?? DEFAULT_LAMBDA);
const RUNS = Number(process.env['RUNS'] ?? 5);
const CARDS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'].flatMap((r) =>
  ['c', 'd', 'h', 's'].map((s) => `${r}${s}`),
);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function time<T>(f: () => T): [T, number] {
  const start = performance.now();
  const value = f();
  return [value, performance.now() - start];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const keys = Array.from({ length: 9 }, () => generateKey());
const Y = jointKey(keys.map((k) => k.Y));

// Warm up the JIT and the generator's and the joint key's tables.
{
  const warm = shuffleDeck(initialDeck(CARDS), Y, 'warm-up', { lambda: 4 });
  verifyShuffle(initialDeck(CARDS), warm.output, Y, warm.proof, 'warm-up', { lambda: 4 });
}

// Keys.
const keyTimes = { prove: [] as number[], verify: [] as number[] };
for (let i = 0; i < 20; i++) {
  const [proof, prove] = time(() => proveKey(keys[0]!, `ctx|${i}`));
  const [ok, verify] = time(() => verifyKey(proof, `ctx|${i}`));
  if (!ok) throw new Error('key proof failed');
  keyTimes.prove.push(prove);
  keyTimes.verify.push(verify);
}

// Shuffles: each run shuffles the previous output (the first run shuffles the initial deck).
let deck: Ciphertext[] = initialDeck(CARDS);
const shuffleTimes: number[] = [];
const verifyTimes: number[] = [];
let sizes: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const context = `t|h|shuffle|${run}`;
  const [result, shuffle] = time((): ShuffleResult => shuffleDeck(deck, Y, context, { lambda: LAMBDA }));
  const [ok, verify] = time(() => verifyShuffle(deck, result.output, Y, result.proof, context, { lambda: LAMBDA }));
  if (!ok) throw new Error('shuffle proof failed');
  shuffleTimes.push(shuffle);
  verifyTimes.push(verify);
  sizes = [...sizes, JSON.stringify({ output: result.output, proof: result.proof }).length];
  deck = result.output;
}

// Shares.
const lookup = cardIndex(CARDS);
const shareTimes = { share: [] as number[], verify: [] as number[], own: [] as number[], open: [] as number[] };
for (let position = 0; position < 20; position++) {
  const ct = deck[position]!;
  const Ds: string[] = [];
  for (const [seat, key] of keys.entries()) {
    if (seat === 0) continue;
    const context = `t|h|share|${position}|${seat}`;
    const [share, s] = time(() => decryptionShare(key, ct, context));
    const [ok, v] = time(() => verifyShare(key.Y, ct, share, context));
    if (!ok) throw new Error('share proof failed');
    shareTimes.share.push(s);
    shareTimes.verify.push(v);
    Ds.push(share.D);
  }
  const [own, o] = time(() => ownShare(keys[0]!, ct));
  const [, open] = time(() => openCard(ct, [...Ds, own], lookup));
  shareTimes.own.push(o);
  shareTimes.open.push(open);
}
const shareBytes = JSON.stringify(decryptionShare(keys[1]!, deck[0]!, 'x')).length;

const shuffleMs = median(shuffleTimes);
const verifyMs = median(verifyTimes);
const bytes = median(sizes);
console.log(`engine-blind crypto, 52 cards, lambda = ${LAMBDA}, median of ${RUNS} runs`);
console.log(`  key:     prove ${fmt(median(keyTimes.prove))}, verify ${fmt(median(keyTimes.verify))}`);
console.log(`  shuffle: ${fmt(shuffleMs)} (runs: ${shuffleTimes.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`  verify:  ${fmt(verifyMs)} (runs: ${verifyTimes.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`  shuffle JSON (output + proof): ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB)`);
console.log(
  `  share:   make ${fmt(median(shareTimes.share))}, verify ${fmt(median(shareTimes.verify))}, own ${fmt(median(shareTimes.own))}, open (9 shares) ${fmt(median(shareTimes.open))}; ${shareBytes} bytes JSON`,
);
for (const players of [2, 6, 9]) {
  // Shuffles run one after another; each one's verification by the others can overlap the next shuffle.
  const sequential = players * shuffleMs;
  const verifierTotal = (players - 1) * verifyMs;
  const tableVerify = players * verifyMs;
  const handBytes = players * bytes;
  console.log(
    `  ${players} players: shuffles in turn ${(sequential / 1000).toFixed(2)} s; a player verifies the others' in ${(verifierTotal / 1000).toFixed(2)} s; the table verifies all in ${(tableVerify / 1000).toFixed(2)} s; shuffle traffic ${(handBytes / 1024).toFixed(0)} KiB per hand`,
  );
}
