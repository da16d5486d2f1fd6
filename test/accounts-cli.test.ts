// `npm run accounts`: an operator creates load accounts directly in Postgres, hashed and granted as the
// lobby's sign-up does, so that a load run logs in instead of signing everyone up.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LobbyApiError, LobbyClient } from '@felt/client';
import { accountBalance, ledgerTotals, walletAccount } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/index.js';

const script = fileURLToPath(new URL('../scripts/accounts.ts', import.meta.url));
const SUMMARY =
  /^ACCOUNTS created=(\d+) existing=(\d+) failed=(\d+) prefix=(\S+) first=(\S+) last=(\S+) grant=(\d+) seconds=\d+\.\d$/;

interface Run {
  readonly code: number | null;
  readonly stdout: string[];
  readonly stderr: string[];
}

function accounts(env: Record<string, string>, args: string[]): Promise<Run> {
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

function summary(run: Run): {
  created: number;
  existing: number;
  failed: number;
  prefix: string;
  first: string;
  last: string;
  grant: number;
} {
  expect(run.code, run.stderr.join('\n')).toBe(0);
  expect(run.stdout).toHaveLength(1);
  const m = SUMMARY.exec(run.stdout[0]!);
  expect(m, run.stdout[0]).not.toBeNull();
  return {
    created: Number(m![1]),
    existing: Number(m![2]),
    failed: Number(m![3]),
    prefix: m![4]!,
    first: m![5]!,
    last: m![6]!,
    grant: Number(m![7]),
  };
}

describe('npm run accounts', () => {
  let cluster: Cluster;
  let env: Record<string, string>;

  beforeAll(async () => {
    // The lobby alone: the accounts must work for its real login. No bankroll, so every grant is a sign-up's.
    cluster = await Cluster.start({ gateways: 0, workers: 0, lobby: true, bankroll: 0n });
    env = { DATABASE_URL: cluster.db.url };
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const wallets = async (prefix: string, count: number): Promise<bigint[]> => {
    const users = await cluster.db.prisma.user.findMany({
      where: { name: { in: Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`) } },
      select: { id: true, name: true },
      orderBy: { name: 'asc' },
    });
    return Promise.all(users.map((u) => accountBalance(cluster.db.prisma, walletAccount(u.id))));
  };

  it('creates N accounts with the sign-up grant, and creates nothing twice when run again', async () => {
    const first = summary(await accounts(env, ['--create', '3', '--prefix', 'acc-']));
    expect(first).toEqual({
      created: 3,
      existing: 0,
      failed: 0,
      prefix: 'acc-',
      first: 'acc-1',
      last: 'acc-3',
      grant: 10_000,
    });
    expect(await wallets('acc-', 3)).toEqual([10_000n, 10_000n, 10_000n]);
    // The lobby's scrypt format and parameters (services/lobby passwords.ts).
    const hashes = await cluster.db.prisma.user.findMany({
      where: { name: { startsWith: 'acc-' } },
      select: { passwordHash: true },
    });
    for (const h of hashes) expect(h.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);

    // Again, asking for two more: only those are made; the first three keep their one grant.
    const again = summary(await accounts(env, ['--create', '5', '--prefix', 'acc-']));
    expect(again).toMatchObject({ created: 2, existing: 3, failed: 0, last: 'acc-5' });
    expect(await cluster.db.prisma.user.count({ where: { name: { startsWith: 'acc-' } } })).toBe(5);
    expect(await wallets('acc-', 5)).toEqual(Array(5).fill(10_000n));
    const totals = await ledgerTotals(cluster.db.prisma);
    expect(totals.granted).toBe(50_000n);
  });

  it('makes accounts that log in through the lobby with the password scheme, and only with it', async () => {
    const lobbyUrl = cluster.lobby!.url;
    // acc-1 … acc-5 from the test above, under the default scheme (one password for all).
    for (const name of ['acc-1', 'acc-5']) {
      const lobby = new LobbyClient({ baseUrl: lobbyUrl });
      const session = await lobby.login(name, 'felt-load-password');
      expect(session.user.name).toBe(name);
      expect(session.wallet).toBe(10_000);
      expect(lobby.cookie).toMatch(/^felt_session=./);
    }
    const refused = (name: string, password: string): Promise<unknown> =>
      new LobbyClient({ baseUrl: lobbyUrl }).login(name, password).then(
        () => undefined,
        (err: unknown) => err,
      );
    const wrong = await refused('acc-2', 'not-the-password');
    expect(wrong).toBeInstanceOf(LobbyApiError);
    expect((wrong as LobbyApiError).code).toBe('invalid_credentials');

    // A password per account, from the environment, and a grant of its own.
    const custom = summary(
      await accounts({ ...env, FELT_LOAD_PASSWORD_SCHEME: 'op-secret-{n}/{name}' }, [
        '--create',
        '2',
        '--prefix',
        'kx_',
        '--grant',
        '500',
      ]),
    );
    expect(custom).toMatchObject({ created: 2, existing: 0, grant: 500 });
    const lobby = new LobbyClient({ baseUrl: lobbyUrl });
    expect((await lobby.login('kx_2', 'op-secret-2/kx_2')).wallet).toBe(500);
    expect(((await refused('kx_2', 'op-secret-1/kx_1')) as LobbyApiError).code).toBe('invalid_credentials');
  });

  it('refuses bad arguments with usage and exit 2, creating nothing', async () => {
    const before = await cluster.db.prisma.user.count();
    const cases: [string[], RegExp][] = [
      [[], /--create N is required/],
      [['--create', '0'], /--create: expected 1\.\.100000, got 0/],
      [['--create', 'ten'], /--create: expected a whole number/],
      [['--create', '2', '--prefix', 'bad prefix'], /--prefix: .*letters, digits/],
      [['--create', '2', '--password-scheme', '{name}'], /--password-scheme: .*password of 6 characters/],
      [['--create', '2', '--password-scheme', '{user}-long-enough'], /unknown placeholder \{user\}/],
      [['--create', '2', '--grant', '1.5'], /--grant: expected a whole number/],
      [['--create', '2', '--what'], /Unknown option '--what'/],
    ];
    const runs = await Promise.all(cases.map(([args]) => accounts(env, args)));
    runs.forEach((run, i) => {
      const [args, message] = cases[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr[0], args.join(' ')).toMatch(message);
      expect(
        run.stderr.find((l) => l.startsWith('usage: npm run accounts')),
        args.join(' '),
      ).toBeDefined();
    });
    expect(await cluster.db.prisma.user.count()).toBe(before);
  });
});
