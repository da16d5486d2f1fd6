/**
 * The built felt-sim binary, run as `npx felt-sim` would run it (needs `npm run build` first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSimArgs, runSim, UsageError } from '../src/cli/felt-sim.js';
import { type toOhh } from '../src/export/ohh.js';
import { replayPhh } from '../src/export/phh.js';
import {
  bytesToHex,
  deriveDeckSeed,
  hexToBytes,
  seedCommit,
  shuffleDeck,
  type RevealRecord,
} from '../src/fairness/index.js';
import { holdem } from '../src/games/holdem.js';
import { Hand, type HandJSON } from '../src/hand/hand.js';

const bin = fileURLToPath(new URL('../bin/felt-sim.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'felt-sim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Spawned processes are slow on a loaded machine; no speed is asserted here.
describe('felt-sim', { timeout: 120_000 }, () => {
  it('writes one PHH file per hand that replays, a summary line, and verifiable reveal records', () => {
    const out = join(root, 'phh');
    const reveals = join(root, 'reveals.json');
    const r = sim([
      '--game',
      'holdem',
      '--limit',
      'nl',
      '--players',
      '2..9',
      '--hands',
      '300',
      '--seed',
      'cli',
      '--out',
      out,
      '--format',
      'phh',
      '--rake',
      'on',
      '--reveals',
      reveals,
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^felt-sim: 300 hands holdem nl players=2\.\.9 seed=cli rake=on in [\d.]+s: showdowns=\d+ .*violations=0; wrote 300 phh files/,
    );
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(300);
    for (const f of files) {
      const text = readFileSync(join(out, f), 'utf8');
      const { hand, phh } = replayPhh(text, { rules: holdem });
      const finals = new Map(hand.settlement!.players.map((p) => [p.seat, p.finalStack]));
      expect(hand.positionOrder().map((s) => finals.get(s))).toEqual(phh.finishingStacks);
    }
    const records = JSON.parse(readFileSync(reveals, 'utf8')) as RevealRecord[];
    expect(records).toHaveLength(300);
    let withClientSeeds = 0;
    for (const rec of records) {
      const serverSeed = hexToBytes(rec.server_seed);
      expect(seedCommit(serverSeed)).toBe(rec.seed_commit);
      const clientSeeds = rec.client_seeds.map((c) => ({ seat: c.seat, seed: hexToBytes(c.seed) }));
      const deckSeed = deriveDeckSeed(serverSeed, rec.hand_id, clientSeeds);
      expect(bytesToHex(deckSeed)).toBe(rec.deck_seed);
      const deck = shuffleDeck(deckSeed, 'standard52');
      expect(rec.dealt.map((d) => d.index)).toEqual(rec.dealt.map((_, i) => i));
      for (const d of rec.dealt) expect(deck[d.index]).toBe(d.card);
      expect(rec.variant).toBe('holdem');
      if (rec.client_seeds.length > 0) withClientSeeds++;
    }
    // Both proof cases occur: hands with client seeds mixed in and server-only hands.
    expect(withClientSeeds).toBeGreaterThan(30);
    expect(withClientSeeds).toBeLessThan(270);
  });

  it('writes OHH and jsonl, and the same seed reproduces the same hands', () => {
    const ohh = join(root, 'ohh');
    expect(sim(['--limit', 'pl', '--hands', '40', '--seed', 'o', '--out', ohh, '--format', 'ohh']).status).toBe(0);
    for (const f of readdirSync(ohh)) {
      const doc = JSON.parse(readFileSync(join(ohh, f), 'utf8')) as {
        ohh: { game_type: string; bet_limit: { bet_type: string } };
      };
      expect(doc.ohh.game_type).toBe('Holdem');
      expect(doc.ohh.bet_limit.bet_type).toBe('PL');
    }
    const a = join(root, 'a');
    const b = join(root, 'b');
    expect(
      sim(['--limit', 'fl', '--hands', '25', '--seed', 'same', '--out', a, '--format', 'jsonl', '--rake', 'on']).status,
    ).toBe(0);
    expect(
      sim(['--limit', 'fl', '--hands', '25', '--seed', 'same', '--out', b, '--format', 'jsonl', '--rake', 'on']).status,
    ).toBe(0);
    const names = readdirSync(a).sort();
    expect(readdirSync(b).sort()).toEqual(names);
    for (const f of names) {
      const text = readFileSync(join(a, f), 'utf8');
      expect(readFileSync(join(b, f), 'utf8')).toBe(text);
      expect(text.endsWith('\n') && text.trim().split('\n')).toHaveLength(1);
      const line = JSON.parse(text) as { hand: HandJSON };
      expect(Hand.fromJSON(line.hand, { rules: holdem }).isComplete).toBe(true);
    }
  });

  it('refuses bad options with a usage message', () => {
    const pl = sim(['--limit', 'pl', '--format', 'phh', '--hands', '1']);
    expect(pl.status).toBe(2);
    expect(pl.stderr).toMatch(/PHH has no variant code/);
    expect(sim(['--players', '11']).status).toBe(2);
    expect(sim(['--rake', 'maybe']).status).toBe(2);
    expect(sim(['--bogus']).status).toBe(2);
  });

  it('plays every game under every limit, and the mixed formats in rotation', () => {
    const games = ['holdem', 'omaha', 'omaha5', 'omaha8', 'shortdeck', 'stud', 'stud8', 'razz', '27td'];
    for (const game of games) {
      for (const limit of ['nl', 'pl', 'fl']) {
        const out = join(root, `all-${game}-${limit}`);
        const args = parseSimArgs(['--game', game, '--limit', limit, '--players', '2..6', '--hands', '12']);
        const summary = runSim({ ...args, out, format: 'jsonl', rake: true });
        expect(summary.violations).toBe(0);
        expect(summary.line).toContain(`12 hands ${game} ${limit} `);
        for (const f of readdirSync(out)) {
          const { hand } = JSON.parse(readFileSync(join(out, f), 'utf8')) as { hand: HandJSON };
          expect(hand.setup.game).toBe(game);
          expect(hand.setup.limit).toBe(limit);
        }
      }
    }
    // HORSE, two hands a game: the rotation shows in the hands' own games and limits.
    const horse = join(root, 'horse');
    const args = parseSimArgs(['--game', 'horse', '--hands', '10', '--hands-per-variant', '2', '--players', '2..6']);
    expect(runSim({ ...args, out: horse, format: 'phh', rake: false }).violations).toBe(0);
    const variants = readdirSync(horse)
      .sort()
      .map((f) => /variant = "([^"]+)"/.exec(readFileSync(join(horse, f), 'utf8'))![1]);
    expect(variants).toEqual(['FT', 'FT', 'FO/8', 'FO/8', 'FR', 'FR', 'F7S', 'F7S', 'F7S/8', 'F7S/8']);
    const eight = join(root, '8game');
    const eightArgs = parseSimArgs([
      '--game',
      '8game',
      '--hands',
      '8',
      '--hands-per-variant',
      '1',
      '--players',
      '2..6',
    ]);
    expect(runSim({ ...eightArgs, out: eight, format: 'ohh', rake: true }).violations).toBe(0);
    const types = readdirSync(eight)
      .sort()
      .map((f) => (JSON.parse(readFileSync(join(eight, f), 'utf8')) as ReturnType<typeof toOhh>).ohh)
      .map((o) => `${o._felt_game}/${o.bet_limit.bet_type}`);
    expect(types).toEqual([
      '27td/FL',
      'holdem/FL',
      'omaha8/FL',
      'razz/FL',
      'stud/FL',
      'stud8/FL',
      'holdem/NL',
      'omaha/PL',
    ]);
    // A rotation has no single limit, PLO5 has no PHH code, and the mixed seat cap is the tightest game's.
    expect(() => parseSimArgs(['--game', 'horse', '--limit', 'nl'])).toThrow(UsageError);
    expect(() => parseSimArgs(['--game', 'omaha5', '--format', 'phh'])).toThrow(/PHH has no variant code/);
    expect(() => parseSimArgs(['--game', '8game', '--players', '7'])).toThrow(/within 2\.\.6/);
  });

  it('2-7 Triple Draw reveal records, reshuffles included, check out with the verifier in docs/fairness.md', () => {
    const reveals = join(root, 'td-reveals.json');
    const r = sim(['--game', '27td', '--players', '6', '--hands', '40', '--seed', 'td', '--reveals', reveals]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const records = JSON.parse(readFileSync(reveals, 'utf8')) as RevealRecord[];
    expect(records.filter((rec) => (rec.reshuffles?.length ?? 0) > 0).length).toBeGreaterThan(3);
    if (spawnSync('python3', ['--version']).status !== 0) return;
    const doc = readFileSync(new URL('../../../docs/fairness.md', import.meta.url), 'utf8');
    const block = /```python\n([\s\S]*?)```/.exec(doc)![1]!;
    const driver = `${block}\nimport json, sys\nprint(json.dumps([verify(r) for r in json.load(sys.stdin)]))\n`;
    const out = spawnSync('python3', ['-c', driver], { input: JSON.stringify(records), encoding: 'utf8' });
    expect(JSON.parse(out.stdout)).toEqual(records.map(() => true));
  });
});
