import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArrivalMiss, StateArrivals } from './state-arrivals.js';

describe('StateArrivals', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers from what arrived already: the first table_state at or after the sequence', async () => {
    const a = new StateArrivals();
    a.record(10, 100);
    a.record(14, 130);
    a.record(20, 150);
    expect(await a.arrivalOf(11, 1000)).toBe(130);
    expect(await a.arrivalOf(14, 1000)).toBe(130);
    expect(await a.arrivalOf(20, 1000)).toBe(150);
  });

  it('waits for a later arrival, and misses after the timeout or on cancel', async () => {
    const a = new StateArrivals();
    a.record(5, 10);
    const later = a.arrivalOf(8, 1000);
    const never = a.arrivalOf(50, 1000);
    const cancelled = a.arrivalOf(60, 5000);
    a.record(7, 20);
    a.record(9, 30);
    expect(await later).toBe(30);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await never).toBe(ArrivalMiss.TIMEOUT);
    a.cancel();
    expect(await cancelled).toBe(ArrivalMiss.CANCELLED);
  });

  it('keeps a bounded history', async () => {
    const a = new StateArrivals(3);
    for (let seq = 1; seq <= 5; seq++) a.record(seq, seq * 10);
    // 1 and 2 are forgotten: the first remembered arrival at or after 1 is seq 3.
    expect(await a.arrivalOf(1, 10)).toBe(30);
  });
});
