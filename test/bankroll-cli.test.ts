// `npm run bankroll`: an operator funds the house bankroll bots buy in from (invariant 10 of
// docs/architecture.md), and reads it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, ledgerTotals, type TestDatabase } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/bankroll.ts', import.meta.url));

function bankroll(env: Record<string, string>, args: string[]): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, lines: out.trim().split('\n') }));
  });
}

describe('npm run bankroll', () => {
  let db: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('prints the balance and flows; --add funds it from the grant source, once per --key', async () => {
    expect(await bankroll(env, [])).toEqual({
      code: 0,
      lines: ['BANKROLL balance=0 funded=0 staked=0 returned=0 staked_24h=0'],
    });
    const first = await bankroll(env, ['--add', '250000', '--key', 'ops-2026-12-01']);
    expect(first.code).toBe(0);
    expect(first.lines).toEqual([
      'BANKROLL funded=250000 key=bankroll:ops-2026-12-01',
      'BANKROLL balance=250000 funded=250000 staked=0 returned=0 staked_24h=0',
    ]);
    // The same command again (a retry) funds nothing more.
    const again = await bankroll(env, ['--add', '250000', '--key', 'ops-2026-12-01']);
    expect(again.lines[0]).toBe('BANKROLL funded=250000 key=bankroll:ops-2026-12-01 replayed=true');
    expect(again.lines[1]).toBe('BANKROLL balance=250000 funded=250000 staked=0 returned=0 staked_24h=0');
    const totals = await ledgerTotals(db.prisma);
    expect(totals.granted).toBe(250000n);
    expect(totals.bankroll).toBe(250000n);
  });

  it('refuses bad arguments with usage and exit 2, changing nothing', async () => {
    for (const args of [['--add', '1e6'], ['--key', 'k'], ['--what']]) {
      const r = await bankroll(env, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.lines.at(-1)).toMatch(/^usage: npm run bankroll/);
    }
    expect((await ledgerTotals(db.prisma)).bankroll).toBe(250000n);
  });
});
