// The pure parts of `npm run bench` (scripts/bench/): percentiles and goals, sizes from the
// environment, /proc and Prometheus parsing, and the cpuprofile summariser. No timing is asserted.
import { describe, expect, it } from 'vitest';
import { BenchConfigError, envInt, envPairs, goalFields, metricSum, percentile } from '../scripts/bench/measure.js';
import { parseProcStat, parseVmRss } from '../scripts/bench/proc-cpu.js';
import { originOf, summarizeProfile, type CpuProfile } from '../scripts/bench/profile-top.js';

describe('percentile', () => {
  it('is nearest-rank and does not depend on the order of the samples', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 90)).toBe(9);
    expect(percentile(xs, 99)).toBe(10);
    expect(percentile(xs, 100)).toBe(10);
    expect(percentile(xs, 1)).toBe(1);
    expect(percentile([7], 50)).toBe(7);
    expect(xs[0]).toBe(5);
  });

  it('refuses no samples and a percent out of range', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('goalFields', () => {
  it('says ok on the right side of the goal, the goal included, and never throws on a miss', () => {
    expect(goalFields(30, 30, 'at_most')).toEqual({ ratio: '30.000', goal: '<=30', ok: 'true' });
    expect(goalFields(30.5, 30, 'at_most').ok).toBe('false');
    expect(goalFields(0.5, 0.5, 'at_least')).toEqual({ ratio: '0.500', goal: '>=0.5', ok: 'true' });
    expect(goalFields(0.49, 0.5, 'at_least').ok).toBe('false');
    expect(goalFields(NaN, 30, 'at_most')).toEqual({ ratio: 'na', goal: '<=30', ok: 'false' });
    expect(goalFields(Infinity, 0.5, 'at_least').ok).toBe('false');
  });
});

describe('envInt', () => {
  it('takes a default when unset and refuses a value that is set but wrong', () => {
    expect(envInt('N', 4, 1, {})).toBe(4);
    expect(envInt('N', 4, 1, { N: ' ' })).toBe(4);
    expect(envInt('N', 4, 1, { N: '12' })).toBe(12);
    expect(envInt('N', 4, 0, { N: '0' })).toBe(0);
    expect(() => envInt('N', 4, 1, { N: '0' })).toThrow(BenchConfigError);
    expect(() => envInt('N', 4, 1, { N: '2.5' })).toThrow(/N must be an integer >= 1/);
    expect(() => envInt('N', 4, 1, { N: 'lots' })).toThrow(BenchConfigError);
  });
});

describe('envPairs', () => {
  it('reads NAME=value pairs split by spaces, a value with = in it whole, and none when unset', () => {
    expect(envPairs('E', {})).toEqual({});
    expect(envPairs('E', { E: '  ' })).toEqual({});
    expect(envPairs('E', { E: ' PERSISTER_BATCH_WAIT_MS=250  LOG_LEVEL=warn ' })).toEqual({
      PERSISTER_BATCH_WAIT_MS: '250',
      LOG_LEVEL: 'warn',
    });
    expect(envPairs('E', { E: 'OTEL_RESOURCE_ATTRIBUTES=a=1,b=2 EMPTY=' })).toEqual({
      OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=2',
      EMPTY: '',
    });
  });

  it('refuses a pair without a name, or with a name that is not an environment name', () => {
    expect(() => envPairs('E', { E: 'LOG_LEVEL' })).toThrow(BenchConfigError);
    expect(() => envPairs('E', { E: '=1' })).toThrow(/E: "=1" is not NAME=value/);
    expect(() => envPairs('E', { E: 'log-level=1' })).toThrow(BenchConfigError);
  });
});

describe('/proc parsing', () => {
  it('reads utime and stime after a command name with spaces and parentheses', () => {
    const fields = ['S', '1', '2', '3', '0', '-1', '4194560', '100', '0', '0', '0', '1234', '567', '0', '0'];
    expect(parseProcStat(`4242 (node (a) b) ${fields.join(' ')} 20 0 11 0 999\n`)).toEqual({
      utimeTicks: 1234,
      stimeTicks: 567,
    });
    expect(() => parseProcStat('garbage')).toThrow();
  });

  it('reads VmRSS in bytes', () => {
    expect(parseVmRss('Name:\tnode\nVmPeak:\t  2000 kB\nVmRSS:\t  150236 kB\nThreads:\t11\n')).toBe(150236 * 1024);
    expect(() => parseVmRss('Name:\tnode\n')).toThrow(/VmRSS/);
  });
});

describe('metricSum', () => {
  const page = [
    '# HELP felt_worker_hands_total Hands',
    '# TYPE felt_worker_hands_total counter',
    'felt_worker_hands_total{event="started"} 12',
    'felt_worker_hands_total{event="completed"} 10',
    'felt_worker_hands_total_extra{event="completed"} 99',
    'felt_worker_commands_total{type="action",result="ok"} 7',
    'felt_worker_commands_total{type="sit_in",result="ok"} 2',
    'felt_worker_commands_total{type="action",result="not_your_turn"} 1',
    'felt_gateway_messages_out_total 1234.5',
  ].join('\n');

  it('sums the samples whose labels match, and nothing of a longer name', () => {
    expect(metricSum(page, 'felt_worker_hands_total', { event: 'completed' })).toBe(10);
    expect(metricSum(page, 'felt_worker_hands_total')).toBe(22);
    expect(metricSum(page, 'felt_worker_commands_total', { result: 'ok' })).toBe(9);
    expect(metricSum(page, 'felt_gateway_messages_out_total')).toBe(1234.5);
    expect(metricSum(page, 'felt_absent_total')).toBe(0);
  });
});

describe('summarizeProfile', () => {
  // root → main → (hot, cold); plus V8's idle and GC pseudo-nodes. Samples every 1 ms (1000 µs).
  const frame = (functionName: string, url = '', lineNumber = 0) => ({
    functionName,
    url,
    lineNumber,
    columnNumber: 0,
  });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
      { id: 2, callFrame: frame('main', 'file:///repo/services/table-worker/dist/main.js', 9), children: [3, 4] },
      { id: 3, callFrame: frame('hot', 'file:///repo/node_modules/@scope/pkg/lib.js', 41) },
      { id: 4, callFrame: frame('', 'node:internal/streams/writable', 4) },
      { id: 5, callFrame: frame('(idle)') },
      { id: 6, callFrame: frame('(garbage collector)') },
    ],
    startTime: 0,
    endTime: 10_000,
    // Ten samples of 1 ms: hot ×4, idle ×2 (not busy), main ×1, anonymous ×1, GC ×2.
    samples: [3, 3, 5, 3, 2, 4, 6, 6, 3, 5],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };

  it('ranks functions by self time as a share of the busy (non-idle) time', () => {
    const s = summarizeProfile(profile, { root: '/repo' });
    expect(s.totalMs).toBe(10);
    expect(s.busyMs).toBe(8);
    expect(s.functions.map((f) => [f.key, f.ms, f.percent])).toEqual([
      ['hot node_modules/@scope/pkg/lib.js:42', 4, 50],
      ['(garbage collector)', 2, 25],
      ['(anonymous) node:internal/streams/writable:5', 1, 12.5],
      ['main services/table-worker/dist/main.js:10', 1, 12.5],
    ]);
    expect(s.origins).toEqual([
      { origin: '@scope/pkg', ms: 4, percent: 50 },
      { origin: '(garbage collector)', ms: 2, percent: 25 },
      { origin: 'node: internals', ms: 1, percent: 12.5 },
      { origin: 'services/table-worker', ms: 1, percent: 12.5 },
    ]);
    expect(summarizeProfile(profile, { top: 1 }).functions).toHaveLength(1);
  });

  it('refuses a profile whose samples and deltas disagree', () => {
    expect(() => summarizeProfile({ ...profile, timeDeltas: [0] })).toThrow();
  });

  it('names where code comes from', () => {
    expect(originOf('x', 'file:///a/node_modules/zod/v4/core.js')).toBe('zod');
    expect(originOf('x', 'file:///a/node_modules/.pnpm/node_modules/@prisma/client/runtime/c.js')).toBe(
      '@prisma/client',
    );
    expect(originOf('x', 'file:///a/packages/protocol/dist/state-hash.js')).toBe('@felt/protocol');
    expect(originOf('x', 'file:///a/services/persister/dist/main.js')).toBe('services/persister');
    expect(originOf('stringify', '')).toBe('(V8 builtins and native)');
    expect(originOf('(program)', '')).toBe('(program)');
  });
});
