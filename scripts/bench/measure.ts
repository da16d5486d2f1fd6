/*
 * Small pure helpers the bench modules share: percentiles, goals, sizes from the environment,
 * Prometheus samples.
 * Tested in test/bench-helpers.test.ts.
 */

/** Nearest-rank percentile (the smallest sample with at least p % of the samples at or below it). */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be within (0, 100], got ${p}`);
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Which side of the goal a ratio must be on. */
export type GoalKind = 'at_most' | 'at_least';

/** The `ratio=… goal=… ok=…` fields of a BENCH line. `ok` is false (never an error) when the goal is missed. */
export function goalFields(ratio: number, goal: number, kind: GoalKind): { ratio: string; goal: string; ok: string } {
  const ok = Number.isFinite(ratio) && (kind === 'at_most' ? ratio <= goal : ratio >= goal);
  return { ratio: fixed(ratio, 3), goal: `${kind === 'at_most' ? '<=' : '>='}${goal}`, ok: String(ok) };
}

/** `n` with `digits` decimals, or `na` when it is not a finite number. */
export function fixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'na';
}

export class BenchConfigError extends Error {
  override readonly name = 'BenchConfigError';
}

/**
 * A size from the environment (`FELT_BENCH_*`), an integer at least `min`; `fallback` when unset.
 * A value that is set but wrong is an error, not a silent default.
 */
export function envInt(
  name: string,
  fallback: number,
  min = 1,
  env: Readonly<Record<string, string | undefined>> = process.env,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min)
    throw new BenchConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

/**
 * `NAME=value` pairs, separated by spaces, from the environment variable `name`; none when unset.
 * FELT_BENCH_SERVICE_ENV is one: what every service of a bench's cluster gets over the bench's own
 * settings (`FELT_BENCH_SERVICE_ENV='PERSISTER_BATCH_WAIT_MS=250' npm run bench worker`), since the
 * services get no other variable of the bench's environment.
 */
export function envPairs(
  name: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of (env[name] ?? '').split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    if (!/^[A-Z_][A-Z0-9_]*$/.test(key)) {
      throw new BenchConfigError(`${name}: "${pair}" is not NAME=value (a NAME of capitals, digits and _)`);
    }
    pairs[key] = pair.slice(eq + 1);
  }
  return pairs;
}

/** The sum of every sample of `name` whose labels include `labels`, in a Prometheus text page. */
export function metricSum(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const close = line.lastIndexOf('}');
    const found: Record<string, string> = {};
    if (line[name.length] === '{') {
      for (const m of line.slice(name.length + 1, close).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) found[m[1]!] = m[2]!;
    }
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) {
      sum += Number(line.slice((line[name.length] === '{' ? close : name.length) + 1).trim());
    }
  }
  return sum;
}
