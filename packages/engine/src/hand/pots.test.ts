import { describe, expect, it } from 'vitest';
import { ShowdownIntegrityError } from '../errors.js';
import { SeededRng, randomBetween, randomUnit } from '../rng.js';
import { PotManager, levelPots, validatePots, type Contribution } from './pots.js';

const bets = (o: Record<number, number>): Map<number, number> =>
  new Map(Object.entries(o).map(([k, v]) => [Number(k), v]));

describe('PotManager', { timeout: 60_000 }, () => {
  it('closes a pot at an all-in and opens the next one for the chips above it', () => {
    const pm = new PotManager();
    // Preflop: seat 1 all-in for 50, seats 2 and 3 put in 200.
    pm.collect(bets({ 1: 50, 2: 200, 3: 200 }), new Set([1]), new Set([1, 2, 3]));
    expect(pm.list()).toEqual([
      { amount: 150, from: 0, to: 50, eligible: [1, 2, 3], closed: true, dead: 0 },
      { amount: 300, from: 50, to: 200, eligible: [2, 3], closed: false, dead: 0 },
    ]);
    // Flop: seat 2 all-in for 80 more; seat 3 covers. The open pot takes it and closes; nothing above.
    pm.collect(bets({ 1: 0, 2: 80, 3: 80 }), new Set([2]), new Set([1, 2, 3]));
    expect(pm.list().map((p) => [p.amount, p.from, p.to, p.closed])).toEqual([
      [150, 0, 50, true],
      [460, 50, 280, true],
    ]);
  });

  it('keeps folded chips at the levels they were bet and sweeps the folder from every pot', () => {
    const pm = new PotManager();
    // Seat 4 bet 100 and folded to an all-in of 30 and a raise to 300.
    pm.collect(bets({ 1: 30, 2: 300, 3: 300, 4: 100 }), new Set([1]), new Set([1, 2, 3]));
    expect(pm.list().map((p) => [p.amount, p.eligible])).toEqual([
      [120, [1, 2, 3]],
      [610, [2, 3]],
    ]);
    pm.removeFolded(3);
    expect(pm.list().map((p) => p.eligible)).toEqual([[1, 2], [2]]);
  });

  it('puts dead money in the main pot without a level', () => {
    const pm = new PotManager();
    pm.addDead(7, [1, 2, 3]);
    pm.collect(bets({ 1: 10, 2: 10, 3: 4 }), new Set([3]), new Set([1, 2, 3]));
    expect(pm.list().map((p) => [p.amount, p.dead, p.from, p.to])).toEqual([
      [19, 7, 0, 4],
      [12, 0, 4, 10],
    ]);
  });

  it('agrees with the level formulation on random streets', () => {
    const rng = new SeededRng('pots');
    for (let t = 0; t < 500; t++) {
      const n = randomBetween(rng, 2, 7);
      const stacks = Array.from({ length: n }, () => randomBetween(rng, 1, 60));
      const live = new Set(Array.from({ length: n }, (_, i) => i + 1));
      const contributed = Array.from({ length: n }, () => 0);
      const folded = new Set<number>();
      const pm = new PotManager();
      for (
        let street = 0;
        street < 4 && live.size - [...live].filter((s) => stacks[s - 1] === 0).length > 1;
        street++
      ) {
        // Everyone still able to bet matches a target or goes all-in; some fold after putting chips in.
        const target = randomBetween(rng, 0, 40);
        const round = new Map<number, number>();
        const allIn = new Set<number>();
        for (const seat of live) {
          const i = seat - 1;
          const put = Math.min(target, stacks[i]!);
          round.set(seat, put);
          stacks[i] = stacks[i]! - put;
          contributed[i] = contributed[i]! + put;
          if (stacks[i] === 0 && put > 0) allIn.add(seat);
        }
        for (const seat of folded) round.set(seat, 0);
        // Uncalled excess back to a lone top bettor.
        const sorted = [...round.values()].sort((a, b) => b - a);
        if (sorted[0]! > (sorted[1] ?? 0)) {
          const top = [...round].find(([, v]) => v === sorted[0])![0];
          const back = sorted[0]! - (sorted[1] ?? 0);
          round.set(top, sorted[1] ?? 0);
          stacks[top - 1] = stacks[top - 1]! + back;
          contributed[top - 1] = contributed[top - 1]! - back;
          allIn.delete(top);
        }
        const foldNow = [...live].filter((s) => !allIn.has(s) && stacks[s - 1]! > 0 && randomUnit(rng) < 0.25);
        pm.collect(round, allIn, live);
        for (const s of foldNow) {
          // Somebody with chips must stay in: a last player with chips has nobody to fold to.
          if (live.size <= 2 || ![...live].some((x) => x !== s && stacks[x - 1]! > 0)) break;
          live.delete(s);
          folded.add(s);
          pm.removeFolded(s);
        }
      }
      const contributions: Contribution[] = contributed.map((c, i) => ({
        seat: i + 1,
        live: c,
        dead: 0,
        folded: folded.has(i + 1),
        allIn: stacks[i] === 0,
      }));
      const expected = levelPots(contributions);
      expect(pm.list().map((p) => ({ from: p.from, to: p.to, amount: p.amount, eligible: p.eligible }))).toEqual(
        expected,
      );
      expect(() => validatePots('h', pm.list(), contributions)).not.toThrow();
    }
  });
});

describe('validatePots', () => {
  const contributions: Contribution[] = [
    { seat: 1, live: 50, dead: 0, folded: false, allIn: true },
    { seat: 2, live: 200, dead: 0, folded: false, allIn: false },
    { seat: 3, live: 200, dead: 0, folded: true, allIn: false },
  ];
  const good = () => [
    { amount: 150, from: 0, to: 50, eligible: [1, 2], closed: true, dead: 0 },
    { amount: 300, from: 50, to: 200, eligible: [2], closed: false, dead: 0 },
  ];

  it('accepts pots that match their levels', () => {
    expect(() => validatePots('h', good(), contributions)).not.toThrow();
  });

  const reject = (mutate: (p: ReturnType<typeof good>) => void, reason: string): void => {
    const pots = good();
    mutate(pots);
    try {
      validatePots('h', pots, contributions);
    } catch (e) {
      expect(e).toBeInstanceOf(ShowdownIntegrityError);
      expect((e as ShowdownIntegrityError).reason).toBe(reason);
      expect((e as ShowdownIntegrityError).code).toBe('showdown_integrity');
      return;
    }
    throw new Error(`expected ${reason}`);
  };

  it('refuses a folded winner (D1)', () => reject((p) => p[1]!.eligible.push(3), 'ineligible_contender'));
  it('refuses a stripped all-in (D2)', () => reject((p) => p[0]!.eligible.splice(0, 1), 'pot_eligibility_mismatch'));
  it('refuses missing layering (D3)', () =>
    reject((p) => {
      p[0]!.amount += p[1]!.amount;
      p.pop();
    }, 'pot_amount_mismatch'));
  it('refuses dead money below its level (D4)', () =>
    reject((p) => {
      p[0]!.amount += 50;
      p[1]!.amount -= 50;
    }, 'pot_amount_mismatch'));
  it('refuses chips that vanished', () => reject((p) => (p[1]!.amount -= 1), 'chips_not_conserved'));
  it('refuses a pot nobody can win', () => reject((p) => (p[1]!.eligible = []), 'pot_without_contender'));
});
