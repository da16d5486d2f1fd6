import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TournamentError } from './errors.js';
import {
  checkStructure,
  clockAt,
  clockPositionAt,
  pauseClock,
  playingTimeMs,
  resumeClock,
  startClock,
  LEVEL_AMOUNT_MAX,
  levelAfterHands,
  levelAt,
  STRUCTURE_PRESETS,
  structureIssues,
  type BlindStructure,
} from './structure.js';

const MIN = 60_000;
const level = (bigBlind: number, extra: Partial<{ ante: number; bigBlindAnte: number; smallBlind: number }> = {}) => ({
  smallBlind: extra.smallBlind ?? Math.floor(bigBlind / 2),
  bigBlind,
  ante: extra.ante ?? 0,
  bigBlindAnte: extra.bigBlindAnte ?? 0,
});

describe('the presets', () => {
  it.each(Object.entries(STRUCTURE_PRESETS))('%s is a playable structure', (_name, preset) => {
    expect(structureIssues(preset.structure)).toEqual([]);
    expect(preset.startingStack / preset.structure.levels[0]!.bigBlind).toBeGreaterThanOrEqual(100);
  });

  it('regular: 10-minute levels, five minutes off after every sixth level', () => {
    const s = STRUCTURE_PRESETS.regular.structure;
    expect(clockAt(s, 0)).toEqual({ level: 0, onBreak: false, phaseStartedMs: 0, phaseEndsMs: 10 * MIN });
    expect(clockAt(s, 60 * MIN - 1)).toMatchObject({ level: 5, onBreak: false });
    expect(clockAt(s, 60 * MIN)).toEqual({ level: 5, onBreak: true, phaseStartedMs: 60 * MIN, phaseEndsMs: 65 * MIN });
    expect(clockAt(s, 65 * MIN)).toEqual({ level: 6, onBreak: false, phaseStartedMs: 65 * MIN, phaseEndsMs: 75 * MIN });
    expect(clockAt(s, 125 * MIN)).toMatchObject({ level: 11, onBreak: true });
  });
});

describe('clockAt', () => {
  const withBreaks: BlindStructure = {
    levels: [level(2), level(4), level(6)],
    levelLength: { unit: 'minutes', value: 3 },
    breaks: { everyLevels: 2, minutes: 1 },
  };

  it('moves forward through every level and break without gaps, each as long as the structure says', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.record({ everyLevels: fc.integer({ min: 1, max: 6 }), minutes: fc.integer({ min: 1, max: 10 }) })),
        fc.array(fc.integer({ min: 0, max: 600 * MIN }), { minLength: 2, maxLength: 30 }),
        (minutes, breaks, times) => {
          const s: BlindStructure = { levels: [level(2)], levelLength: { unit: 'minutes', value: minutes }, breaks };
          const sorted = [...times].sort((a, b) => a - b);
          let prev = clockAt(s, sorted[0]!);
          for (const t of sorted) {
            const pos = clockAt(s, t);
            expect(pos.phaseStartedMs).toBeLessThanOrEqual(t);
            expect(pos.phaseEndsMs).toBeGreaterThan(t);
            expect(pos.phaseEndsMs - pos.phaseStartedMs).toBe((pos.onBreak ? breaks!.minutes : minutes) * MIN);
            expect(pos.level).toBeGreaterThanOrEqual(prev.level);
            // The phase that follows starts where this one ends.
            const next = clockAt(s, pos.phaseEndsMs);
            expect(next.phaseStartedMs).toBe(pos.phaseEndsMs);
            if (pos.onBreak) expect(next).toMatchObject({ level: pos.level + 1, onBreak: false });
            else if (next.onBreak) expect(next.level).toBe(pos.level);
            else expect(next.level).toBe(pos.level + 1);
            prev = pos;
          }
        },
      ),
      { seed: 3, numRuns: 300 },
    );
  });

  it('counts a negative elapsed time as the start, and refuses a structure measured in hands', () => {
    expect(clockAt(withBreaks, -5)).toMatchObject({ level: 0, onBreak: false });
    expect(() => clockAt({ ...withBreaks, levelLength: { unit: 'hands', value: 10 }, breaks: null }, 0)).toThrow(
      TournamentError,
    );
  });
});

