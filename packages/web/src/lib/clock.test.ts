import { describe, expect, it } from 'vitest';
import { readClock, ServerClock } from './clock.js';

describe('readClock', () => {
  const deadline = 100_000;

  it('runs the action clock, then the time bank, then stops at zero', () => {
    expect(readClock(deadline, 20_000, 85_000, 30_000)).toEqual({
      phase: 'action',
      remainingMs: 15_000,
      bankMs: 20_000,
      fraction: 0.5,
    });
    expect(readClock(deadline, 20_000, 105_000, 30_000)).toEqual({
      phase: 'bank',
      remainingMs: 15_000,
      bankMs: 15_000,
      fraction: 0.75,
    });
    expect(readClock(deadline, 20_000, 120_000, 30_000)).toEqual({
      phase: 'expired',
      remainingMs: 0,
      bankMs: 0,
      fraction: 0,
    });
    expect(readClock(deadline, 0, 100_001, 30_000).phase).toBe('expired');
  });

  it('gives the same reading for the same deadline, which is what a reload restores', () => {
    const a = readClock(deadline, 60_000, 90_000, 30_000);
    const b = readClock(deadline, 60_000, 90_000, 30_000);
    expect(a).toEqual(b);
  });
});

describe('ServerClock', () => {
  it('keeps the sample with the least delay in it', () => {
    let local = 1_000;
    const clock = new ServerClock(() => local);
    clock.sample(5_000, 1_000); // offset 4000
    clock.sample(5_100, 1_200); // 3900: this one sat in the network longer
    expect(clock.offsetMs).toBe(4_000 - 1);
    local = 2_000;
    expect(clock.now()).toBe(2_000 + 3_999);
    clock.sample(7_000, 2_000); // 5000: the server clock moved ahead
    expect(clock.offsetMs).toBe(5_000);
  });

  it('is local time before any sample', () => {
    expect(new ServerClock(() => 42).now()).toBe(42);
  });
});
