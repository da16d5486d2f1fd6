import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify, type VerifyIo } from '../src/cli/verify-command.js';

const REVEALS = fileURLToPath(new URL('fixtures/reveals.json', import.meta.url));
const DRAWS = fileURLToPath(new URL('fixtures/draw-reshuffles.json', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/felt.js', import.meta.url));
const records = (): Record<string, unknown>[] => JSON.parse(readFileSync(REVEALS, 'utf8')) as Record<string, unknown>[];

/** A record as the lobby's history serves it to a player who did not see `indices`: those cards null. */
function withholding(record: Record<string, unknown>, indices: readonly number[]): Record<string, unknown> {
  const dealt = record.dealt as { index: number; card: string }[];
  return { ...record, dealt: dealt.map((d) => (indices.includes(d.index) ? { index: d.index, card: null } : d)) };
}

async function run(
  argv: string[],
  stdin = '',
  extra: Partial<VerifyIo> = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runVerify(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    readFile: (p) => readFile(p, 'utf8'),
    readStdin: () => Promise.resolve(stdin),
    env: {},
    ...extra,
  });
  return { code, out, err };
}

describe('felt verify (in-process)', () => {
  it('verifies files of records and arrays, one line per hand, exit 0', async () => {
    const { code, out } = await run([REVEALS, DRAWS]);
    expect(code).toBe(0);
    expect(out.filter((l) => l.startsWith('ok    '))).toHaveLength(6);
    expect(out.at(-1)).toBe('6 hands: 6 ok, 0 failed');
    expect(out.some((l) => l.includes('no client seed'))).toBe(true);
  });

  it('names each failed check and exits 1', async () => {
    const tampered = records();
    (tampered[0]!.dealt as { card: string }[])[3]!.card = 'As';
    tampered[2]!.client_seeds = [];
    const { code, out } = await run(['-'], JSON.stringify(tampered));
    expect(code).toBe(1);
    expect(out).toContain(`FAIL  ${tampered[0]!.hand_id as string}  card_mismatch`);
    expect(out.find((l) => l.startsWith(`FAIL  ${tampered[2]!.hand_id as string}`))).toContain('deck_seed_mismatch');
    expect(out.some((l) => /card_mismatch: index 3 is As in the record but \w\w in the deck/.test(l))).toBe(true);
    expect(out.at(-1)).toBe('4 hands: 2 ok, 2 failed');
  });

  it("checks the commit seen before the deal and the player's own seed", async () => {
    const [record] = records();
    const stdin = JSON.stringify(record);
    const seat = (record!.client_seeds as { seat: number; seed: string }[])[0]!;
    expect(
      (
        await run(
          ['--commit', record!.seed_commit as string, '--seat', `${seat.seat}`, '--seed', seat.seed, '-'],
          stdin,
        )
      ).code,
    ).toBe(0);
    const wrongCommit = await run(['--commit', `sha256:${'ab'.repeat(32)}`, '-'], stdin);
    expect(wrongCommit.code).toBe(1);
    expect(wrongCommit.out.join('\n')).toContain('the commit received before the deal');
    const notMine = await run(['--seat', '9', '--seed', 'cd'.repeat(32), '-'], stdin);
    expect(notMine.code).toBe(1);
    expect(notMine.out[0]).toContain('own_seed_missing');
  });

  it('accepts withheld cards, says how many, and still fails a wrong shown card', async () => {
    const [record] = records();
    const dealt = (record!.dealt as unknown[]).length;
    const { code, out } = await run(['-'], JSON.stringify(withholding(record!, [0, 1, 3])));
    expect(code).toBe(0);
    expect(out[0]).toMatch(
      new RegExp(`^ok    ${record!.hand_id as string}  \\w+  ${dealt - 3} cards \\(3 cards withheld\\), `),
    );
    const one = await run(['-'], JSON.stringify(withholding(record!, [1])));
    expect(one.out[0]).toContain(`${dealt - 1} cards (1 card withheld), `);

    const tampered = withholding(record!, [0, 1, 3]);
    (tampered.dealt as { index: number; card: string | null }[])[2]!.card = 'As';
    const bad = await run(['-'], JSON.stringify(tampered));
    expect(bad.code).toBe(1);
    expect(bad.out[0]).toBe(`FAIL  ${record!.hand_id as string}  card_mismatch`);
    expect(bad.out.some((l) => /card_mismatch: index 2 is As in the record but \w\w in the deck/.test(l))).toBe(true);

    const json = await run(['--json', '-'], JSON.stringify(withholding(record!, [0, 1, 3])));
    const parsed = JSON.parse(json.out.join('\n')) as { outcomes: { result: { cardsWithheld: number } }[] };
    expect(parsed.outcomes[0]!.result.cardsWithheld).toBe(3);
  });

  it('a non-object entry fails as unusable without stopping the rest', async () => {
    const { code, out } = await run(['-'], JSON.stringify([records()[0], 42]));
    expect(code).toBe(1);
    expect(out).toContain('FAIL  stdin[1]  unusable: a reveal record must be a JSON object');
    expect(out.at(-1)).toBe('2 hands: 1 ok, 1 failed');
  });

  it('prints structured results with --json', async () => {
    const { code, out } = await run(['--json', REVEALS]);
    expect(code).toBe(0);
    const parsed = JSON.parse(out.join('\n')) as {
      hands: number;
      failed: number;
      outcomes: { result: { ok: boolean } }[];
    };
    expect(parsed.hands).toBe(4);
    expect(parsed.failed).toBe(0);
    expect(parsed.outcomes.every((o) => o.result.ok)).toBe(true);
  });

  it('exits 2 on unusable input and bad usage', async () => {
    expect((await run(['-'], '{not json')).code).toBe(2);
    expect((await run(['/nonexistent/reveals.json'])).code).toBe(2);
    expect((await run([])).code).toBe(2);
    expect((await run(['--bogus', REVEALS])).code).toBe(2);
    expect((await run(['--seat', '1', REVEALS])).code).toBe(2);
    expect((await run(['--commit', 'sha256:zz', '-'], JSON.stringify(records()[0]))).code).toBe(2);
    const many = await run(['--commit', records()[0]!.seed_commit as string, REVEALS]);
    expect(many.code).toBe(2);
    expect(many.err[0]).toContain('single hand');
    expect((await run(['-'], '[]')).code).toBe(2);
  });
});

describe('felt verify against a lobby history API', () => {
  let server: Server;
  let base: string;
  const seen: { url: string | undefined; cookie: string | undefined }[] = [];

  beforeAll(async () => {
    const byId = new Map(records().map((r) => [r.hand_id as string, r]));
    server = createServer((req, res) => {
      seen.push({ url: req.url, cookie: req.headers.cookie });
      const m = /^\/api\/hands\/([^/]+)\/reveal$/.exec(req.url ?? '');
      const record = m ? byId.get(decodeURIComponent(m[1]!)) : undefined;
      if (!record) {
        res.writeHead(404).end();
        return;
      }
      // As services/lobby serves it: the cards this viewer did not see are null, and listed.
      const withheld = [0, 1];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ reveal: withholding(record, withheld), withheld }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('fetches GET <lobby>/api/hands/<id>/reveal with the session cookie and verifies it', async () => {
    const handId = records()[1]!.hand_id as string;
    const { code, out } = await run(['--lobby', `${base}/`, '--hand', handId, '--session', 'tok123']);
    expect(code).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^ok    ${handId}  .*\\(2 cards withheld\\)`));
    expect(seen.at(-1)).toEqual({ url: `/api/hands/${handId}/reveal`, cookie: 'felt_session=tok123' });
  });

  it('takes the session from FELT_SESSION and a plain URL as a source', async () => {
    const handId = records()[0]!.hand_id as string;
    const { code } = await run([`${base}/api/hands/${handId}/reveal`], '', { env: { FELT_SESSION: 'envtok' } });
    expect(code).toBe(0);
    expect(seen.at(-1)?.cookie).toBe('felt_session=envtok');
  });

  it('an unknown hand is unusable input (exit 2), not a pass', async () => {
    const { code, err } = await run(['--lobby', base, '--hand', '00000000-0000-4000-8000-00000000dead']);
    expect(code).toBe(2);
    expect(err[0]).toContain('HTTP 404');
  });
});

describe('the built felt binary', () => {
  function felt(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
      });
      child.stdin?.end(stdin ?? '');
    });
  }

  it('exists (run `npx tsc -b packages/client` first)', () => {
    expect(existsSync(fileURLToPath(new URL('../dist/cli/felt.js', import.meta.url)))).toBe(true);
  });

  it('verifies a file and stdin, and exits non-zero on a tampered record', async () => {
    const good = await felt(['verify', DRAWS]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('2 hands: 2 ok, 0 failed');
    const seen = await felt(['verify', '-'], JSON.stringify(withholding(records()[0]!, [0, 1, 3])));
    expect(seen.code).toBe(0);
    expect(seen.stdout).toContain('(3 cards withheld)');

    const tampered = records()[0]!;
    tampered.server_seed = 'ee'.repeat(32);
    const bad = await felt(['verify', '-'], JSON.stringify(tampered));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('commit_mismatch');
    expect(bad.stdout).toMatch(/card_mismatch: \d+ more cards differ/);
  });

  it('refuses an unknown command', async () => {
    const result = await felt(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command');
  });
});
