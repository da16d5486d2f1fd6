/**
 * docs/fairness.md makes claims a player may rely on: its example record verifies, and its Python verifier
 * agrees with ours. Both are checked here against the committed fixtures, honest and tampered.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyReveal } from '../src/index.js';

const DOC = readFileSync(new URL('../../../docs/fairness.md', import.meta.url), 'utf8');
const fixtures = (name: string): Record<string, unknown>[] =>
  JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>[];

function block(lang: string): string {
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DOC);
  if (!match?.[1]) throw new Error(`docs/fairness.md has no ${lang} block`);
  return match[1];
}

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe('docs/fairness.md', () => {
  it('its example reveal record verifies', () => {
    const record = JSON.parse(block('json')) as Record<string, unknown>;
    const result = verifyReveal(record);
    expect(result.failures).toEqual([]);
    expect(result.cardsMatched).toBe(9);
  });

  it.skipIf(!hasPython)('its Python verifier agrees with felt verify on honest and tampered records', () => {
    const honest = [...fixtures('reveals.json'), ...fixtures('draw-reshuffles.json')];
    const tampered = honest.map((record, i) => {
      const copy = structuredClone(record) as {
        server_seed: string;
        client_seeds: unknown[];
        dealt: { index: number; card: string }[];
        reshuffles?: { discards: string[] }[];
      };
      switch (i % 4) {
        case 0:
          copy.server_seed = 'ab'.repeat(32);
          break;
        case 1:
          copy.dealt = copy.dealt.filter((d) => d.index !== 3);
          break;
        case 2:
          copy.dealt[1]!.card = copy.dealt[0]!.card;
          break;
        default:
          if (copy.reshuffles) copy.reshuffles[0]!.discards.pop();
          else copy.client_seeds = [];
      }
      return copy;
    });
    const records = [...honest, ...tampered];
    const driver = `${block('python')}
import json, sys
print(json.dumps([bool(verify(r)) for r in json.load(sys.stdin)]))
`;
    const out = execFileSync('python3', ['-c', driver], { input: JSON.stringify(records), encoding: 'utf8' });
    const python = JSON.parse(out) as boolean[];
    const ours = records.map((r) => verifyReveal(r).ok);
    expect(python).toEqual(ours);
    expect(ours.slice(0, honest.length).every(Boolean)).toBe(true);
    // Every tampered record fails, except client_seeds dropped where the record had none to drop.
    const tamperedResults = ours.slice(honest.length);
    const shouldFail = tampered.map(
      (t, i) => !(i % 4 === 3 && !('reshuffles' in t) && (honest[i]!.client_seeds as unknown[]).length === 0),
    );
    expect(tamperedResults.map((ok) => !ok)).toEqual(shouldFail);
  });

  it.skipIf(!hasPython)('its Python verifier agrees on withheld cards (card null), honest and tampered', () => {
    type Dealt = { index: number; card: string | null }[];
    const honest = [...fixtures('reveals.json'), ...fixtures('draw-reshuffles.json')].map((record) => {
      const copy = structuredClone(record) as { dealt: Dealt };
      // Every third card withheld, as the lobby serves cards a player did not see.
      copy.dealt = copy.dealt.map((d) => (d.index % 3 === 1 ? { index: d.index, card: null } : d));
      return copy;
    });
    const tampered = honest.map((record, i) => {
      const copy = structuredClone(record);
      if (i % 2 === 0) {
        // The shown card at index 0 replaced by another dealt card.
        const first = copy.dealt.find((d) => d.index === 0)!;
        first.card = copy.dealt.find((d) => d.index === 2)!.card;
      } else copy.dealt = copy.dealt.filter((d) => d.index !== 1); // a withheld entry dropped
      return copy;
    });
    const records = [...honest, ...tampered];
    const driver = `${block('python')}
import json, sys
print(json.dumps([bool(verify(r)) for r in json.load(sys.stdin)]))
`;
    const out = execFileSync('python3', ['-c', driver], { input: JSON.stringify(records), encoding: 'utf8' });
    const ours = records.map((r) => verifyReveal(r));
    expect(JSON.parse(out) as boolean[]).toEqual(ours.map((r) => r.ok));
    expect(ours.slice(0, honest.length).every((r) => r.ok && r.cardsWithheld > 0)).toBe(true);
    expect(ours.slice(honest.length).every((r) => !r.ok)).toBe(true);
  });
});