describe('levelAfterHands and levelAt', () => {
  const byHands: BlindStructure = {
    levels: [level(2), level(4)],
    levelLength: { unit: 'hands', value: 10 },
    breaks: null,
  };

  it('moves a level every N hands', () => {
    expect([0, 9, 10, 19, 20, 35].map((h) => levelAfterHands(byHands, h))).toEqual([0, 0, 1, 1, 2, 3]);
    expect(() => levelAfterHands(STRUCTURE_PRESETS.turbo.structure, 1)).toThrow(TournamentError);
  });

  it('doubles every amount of the last level for each level past the schedule', () => {
    const s: BlindStructure = {
      levels: [level(100, { bigBlindAnte: 100 })],
      levelLength: { unit: 'minutes', value: 1 },
      breaks: null,
    };
    expect(levelAt(s, 0)).toEqual(level(100, { bigBlindAnte: 100 }));
    expect(levelAt(s, 1)).toEqual(level(200, { bigBlindAnte: 200 }));
    expect(levelAt(s, 3)).toEqual(level(800, { bigBlindAnte: 800 }));
    expect(levelAt(s, 200).bigBlind).toBe(LEVEL_AMOUNT_MAX);
    // Far past it (2^1100 overflows to Infinity): no NaN, zero stays zero.
    expect(levelAt({ ...s, levels: [level(100)] }, 1_100)).toEqual({
      smallBlind: LEVEL_AMOUNT_MAX,
      bigBlind: LEVEL_AMOUNT_MAX,
      ante: 0,
      bigBlindAnte: 0,
    });
  });
});

describe('structureIssues', () => {
  const ok: BlindStructure = {
    levels: [level(2), level(4)],
    levelLength: { unit: 'minutes', value: 10 },
    breaks: null,
  };

  it('names each reason a structure cannot be played', () => {
    const issues = (s: Partial<BlindStructure>) => structureIssues({ ...ok, ...s }).map((i) => i.message);
    expect(issues({})).toEqual([]);
    expect(issues({ levels: [] })).toEqual(['between 1 and 100 levels']);
    expect(issues({ levelLength: { unit: 'minutes', value: 0 } })).toEqual(['a level lasts 1 to 240 minutes']);
    expect(issues({ levelLength: { unit: 'hands', value: 10 }, breaks: { everyLevels: 2, minutes: 5 } })).toEqual([
      'breaks need levels measured in minutes',
    ]);
    expect(issues({ breaks: { everyLevels: 0, minutes: 61 } })).toHaveLength(2);
    expect(issues({ levels: [level(4), level(2)] })).toEqual(['the big blind never falls from one level to the next']);
    expect(issues({ levels: [level(2, { smallBlind: 3 })] })).toEqual([
      'the big blind is at least 1 and at least the small blind',
    ]);
    expect(issues({ levels: [level(2, { ante: 1, bigBlindAnte: 2 })] })).toEqual([
      'an ante or a big-blind ante, not both',
    ]);
    expect(issues({ levels: [level(2.5)] })).toEqual(['amounts are whole chips']);
    expect(() => checkStructure({ ...ok, levels: [] })).toThrow(TournamentError);
    expect(checkStructure(ok)).toBe(ok);
  });
});

describe('the tournament clock', () => {
  const regular = STRUCTURE_PRESETS.regular.structure;
  const T0 = Date.parse('2026-12-06T18:00:00Z');

  it('reads the level from absolute times, and pauses do not count', () => {
    let clock = startClock(T0);
    expect(clockPositionAt(regular, clock, T0 + 25 * MIN)).toMatchObject({ level: 2, endsAtMs: T0 + 30 * MIN });
    clock = pauseClock(clock, T0 + 25 * MIN);
    expect(pauseClock(clock, T0 + 26 * MIN)).toBe(clock);
    // Paused for ten minutes: still level 3, and no end while paused.
    expect(clockPositionAt(regular, clock, T0 + 35 * MIN)).toMatchObject({ level: 2, endsAtMs: null });
    clock = resumeClock(clock, T0 + 35 * MIN);
    expect(resumeClock(clock, T0 + 36 * MIN)).toBe(clock);
    expect(playingTimeMs(clock, T0 + 35 * MIN)).toBe(25 * MIN);
    expect(clockPositionAt(regular, clock, T0 + 37 * MIN)).toMatchObject({ level: 2, endsAtMs: T0 + 40 * MIN });
    // A checkpoint of it, read by another worker, gives the same answer.
    const restored = JSON.parse(JSON.stringify(clock)) as typeof clock;
    expect(clockPositionAt(regular, restored, T0 + 90 * MIN)).toEqual(clockPositionAt(regular, clock, T0 + 90 * MIN));
  });

  it('never runs backwards or counts a pause twice, whatever the order of pauses and reads', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 * MIN })), { maxLength: 30 }),
        (steps) => {
          let clock = startClock(T0);
          let now = T0;
          let played = 0;
          let paused = false;
          for (const [toggle, dt] of steps) {
            now += dt;
            if (!paused) played += dt;
            expect(playingTimeMs(clock, now)).toBe(played);
            if (toggle) {
              clock = paused ? resumeClock(clock, now) : pauseClock(clock, now);
              paused = !paused;
            }
          }
        },
      ),
      { seed: 4, numRuns: 300 },
    );
  });
});
