// `npm run tournaments`: an operator creates, lists and cancels tournaments; players find them in the
// running lobby and register through the SDK; a cancellation pays every entry back.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LobbyApiError, LobbyClient } from '@felt/client';
import { runAudit } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/index.js';

const script = fileURLToPath(new URL('../scripts/tournaments.ts', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string[];
  readonly stderr: string[];
}

function tournaments(env: Record<string, string>, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
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

const CREATED =
  /^TOURNAMENT created id=([0-9a-f-]{36}) format=(\S+) game=(\S+) buy_in=(\d+) fee=(\d+) entrants=(\d+)\.\.(\d+) starts_at=(\S+) name=(".*")$/;

describe('npm run tournaments', () => {
  let cluster: Cluster;
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await Cluster.start({ gateways: 0, workers: 0, lobby: true, bankroll: 0n });
    env = { DATABASE_URL: cluster.db.url };
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('creates a tournament players find in the lobby and register for; cancelling it refunds them', async () => {
    const startsAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const config = { name: 'Sunday 60', format: 'scheduled', startsAt, buyIn: 500, fee: 50, entrants: { max: 60 } };
    const created = await tournaments(env, ['--create', JSON.stringify(config)]);
    expect(created.code, created.stderr.join('\n')).toBe(0);
    const m = CREATED.exec(created.stdout[0] ?? '');
    expect(m, created.stdout[0]).not.toBeNull();
    const id = m![1]!;
    expect(m!.slice(2)).toEqual(['scheduled', 'holdem', '500', '50', '2', '60', startsAt, '"Sunday 60"']);

    const players = await Promise.all(
      ['ann', 'bob'].map(async (name) => {
        const lobby = new LobbyClient({ baseUrl: cluster.lobby!.url });
        await lobby.signup(`${name}_${Date.now().toString(36)}`, 'password-1');
        return lobby;
      }),
    );
    const listed = await players[0]!.listTournaments();
    expect(listed.find((t) => t.id === id)).toMatchObject({
      name: 'Sunday 60',
      buy_in: 500,
      fee: 50,
      max_entrants: 60,
    });
    for (const p of players) expect((await p.registerTournament(id)).wallet).toBe(10_000 - 550);

    const lines = await tournaments(env, ['--list']);
    expect(lines.code).toBe(0);
    expect(lines.stdout.find((l) => l.includes(id))).toMatch(/status=registering entrants=2 prize_pool=1000 /);

    const cancelled = await tournaments(env, ['--cancel', id]);
    expect(cancelled.stdout).toEqual([`TOURNAMENT cancelled id=${id} refunded=2 replayed=false`]);
    for (const p of players) expect((await p.me()).wallet).toBe(10_000);
    const refused = await players[0]!.registerTournament(id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LobbyApiError);
    expect((refused as LobbyApiError).code).toBe('tournament_closed');
    expect((await runAudit(cluster.db.prisma)).issues).toEqual([]);
  });

  it('refuses an invalid config, a start in the past and bad arguments with exit 2, writing nothing', async () => {
    const before = await cluster.db.prisma.tournament.count();
    const invalid = await tournaments(env, [
      '--create',
      JSON.stringify({ name: 'x', format: 'sit_and_go', buyIn: 10, fee: 11 }),
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toEqual(['tournaments: fee: at most the buy-in']);
    const past = await tournaments(env, [
      '--create',
      JSON.stringify({ name: 'x', format: 'scheduled', startsAt: '2020-01-01T00:00:00Z', buyIn: 10 }),
    ]);
    expect(past.code).toBe(2);
    expect(past.stderr).toEqual(['tournaments: startsAt: in the future']);
    expect((await tournaments(env, ['--create', '{not json'])).code).toBe(2);
    expect((await tournaments(env, ['--list', '--cancel', crypto.randomUUID()])).code).toBe(2);
    expect((await tournaments(env, ['--cancel', 'nope'])).code).toBe(2);
    expect(await cluster.db.prisma.tournament.count()).toBe(before);
    // A cancellation the database refuses is exit 1: no such tournament.
    const missing = await tournaments(env, ['--cancel', crypto.randomUUID()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr[0]).toMatch(/^tournaments: refused \(not_found\)/);
  });
});
