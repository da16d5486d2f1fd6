/**
 * A tournament's blind structure and its clock: the levels, how long each lasts (minutes of play or
 * hands), the breaks, and which level is being played a given time into the tournament. The clock is
 * a pure function of elapsed playing time, so a director that resumes on another worker computes the
 * same level from the same absolute start (and the pauses it recorded) and never restarts one.
 */
import { TournamentError, TournamentErrorCode } from './errors.js';

/** One level's forced bets, in tournament chips. Games other than blinds derive theirs from these. */
export interface BlindLevel {
  readonly smallBlind: number;
  readonly bigBlind: number;
  /** Posted by every dealt-in player; exclusive with `bigBlindAnte`. */
  readonly ante: number;
  /** One ante for the table, posted by the big blind. */
  readonly bigBlindAnte: number;
}

export type LevelLength = { readonly unit: 'minutes' | 'hands'; readonly value: number };

export interface BlindStructure {
  readonly levels: readonly BlindLevel[];
  /** Every level's length. Past the last listed level each level doubles the one before. */
  readonly levelLength: LevelLength;
  /** A break of `minutes` after every `everyLevels` levels; only with levels measured in minutes. */
  readonly breaks: { readonly everyLevels: number; readonly minutes: number } | null;
}

/** The levels a structure may list, and the longest level or break, so a bad config can't overflow. */
export const STRUCTURE_BOUNDS = { levelsMax: 100, minutesMax: 240, handsMax: 1000, breakMinutesMax: 60 } as const;

const MINUTE_MS = 60_000;

/** The largest amount a level past the schedule reaches (the protocol's ROOM_CHIPS_MAX, 10^12). */
export const LEVEL_AMOUNT_MAX = 1_000_000_000_000;

/**
 * The structure's blinds at `index` (0 is the first level). Past the list each level doubles every
 * amount of the one before it, so a tournament that outlasts its schedule still ends; the amounts stop
 * at {@link LEVEL_AMOUNT_MAX} instead of growing past it.
 */
export function levelAt(structure: BlindStructure, index: number): BlindLevel {
  const listed = structure.levels;
  const last = listed[listed.length - 1]!;
  if (index < listed.length) return listed[Math.max(0, index)]!;
  const factor = 2 ** (index - listed.length + 1);
  // Zero stays zero (0 × Infinity would be NaN); the rest stop at LEVEL_AMOUNT_MAX, where a fixed-limit
  // big bet (twice the big blind) and ten such stacks are still safe integers.
  const scale = (n: number) => (n === 0 ? 0 : Math.min(LEVEL_AMOUNT_MAX, n * factor));
  return {
    smallBlind: scale(last.smallBlind),
    bigBlind: scale(last.bigBlind),
    ante: scale(last.ante),
    bigBlindAnte: scale(last.bigBlindAnte),
  };
}

/** Where a tournament's clock stands. Times are milliseconds of playing time since the start. */
export interface ClockPosition {
  /** The level being played, or the one just finished while `onBreak`. 0-based. */
  readonly level: number;
  readonly onBreak: boolean;
  readonly phaseStartedMs: number;
  readonly phaseEndsMs: number;
}

/**
 * The level (or break) `elapsedMs` of playing time after the start, for a structure measured in
 * minutes. The director passes the time played, not the time since the start, when it has paused.
 */
