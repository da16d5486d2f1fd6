// `npm run demo` end to end: the real script, its own local cluster, two tables of three bots and a
// spectator each, with churn. Its one summary line must report zero errors, mismatches and violations.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function runDemo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function parseSummary(stdout: string): Record<string, number> {
  const lines = stdout.split('\n').filter((l) => l.startsWith('DEMO '));
  expect(lines, stdout).toHaveLength(1);
  const fields = Object.fromEntries(
    lines[0]!
      .slice(5)
      .split(' ')
      .map((kv) => kv.split('=') as [string, string])
      .map(([k, v]) => [k, Number(v)]),
  );
  expect(Object.keys(fields)).toEqual([
    'tables',
    'hands',
    'actions',
    'errors',
    'hash_mismatches',
    'privacy_violations',
    'resyncs',
    'p50_action_ms',
    'p99_action_ms',
  ]);
  return fields;
}

describe('npm run demo', () => {
  it('2 tables × 3 bots + a spectator, 3 hands each with churn: one summary line, all zero counts, exit 0', async () => {
    const { code, stdout, stderr } = await runDemo([
      '--tables',
      '2',
      '--players',
      '3',
      '--hands',
      '3',
      '--churn',
      '--timeout',
      '90',
      '--seed',
      '7',
    ]);
    const s = parseSummary(stdout);
    expect({ ...s, code }, stderr.split('\n').slice(-40).join('\n')).toMatchObject({
      code: 0,
      tables: 2,
      errors: 0,
      hash_mismatches: 0,
      privacy_violations: 0,
    });
    expect(s.hands).toBeGreaterThanOrEqual(6);
    expect(s.actions).toBeGreaterThan(0);
    expect(s.p99_action_ms).toBeGreaterThanOrEqual(s.p50_action_ms!);
    // Progress was shown while it ran.
    expect(stderr).toMatch(/\[demo\] \d+s hands \d+\/6/);
  }, 240_000);

  it('--tournament mtt: 12 bots on tables of 9 to a winner, one TOURNAMENT line, nothing wrong, exit 0', async () => {
    const { code, stdout, stderr } = await runDemo([
      '--tournament',
      'mtt',
      '--players',
      '12',
      '--workers',
      '2',
      '--gateways',
      '1',
      '--seed',
      '11',
      '--quiet',
    ]);
    const lines = stdout.split('\n').filter((l) => l.startsWith('TOURNAMENT '));
    expect(lines, stderr.split('\n').slice(-40).join('\n')).toHaveLength(1);
    const fields = Object.fromEntries(
      lines[0]!
        .slice(11)
        .split(' ')
        .map((kv) => kv.split('=') as [string, string])
        .map(([k, v]) => [k, Number(v)]),
    );
    expect(Object.keys(fields)).toEqual([
      'players',
      'tables_peak',
      'moves',
      'breaks',
      'levels',
      'finished',
      'prize_pool',
      'paid',
      'chips_delta',
      'errors',
    ]);
    expect({ ...fields, code }).toMatchObject({
      code: 0,
      players: 12,
      tables_peak: 2,
      finished: 1,
      prize_pool: 1_200,
      paid: 1_200,
      chips_delta: 0,
      errors: 0,
    });
    expect(fields.levels).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('refuses bad arguments with usage and exit 2', async () => {
    const { code, stderr, stdout } = await runDemo(['--tables', 'zero']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--tables must be an integer/);
    expect(stdout).not.toMatch(/^DEMO /m);
    const t = await runDemo(['--tournament', 'wsop']);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/--tournament is sng or mtt/);
  }, 30_000);
});
