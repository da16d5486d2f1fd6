/**
 * Reference 004's soak: seeded random hands through the bare engine, asserting conservation, winner
 * membership and per-level amounts after every hand (plus best-hand winners). 2 x 2,500 hands per
 * betting structure (rake off and on) in the default run; FELT_SOAK=1 (`npm run soak`) plays 100,000
 * per structure. A failure names the seed that replays it: simulateHand({ ..., seed }).
 */
import { describe, expect, it } from 'vitest';
import { holdem } from '../src/games/holdem.js';
import { runSoak } from '../src/sim/soak.js';

const LONG = process.env.FELT_SOAK === '1';
const HANDS = LONG ? 50_000 : 2_500;

describe.each(['nl', 'pl', 'fl'] as const)('soak %s', (limit) => {
  it.each([false, true])(
    `${HANDS} hands, rake %s`,
    (rake) => {
      const report = runSoak({
        rules: holdem,
        limit,
        rake,
        hands: HANDS,
        seed: `soak-${limit}-${rake ? 'rake' : 'norake'}`,
      });
      for (const f of report.failures.slice(0, 20)) {
        console.error(
          `soak failure, seed ${f.seed}: ${f.violations.map((v) => `${v.property}: ${v.message}`).join('; ')}`,
        );
      }
      expect(report.failures.map((f) => f.seed)).toEqual([]);
      // The generator must actually reach the shapes the properties are about.
      expect(report.showdowns).toBeGreaterThan(HANDS * 0.3);
      expect(report.sidePotHands).toBeGreaterThan(HANDS * (limit === 'fl' ? 0.05 : 0.2));
      expect(report.multiwayPots).toBeGreaterThan(HANDS * 0.1);
      if (rake) expect(report.rakeTotal).toBeGreaterThan(0);
      else expect(report.rakeTotal).toBe(0);
    },
    LONG ? 3_600_000 : 120_000,
  );
});