export function clockAt(structure: BlindStructure, elapsedMs: number): ClockPosition {
  if (structure.levelLength.unit !== 'minutes') {
    throw new TournamentError(TournamentErrorCode.STRUCTURE_INVALID, 'levels are measured in hands, not minutes');
  }
  const levelMs = structure.levelLength.value * MINUTE_MS;
  const elapsed = Math.max(0, elapsedMs);
  const breaks = structure.breaks;
  if (breaks === null) {
    const level = Math.floor(elapsed / levelMs);
    return { level, onBreak: false, phaseStartedMs: level * levelMs, phaseEndsMs: (level + 1) * levelMs };
  }
  // A cycle is `everyLevels` levels and one break.
  const breakMs = breaks.minutes * MINUTE_MS;
  const cycleMs = breaks.everyLevels * levelMs + breakMs;
  const cycle = Math.floor(elapsed / cycleMs);
  const into = elapsed - cycle * cycleMs;
  const cycleStart = cycle * cycleMs;
  const inCycle = Math.floor(into / levelMs);
  if (inCycle < breaks.everyLevels) {
    const start = cycleStart + inCycle * levelMs;
    return {
      level: cycle * breaks.everyLevels + inCycle,
      onBreak: false,
      phaseStartedMs: start,
      phaseEndsMs: start + levelMs,
    };
  }
  const start = cycleStart + breaks.everyLevels * levelMs;
  return {
    level: (cycle + 1) * breaks.everyLevels - 1,
    onBreak: true,
    phaseStartedMs: start,
    phaseEndsMs: start + breakMs,
  };
}

/**
 * A tournament's clock in absolute times (epoch milliseconds), so that a director resumed on another
 * worker reads the same level from its checkpoint: the start, the time spent paused before, and when
 * the current pause began (null while running).
 */
export interface TournamentClock {
  readonly startedAtMs: number;
  readonly pausedMs: number;
  readonly pausedSinceMs: number | null;
}

export function startClock(nowMs: number): TournamentClock {
  return { startedAtMs: nowMs, pausedMs: 0, pausedSinceMs: null };
}

/** Stops the clock (pausing a paused clock changes nothing). */
export function pauseClock(clock: TournamentClock, nowMs: number): TournamentClock {
  return clock.pausedSinceMs !== null ? clock : { ...clock, pausedSinceMs: Math.max(nowMs, clock.startedAtMs) };
}

/** Starts a paused clock again; the pause does not count as playing time. */
export function resumeClock(clock: TournamentClock, nowMs: number): TournamentClock {
  if (clock.pausedSinceMs === null) return clock;
  return { ...clock, pausedMs: clock.pausedMs + Math.max(0, nowMs - clock.pausedSinceMs), pausedSinceMs: null };
}

/** Playing time at `nowMs`: time since the start less every pause (a clock never runs backwards). */
export function playingTimeMs(clock: TournamentClock, nowMs: number): number {
  const until = clock.pausedSinceMs ?? nowMs;
  return Math.max(0, until - clock.startedAtMs - clock.pausedMs);
}

/**
 * The level or break at `nowMs`, and the absolute time it ends (null while paused: it ends however
 * long the pause lasts after).
 */
export function clockPositionAt(
  structure: BlindStructure,
  clock: TournamentClock,
  nowMs: number,
): ClockPosition & { readonly endsAtMs: number | null } {
  const played = playingTimeMs(clock, nowMs);
  const position = clockAt(structure, played);
  return { ...position, endsAtMs: clock.pausedSinceMs === null ? nowMs + (position.phaseEndsMs - played) : null };
}

/** The level for a structure measured in hands, after `handsPlayed` hands of the level's count. */
export function levelAfterHands(structure: BlindStructure, handsPlayed: number): number {
  if (structure.levelLength.unit !== 'hands') {
    throw new TournamentError(TournamentErrorCode.STRUCTURE_INVALID, 'levels are measured in minutes, not hands');
  }
  return Math.floor(Math.max(0, handsPlayed) / structure.levelLength.value);
}

