/**
 * Restore identity (reference 004): serialize a hand in the middle of every street, restore it from
 * plain JSON, play the same decisions forward, and get exactly the original hand: same log, same
 * settlement, same final stacks.
 */
import { describe, expect, it } from 'vitest';
import { holdem } from '../src/games/holdem.js';
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
  }
}

describe('restore identity', () => {
  it('a hand restored mid-street on every street plays forward to the same result', () => {
    let restores = 0;
    const streetsSeen = new Set<number>();
    for (const limit of ['nl', 'pl', 'fl'] as const) {
      for (let i = 0; i < 150; i++) {
        const { hand: original } = simulateHand({
          rules: holdem,
          limit,
          players: { min: 2, max: 10 },
          rake: i % 2 === 1,
          seed: `restore-${limit}-${i}`,
        });
        const inputs = original.operations.filter((op) => isDecision(op) || isVoluntaryShow(op));
        const final = JSON.stringify(original.toJSON());
        // Cut points: the middle of each street's decisions, plus the start and the very end.
        const byStreet = new Map<number, number[]>();
        const replay = new Hand(original.setup, { rules: holdem });
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
          const live = new Hand(original.setup, { rules: holdem });
          for (const op of inputs.slice(0, cut)) apply(live, op);
          const snapshot = JSON.stringify(live.toJSON());
          const restored = Hand.fromJSON(JSON.parse(snapshot), { rules: holdem });
          expect(restored.state()).toEqual(live.state());
          expect(restored.validActions()).toEqual(live.validActions());
          for (const op of inputs.slice(cut)) apply(restored, op);
          expect(JSON.stringify(restored.toJSON())).toBe(final);
          expect(restored.settlement).toEqual(original.settlement);
          restores++;
        }
      }
    }
    expect([...streetsSeen].sort()).toEqual([0, 1, 2, 3]);
    expect(restores).toBeGreaterThan(1000);
  }, 120_000);
});
