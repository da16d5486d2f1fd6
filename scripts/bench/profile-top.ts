/*
 * Reads a V8 .cpuprofile (`node --cpu-prof`) and prints where the process spent its CPU: the top
 * functions by self time and the same time grouped by where the code comes from (a package, a Felt
 * workspace, Node's internals, V8's builtins, the garbage collector). Percentages are of the busy
 * time: every sample but `(idle)`.
 *
 *   npx tsx scripts/bench/profile-top.ts <file.cpuprofile> [--top 25]
 *
 * `npm run bench worker` with FELT_BENCH_PROFILE=<dir> writes such profiles for the worker and the
 * persister and prints these summaries. The summariser is pure and tested in test/bench-helpers.test.ts.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

/** The parts of Chrome DevTools' Profile object that the summary reads. */
export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  /** `name file:line` (or the V8 pseudo-node's name, e.g. `(garbage collector)`). */
  readonly key: string;
  readonly functionName: string;
  readonly location: string;
  readonly origin: string;
  readonly ms: number;
  /** Percent of the busy (non-idle) time. */
  readonly percent: number;
}

export interface ProfileSummary {
  /** Wall time the profile covers. */
  readonly totalMs: number;
  /** Sampled time outside `(idle)`. */
  readonly busyMs: number;
  readonly functions: readonly SelfTime[];
  readonly origins: readonly { readonly origin: string; readonly ms: number; readonly percent: number }[];
}

const PSEUDO = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

/** Where a frame's code comes from: an npm package, a Felt workspace, Node, V8, or a V8 pseudo-node. */
export function originOf(functionName: string, url: string): string {
  if (url === '') {
    if (PSEUDO.has(functionName)) return functionName;
    return '(V8 builtins and native)';
  }
  if (url.startsWith('node:')) return 'node: internals';
  const path = url.startsWith('file://') ? url.slice('file://'.length) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? path);
  }
  const ws = /\/(packages|services)\/([^/]+)\//.exec(path);
  if (ws) return ws[1] === 'packages' ? `@felt/${ws[2]}` : `services/${ws[2]}`;
  if (/\/proto\//.test(path)) return '@felt/proto';
  if (/\/prisma\//.test(path)) return '@felt/db';
  return path;
}

/** The milliseconds each sample stands for: the time until the next sample (the last: until endTime). */
function sampleDurations(p: CpuProfile): number[] {
  const at: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) {
    t += d;
    at.push(t);
  }
  return at.map((ts, i) => Math.max(0, ((i + 1 < at.length ? at[i + 1]! : p.endTime) - ts) / 1000));
}

export function summarizeProfile(p: CpuProfile, options: { top?: number; root?: string } = {}): ProfileSummary {
  if (p.samples.length !== p.timeDeltas.length) throw new Error('a cpuprofile has one time delta per sample');
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const durations = sampleDurations(p);
  const self = new Map<string, { functionName: string; location: string; origin: string; ms: number }>();
  let idle = 0;
  let sampled = 0;
  p.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) throw new Error(`sample of unknown node ${id}`);
    const ms = durations[i]!;
    sampled += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' && url === '') {
      idle += ms;
      return;
    }
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    const shown = options.root && file.startsWith('/') ? relative(options.root, file) : file;
    const location = url === '' ? '' : `${shown}:${lineNumber + 1}`;
    const name = functionName === '' ? '(anonymous)' : functionName;
    const key = location === '' ? name : `${name} ${location}`;
    const entry = self.get(key) ?? { functionName: name, location, origin: originOf(functionName, url), ms: 0 };
    entry.ms += ms;
    self.set(key, entry);
  });
  const busy = sampled - idle;
  const pct = (ms: number): number => (busy > 0 ? (100 * ms) / busy : 0);
  const all = [...self.entries()]
    .map(([key, e]) => ({ key, ...e, percent: pct(e.ms) }))
    .sort((a, b) => b.ms - a.ms || a.key.localeCompare(b.key));
  const origins = new Map<string, number>();
  for (const f of all) origins.set(f.origin, (origins.get(f.origin) ?? 0) + f.ms);
  return {
    totalMs: (p.endTime - p.startTime) / 1000,
    busyMs: busy,
    functions: all.slice(0, options.top ?? 25),
    origins: [...origins.entries()]
      .map(([origin, ms]) => ({ origin, ms, percent: pct(ms) }))
      .sort((a, b) => b.ms - a.ms || a.origin.localeCompare(b.origin)),
  };
}

/** The summary as text lines, for a terminal or a bench note. */
export function formatSummary(title: string, s: ProfileSummary, originsShown = 12): string[] {
  const pad = (n: number, w: number, d = 1): string => n.toFixed(d).padStart(w);
  return [
    `${title}: ${pad(s.busyMs, 0, 0)} ms busy of ${pad(s.totalMs, 0, 0)} ms profiled`,
    `  top ${s.functions.length} functions by self time (% of busy):`,
    ...s.functions.map((f) => `  ${pad(f.percent, 5)}% ${pad(f.ms, 8)} ms  ${f.key}  [${f.origin}]`),
    `  by origin:`,
    ...s.origins.slice(0, originsShown).map((o) => `  ${pad(o.percent, 5)}% ${pad(o.ms, 8)} ms  ${o.origin}`),
  ];
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' }, help: { type: 'boolean', short: 'h' } },
  });
  const top = Number(values.top);
  if (values.help || positionals.length === 0 || !Number.isSafeInteger(top) || top < 1) {
    process.stderr.write('usage: tsx scripts/bench/profile-top.ts <file.cpuprofile> ... [--top 25]\n');
    return values.help ? 0 : 2;
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const file of positionals) {
    const lines = formatSummary(file, summarizeProfile(readProfile(file), { top, root }));
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