/** Every reason `structure` cannot be played, as messages with the level they concern; [] when none. */
export function structureIssues(structure: BlindStructure): Array<{ level: number | null; message: string }> {
  const issues: Array<{ level: number | null; message: string }> = [];
  const { levels, levelLength, breaks } = structure;
  if (levels.length === 0 || levels.length > STRUCTURE_BOUNDS.levelsMax) {
    issues.push({ level: null, message: `between 1 and ${STRUCTURE_BOUNDS.levelsMax} levels` });
  }
  const lengthMax = levelLength.unit === 'minutes' ? STRUCTURE_BOUNDS.minutesMax : STRUCTURE_BOUNDS.handsMax;
  if (!Number.isInteger(levelLength.value) || levelLength.value < 1 || levelLength.value > lengthMax) {
    issues.push({ level: null, message: `a level lasts 1 to ${lengthMax} ${levelLength.unit}` });
  }
  if (breaks !== null) {
    if (levelLength.unit !== 'minutes') issues.push({ level: null, message: 'breaks need levels measured in minutes' });
    if (!Number.isInteger(breaks.everyLevels) || breaks.everyLevels < 1) {
      issues.push({ level: null, message: 'a break comes after at least one level' });
    }
    if (!Number.isInteger(breaks.minutes) || breaks.minutes < 1 || breaks.minutes > STRUCTURE_BOUNDS.breakMinutesMax) {
      issues.push({ level: null, message: `a break lasts 1 to ${STRUCTURE_BOUNDS.breakMinutesMax} minutes` });
    }
  }
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  levels.forEach((l, i) => {
    if (![l.smallBlind, l.bigBlind, l.ante, l.bigBlindAnte].every(whole)) {
      issues.push({ level: i, message: 'amounts are whole chips' });
    } else if (l.bigBlind < 1 || l.smallBlind > l.bigBlind) {
      issues.push({ level: i, message: 'the big blind is at least 1 and at least the small blind' });
    } else if (l.ante > 0 && l.bigBlindAnte > 0) {
      issues.push({ level: i, message: 'an ante or a big-blind ante, not both' });
    }
    const prev = levels[i - 1];
    if (prev !== undefined && l.bigBlind < prev.bigBlind) {
      issues.push({ level: i, message: 'the big blind never falls from one level to the next' });
    }
  });
  return issues;
}

/** The structure unchanged, or a {@link TournamentError} naming its first issue. */
export function checkStructure(structure: BlindStructure): BlindStructure {
  const [first] = structureIssues(structure);
  if (first !== undefined) {
    throw new TournamentError(TournamentErrorCode.STRUCTURE_INVALID, first.message, { level: first.level });
  }
  return structure;
}

/** The big blinds of the presets' schedule; small blinds are half, rounded down. */
const LADDER = [
  50, 100, 150, 200, 300, 400, 500, 600, 800, 1_000, 1_200, 1_600, 2_000, 2_500, 3_000, 4_000, 5_000, 6_000, 8_000,
  10_000, 12_000, 16_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000, 80_000, 100_000,
];

function ladder(antesFromLevel: number): BlindLevel[] {
  return LADDER.map((bb, i) => ({
    smallBlind: bb / 2,
    bigBlind: bb,
    ante: 0,
    bigBlindAnte: i + 1 >= antesFromLevel ? bb : 0,
  }));
}

export const StructurePreset = { TURBO: 'turbo', REGULAR: 'regular', DEEP: 'deep' } as const;
export type StructurePreset = (typeof StructurePreset)[keyof typeof StructurePreset];

export interface StructurePresetDefinition {
  readonly startingStack: number;
  readonly structure: BlindStructure;
}

/**
 * The presets: one schedule of 30 levels from 25/50 with a big-blind ante, at three speeds.
 * Turbo: 5,000 chips (100 big blinds), 5-minute levels, antes from level 3, no breaks.
 * Regular: 10,000 chips (200 big blinds), 10-minute levels, antes from level 4, 5 minutes off every hour.
 * Deep: 20,000 chips (400 big blinds), 15-minute levels, antes from level 5, 5 minutes off every hour.
 */
export const STRUCTURE_PRESETS: Readonly<Record<StructurePreset, StructurePresetDefinition>> = {
  turbo: {
    startingStack: 5_000,
    structure: { levels: ladder(3), levelLength: { unit: 'minutes', value: 5 }, breaks: null },
  },
  regular: {
    startingStack: 10_000,
    structure: {
      levels: ladder(4),
      levelLength: { unit: 'minutes', value: 10 },
      breaks: { everyLevels: 6, minutes: 5 },
    },
  },
  deep: {
    startingStack: 20_000,
    structure: {
      levels: ladder(5),
      levelLength: { unit: 'minutes', value: 15 },
      breaks: { everyLevels: 4, minutes: 5 },
    },
  },
};
