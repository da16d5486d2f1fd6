import { describe, expect, it } from 'vitest';
import { placeSeats } from './seat-layout.js';

describe('placeSeats', () => {
  it('puts the hero at the bottom centre and the next seat to their left (clockwise)', () => {
    const p = placeSeats([1, 2, 3, 4, 5, 6], 4);
    const hero = p.find((s) => s.seat === 4)!;
    expect(hero.plate.x).toBeCloseTo(50);
    expect(hero.plate.y).toBeGreaterThan(80);
    const next = p.find((s) => s.seat === 5)!;
    expect(next.plate.x).toBeLessThan(50);
    const prev = p.find((s) => s.seat === 3)!;
    expect(prev.plate.x).toBeGreaterThan(50);
  });

  it('puts the lowest seat at the bottom for a spectator', () => {
    const p = placeSeats([3, 1, 2], null);
    expect(p.find((s) => s.seat === 1)!.plate.y).toBeGreaterThan(80);
  });

  it('keeps every seat and bet on the table, bets nearer the middle than plates', () => {
    for (const n of [2, 3, 6, 8, 9, 10]) {
      const seats = Array.from({ length: n }, (_, i) => i + 1);
      const p = placeSeats(seats, 1);
      expect(p.map((s) => s.seat).sort((a, b) => a - b)).toEqual(seats);
      for (const s of p) {
        for (const v of [s.plate.x, s.plate.y, s.bet.x, s.bet.y]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(100);
        }
        const d = (q: { x: number; y: number }) => Math.hypot(q.x - 50, q.y - 50);
        expect(d(s.bet)).toBeLessThan(d(s.plate));
      }
      // No two plates on the same spot.
      expect(new Set(p.map((s) => `${s.plate.x},${s.plate.y}`)).size).toBe(n);
    }
  });
});
