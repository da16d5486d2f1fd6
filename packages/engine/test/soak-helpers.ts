import { describe, expect, it } from 'vitest';
import type { BetLimit } from '../src/betting/structure.js';
import { getGameRules } from '../src/games/registry.js';
import { runSoak } from '../src/sim/soak.js';

const LONG = process.env.FELT_SOAK === '1';
const HANDS = LONG ? 50_000 : 2_500;

/** The game's default structure every other hand, the other two in between. */
function limitsFor(defaultLimit: BetLimit): BetLimit[] {
  const others = (['nl', 'pl', 'fl'] as const).filter((l) => l !== defaultLimit);
  return [defaultLimit, others[0]!, defaultLimit, others[1]!];
}

export function soakGame(games: readonly string[]): void {
  describe.each(games)('soak %s', (game) => {
    const rules = getGameRules(game);
    it.each([false, true])(
      `${HANDS} hands, rake %s`,
      (rake) => {
        const report = runSoak({
          rules,
          limit: limitsFor(rules.defaultLimit),
          rake,
          hands: HANDS,
          seed: `soak-${game}-${rake ? 'rake' : 'norake'}`,
        });
        for (const f of report.failures.slice(0, 20)) {
          console.error(
            `soak failure, seed ${f.seed}: ${f.violations.map((v) => `${v.property}: ${v.message}`).join('; ')}`,
          );
        }
        expect(report.failures.map((f) => f.seed)).toEqual([]);
        // The generator must actually reach the shapes the properties are about.
        expect(report.showdowns).toBeGreaterThan(HANDS * 0.3);
        expect(report.sidePotHands).toBeGreaterThan(HANDS * 0.1);
        expect(report.multiwayPots).toBeGreaterThan(HANDS * 0.05);
        expect(report.allInHands).toBeGreaterThan(HANDS * 0.1);
        if (rake) expect(report.rakeTotal).toBeGreaterThan(0);
        else expect(report.rakeTotal).toBe(0);
      },
      LONG ? 3_600_000 : 120_000,
    );
  });
}
