/*
 * The contract between `npm run bench` (scripts/bench.ts) and its modules. A module is any file
 * scripts/bench/<name>.bench.ts exporting `run`; the runner finds it by that suffix, so adding a bench is
 * adding a file. Figures are printed one per line as `BENCH <figure> key=value ...` for tools to read.
 */

export type BenchFields = Readonly<Record<string, number | string>>;

export interface BenchReporter {
  /** One machine-readable line: `BENCH <figure> key=value ...`. */
  figure(figure: string, fields: BenchFields): void;
  /** A human note, printed as `# ...`. */
  info(text: string): void;
}

export interface BenchModule {
  run(report: BenchReporter): void | Promise<void>;
}

/** mulberry32: a seeded stream, so every run measures the same inputs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `hands` deals of `size` distinct card codes (0..51) each, flat. */
export function seededDeals(seed: number, hands: number, size: number): Uint8Array {
  const next = seededRandom(seed);
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

export interface Contestant {
  readonly name: string;
  /** Runs the whole workload once and returns a checksum (kept so the work cannot be optimised away). */
  readonly pass: () => number;
}

export interface Rates {
  /** Workload items per second, best round per contestant. */
  readonly best: Readonly<Record<string, number>>;
  readonly median: Readonly<Record<string, number>>;
  readonly rounds: number;
}

/**
 * Warms every contestant up, then times `rounds` interleaved passes (a, b, a, b, ...) so that both see
 * the same machine load. Reports the best and the median rate per contestant.
 */
export function race(contestants: readonly Contestant[], items: number, rounds = 5, warmups = 2): Rates {
  let sink = 0;
  for (let w = 0; w < warmups; w++) for (const c of contestants) sink += c.pass();
  const times = new Map<string, number[]>(contestants.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of contestants) {
      const start = process.hrtime.bigint();
      sink += c.pass();
      times.get(c.name)!.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
  }
  if (sink === 0.5) console.log('unreachable', sink); // the checksum is used
  const best: Record<string, number> = {};
  const median: Record<string, number> = {};
  for (const [name, t] of times) {
    const sorted = t.slice().sort((a, b) => a - b);
    best[name] = items / sorted[0]!;
    median[name] = items / sorted[Math.floor(sorted.length / 2)]!;
  }
  return { best, median, rounds };
}

export const perSecond = (rate: number): number => Math.round(rate);
export const ratio = (a: number, b: number): string => (a / b).toFixed(3);
