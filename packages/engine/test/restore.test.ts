/**
 * Restore identity (docs/engine.md, "Serialization"): serialize a hand in the middle of every street, restore it from
 * plain JSON, play the same decisions forward, and get exactly the original hand: same log, same
 * settlement, same final stacks.
 */
import { describe, expect, it } from 'vitest';
import { holdem } from '../src/games/holdem.js';
import { getGameRules } from '../src/games/registry.js';
import type { GameRules } from '../src/games/types.js';
import { Hand } from '../src/hand/hand.js';
import { isDecision, isVoluntaryShow, type Operation } from '../src/hand/operations.js';
import { simulateHand } from '../src/sim/simulate.js';

function apply(hand: Hand, op: Operation): void {
  if (isVoluntaryShow(op)) {
    hand.show(op.seat);
    return;
  }
  if (!isDecision(op)) return;
  switch (op.type) {
    case 'fold':
      hand.fold(op.seat, { timeout: op.timeout === true });
      break;
    case 'check':
      hand.check(op.seat, { timeout: op.timeout === true });
      break;
    case 'call':
      hand.call(op.seat);
      break;
    case 'bet':
      hand.bet(op.seat, op.to);
      break;
    case 'raise':
      hand.raise(op.seat, op.to);
      break;
    case 'bring_in':
      hand.bringIn(op.seat, { timeout: op.timeout === true });
      break;
    case 'discard':
      hand.discard(op.seat, op.cards, { timeout: op.timeout === true });
      break;
  }
}

/** Cuts simulated hands in the middle of every street, restores them from JSON and plays them out. */
function restoreAll(
  rules: GameRules,
  limits: readonly ('nl' | 'pl' | 'fl')[],
  hands: number,
): { streets: Set<number>; restores: number } {
  const streetsSeen = new Set<number>();
  let restores = 0;
  for (const limit of limits) {
    for (let i = 0; i < hands; i++) {
      const { hand: original } = simulateHand({
        rules,
        limit,
        players: { min: 2, max: rules.maxSeats },
        rake: i % 2 === 1,
        seed: `restore-${rules.id}-${limit}-${i}`,
      });
      const inputs = original.operations.filter((op) => isDecision(op) || isVoluntaryShow(op));
      const final = JSON.stringify(original.toJSON());
      const byStreet = new Map<number, number[]>();
      const replay = new Hand(original.setup, { rules });
      inputs.forEach((op, k) => {
        const street = replay.streetIndex;
        byStreet.set(street, [...(byStreet.get(street) ?? []), k]);
        apply(replay, op);
      });
      const cuts = new Set<number>([0, inputs.length]);
      for (const [street, ks] of byStreet) {
        cuts.add(ks[Math.floor(ks.length / 2)]!);
        streetsSeen.add(street);
      }
      for (const cut of cuts) {
        const live = new Hand(original.setup, { rules });
        for (const op of inputs.slice(0, cut)) apply(live, op);
        const restored = Hand.fromJSON(JSON.parse(JSON.stringify(live.toJSON())), { rules });
        expect(restored.state()).toEqual(live.state());
        expect(restored.validActions()).toEqual(live.validActions());
        for (const op of inputs.slice(cut)) apply(restored, op);
        expect(JSON.stringify(restored.toJSON())).toBe(final);
        expect(restored.settlement).toEqual(original.settlement);
        restores++;
      }
    }
  }
  return { streets: streetsSeen, restores };
}

describe('restore identity in every game', { timeout: 120_000 }, () => {
  it.each([
    ['stud', 'fl'],
    ['razz', 'fl'],
    ['stud8', 'nl'],
    ['27td', 'fl'],
    ['omaha8', 'pl'],
    ['shortdeck', 'nl'],
  ] as const)('%s %s: restored mid-street, played forward to the same hand', (game, limit) => {
    const rules = getGameRules(game);
    expect([...restoreAll(rules, [limit], 40).streets].sort()).toEqual(rules.streets.map((_, i) => i));
  });
});

describe('restore identity', { timeout: 120_000 }, () => {
  it("Hold'em under every structure: restored mid-street on every street, played forward to the same result", () => {
    const { streets, restores } = restoreAll(holdem, ['nl', 'pl', 'fl'], 100);
    expect([...streets].sort()).toEqual([0, 1, 2, 3]);
    expect(restores).toBeGreaterThan(700);
  });
});
