// `npm run load -- --play` against a real local cluster (docs/operations.md, "Load testing"): accounts
// made by `npm run accounts`, SDK bots seated through the lobby and playing real hands through a
// gateway for a few seconds. The run must play (hands and actions), fail nothing, print its LOAD line
// in the documented format and leave no room open. No timing is asserted: the latencies only have to be
// there.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN, waitFor } from './harness/index.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const LOAD_LINE =
  /^LOAD tables=(\d+) players=(\d+) hands=(\d+) actions=(\d+) hands_per_s=(\d+\.\d{2}) ack_p50_ms=(\d+\.\d) ack_p99_ms=(\d+\.\d) broadcast_p50_ms=(\d+\.\d) broadcast_p99_ms=(\d+\.\d) errors=(\d+)$/;

interface Run {
  readonly code: number | null;
  readonly stdout: string[];
  readonly stderr: string[];
}

/** Runs a TypeScript entry point of the repository (through tsx, so the sources under test) to its end. */
function run(entry: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const lines = (s: string): string[] => s.trim().split('\n').filter(Boolean);
      resolve({ code, stdout: lines(out), stderr: lines(err) });
    });
  });
}

describe('npm run load -- --play', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await Cluster.start({
      gateways: 1,
      workers: 1,
      lobby: true,
      persister: true,
      env: { FELT_HAND_PAUSE_MS: '200', FELT_SEED_WINDOW_MS: '300' },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('plays hands with SDK bots on accounts made by `npm run accounts` and prints the LOAD line', async () => {
    const made = await run('scripts/accounts.ts', ['--create', '6', '--prefix', 'load-'], {
      DATABASE_URL: cluster.db.url,
    });
    expect(made.code, made.stderr.join('\n')).toBe(0);
    expect(made.stdout[0]).toMatch(/^ACCOUNTS created=6 existing=0 failed=0 /);

    const load = await run(
      'loadtest/src/main.ts',
      [
        '--play',
        '--lobby',
        cluster.lobby!.url,
        '--tables',
        '2',
        '--players',
        '3',
        '--duration',
        '3',
        // Short thinks: the think timers are exercised and hands still finish within the run.
        '--think',
        '0-0.02',
        '--origin',
        TEST_ORIGIN,
        '--seed',
        '7',
      ],
      {},
    );
    const output = [...load.stdout, ...load.stderr].join('\n');
    expect(load.code, output).toBe(0);
    // The lobby handed out the gateway; every player logged in as load-1 … load-6 and joined.
    expect(load.stderr.join('\n')).toContain(`gateways from the lobby: ${cluster.gateways[0]!.wsUrl}`);
    expect(
      load.stderr.some((l) => /^load: 6\/6 players joined at 2 tables/.test(l)),
      output,
    ).toBe(true);
    expect(load.stdout).toHaveLength(1);
    const m = LOAD_LINE.exec(load.stdout[0]!);
    expect(m, load.stdout[0]).not.toBeNull();
    const [tables, players, hands, actions, handsPerS] = [1, 2, 3, 4, 5].map((i) => Number(m![i]));
    const errors = Number(m![10]);
    expect({ tables, players, errors }).toEqual({ tables: 2, players: 6, errors: 0 });
    expect(hands).toBeGreaterThan(0);
    expect(actions).toBeGreaterThan(0);
    expect(handsPerS).toBeGreaterThan(0);

    // The hosts closed their rooms: once the hands in progress ended, the tables closed and every seat was refunded.
    await waitFor(
      'the load rooms to close',
      async () =>
        (await cluster.db.prisma.room.count({ where: { status: { not: 'closed' } } })) === 0 &&
        (await cluster.db.prisma.membership.count({ where: { status: 'active' } })) === 0,
      30_000,
      200,
    );
  });
});
