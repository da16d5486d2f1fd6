/**
 * End to end, through the built binaries: `felt-sim --reveals FILE` (the dealer side) writes reveal records
 * and `felt verify FILE` (the independent verifier) accepts every one, and rejects the file once a card in
 * it is altered. Needs `npx tsc -b packages/engine packages/client` (npm test builds first).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const FELT = fileURLToPath(new URL('../bin/felt.js', import.meta.url));
const FELT_SIM = fileURLToPath(new URL('../../engine/bin/felt-sim.js', import.meta.url));

function run(bin: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
    });
  });
}

describe('felt-sim --reveals | felt verify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'felt-reveals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every simulated hand verifies, both with and without client seeds', { timeout: 120_000 }, async () => {
    const file = join(dir, 'reveals.json');
    const sim = await run(FELT_SIM, [
      ...['--game', 'holdem', '--limit', 'nl', '--players', '2..9', '--hands', '200', '--seed', 'reveals-e2e'],
      ...['--reveals', file],
    ]);
    expect(sim.code, sim.stderr).toBe(0);
    const records = JSON.parse(readFileSync(file, 'utf8')) as { client_seeds: unknown[]; dealt: unknown[] }[];
    expect(records).toHaveLength(200);
    expect(records.some((r) => r.client_seeds.length === 0)).toBe(true);
    expect(records.some((r) => r.client_seeds.length > 0)).toBe(true);

    const verified = await run(FELT, ['verify', file]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toContain('200 hands: 200 ok, 0 failed');

    const tampered = records.map((r) => structuredClone(r)) as { dealt: { index: number; card: string }[] }[];
    const victim = tampered[17]!;
    const [a, b] = [victim.dealt[0]!, victim.dealt[1]!];
    [a.card, b.card] = [b.card, a.card];
    const tamperedFile = join(dir, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify(tampered));
    const rejected = await run(FELT, ['verify', tamperedFile]);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain('200 hands: 199 ok, 1 failed');
    expect(rejected.stdout).toMatch(/card_mismatch: index 0 is \w\w in the record but \w\w in the deck/);
  });
});
