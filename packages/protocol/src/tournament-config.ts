/**
 * A tournament's configuration: what an organiser chooses when creating one, stored as JSON beside
 * the tournament and read by its director. Like a room's config, `parseTournamentConfig` applies the
 * defaults and the cross-field rules, and its output parses back to itself. The rules it names (the
 * blind structure, the payout chart, the seat draw) are @felt/engine's (`src/tournament/`).
 */
import {
  CodedError,
  STRUCTURE_PRESETS,
  levelAt,
  SimultaneousBustRule,
  StructurePreset,
  TOURNAMENT_ENTRANTS_MAX,
  structureIssues,
  type BlindLevel,
  type BlindStructure,
} from '@felt/engine';
import { z } from 'zod';
import {
  BETTING_LIMITS,
  GAME_TYPES,
  MIXED_FORMATS,
  SINGLE_GAMES,
  defaultLimitFor,
  isMixedGame,
  maxSeatsFor,
  type BettingLimit,
  type GameType,
  type SingleGameType,
} from './room-config/games.js';
import { CLOCK_DEFAULTS, checkStakes, resolveStakes } from './room-config/resolve.js';
import { ROOM_CHIPS_MAX, type RoomConfig, type Stakes, type StakesInput } from './room-config/schema.js';
import { parseRoomConfig } from './room-config.js';

export const TournamentFormat = { SIT_AND_GO: 'sit_and_go', SCHEDULED: 'scheduled' } as const;
export type TournamentFormat = (typeof TournamentFormat)[keyof typeof TournamentFormat];

const chips = z.number().int({ message: 'expected whole chips' }).nonnegative().max(Number.MAX_SAFE_INTEGER);

const levelInputSchema = z.strictObject({
  smallBlind: chips.optional(),
  bigBlind: chips,
  ante: chips.optional(),
  bigBlindAnte: chips.optional(),
});

export const tournamentConfigInputSchema = z.strictObject({
  /** Shown in the lobby: 1 to 60 characters, no control characters. */
  name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[^\p{Cc}\p{Cf}]*$/u, { message: 'no control characters' }),
  format: z.enum([TournamentFormat.SIT_AND_GO, TournamentFormat.SCHEDULED]),
  game: z.enum(GAME_TYPES).optional(),
  limit: z.enum(BETTING_LIMITS).optional(),
  /** Seats per table: 2 to the game's cap (default 9, or the game's cap when lower). */
  seats: z.number().int().min(2).max(10).optional(),
  /**
   * Sit-and-go: `max` players (default: one full table) and it starts when they have registered;
   * `min`, if given, must equal `max`. Scheduled: at least `min` (default 2) must have registered at
   * the start or it is cancelled and refunded; at most `max` (default 100) may.
   */
  entrants: z
    .strictObject({
      min: z.number().int().min(2).max(TOURNAMENT_ENTRANTS_MAX).optional(),
      max: z.number().int().min(2).max(TOURNAMENT_ENTRANTS_MAX).optional(),
    })
    .optional(),
  /** Scheduled only, required there: when play starts (ISO 8601 with an offset). */
  startsAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Scheduled only: registration stays open through this many levels after the start (0: until the start). */
  lateRegistrationLevels: z.number().int().min(0).max(20).optional(),
  /** Goes to the prize pool. 0 with no fee is a freeroll. */
  buyIn: chips,
  /** Goes to the house; at most the buy-in. */
  fee: chips.optional(),
  /** Chips each entry starts with (default: the preset's). */
  startingStack: chips.optional(),
  structure: z
    .strictObject({
      /** The schedule to start from (default: turbo for a sit-and-go, else regular). */
      preset: z.enum([StructurePreset.TURBO, StructurePreset.REGULAR, StructurePreset.DEEP]).optional(),
      /** Replaces the preset's levels; a small blind defaults to half the big blind. */
      levels: z.array(levelInputSchema).min(1).max(100).optional(),
      /** Every level's length, in minutes of play or in hands (default: the preset's minutes). */
      levelLength: z
        .strictObject({ unit: z.enum(['minutes', 'hands']), value: z.number().int().min(1).max(1000) })
        .optional(),
      /** Default: the preset's with levels in minutes, none with levels in hands. */
      breaks: z
        .strictObject({ everyLevels: z.number().int().min(1).max(100), minutes: z.number().int().min(1).max(60) })
        .nullable()
        .optional(),
    })
    .optional(),
  /** Scheduled only: a busted player may buy in again, up to `max` times, until `untilLevel` ends. */
  reEntry: z
    .strictObject({ max: z.number().int().min(1).max(10), untilLevel: z.number().int().min(1).max(30) })
    .nullable()
    .optional(),
  /** Scheduled only, with breaks: `chips` more for `cost` to the prize pool, offered once, at the first break. */
  addOn: z
    .strictObject({ chips: chips.min(1), cost: chips })
    .nullable()
    .optional(),
  /** How players busted in the same hand (or hand-for-hand round) are placed. */
  simultaneousBusts: z.enum([SimultaneousBustRule.STARTING_STACK, SimultaneousBustRule.TIE]).optional(),
  clock: z
    .strictObject({
      actionSeconds: z.number().int().min(5).max(300).optional(),
      timeBankSeconds: z.number().int().min(0).max(600).optional(),
    })
    .optional(),
});
export type TournamentConfigInput = z.input<typeof tournamentConfigInputSchema>;

/** A fully resolved tournament configuration: what is stored and what the director reads. */
export interface TournamentConfig {
  readonly name: string;
  readonly format: TournamentFormat;
  readonly game: GameType;
  readonly limit: BettingLimit;
  readonly seats: number;
  readonly entrants: { readonly min: number; readonly max: number };
  /** ISO 8601; null for a sit-and-go. */
  readonly startsAt: string | null;
  readonly lateRegistrationLevels: number;
  readonly buyIn: number;
  readonly fee: number;
  readonly startingStack: number;
  readonly structure: BlindStructure;
  readonly reEntry: { readonly max: number; readonly untilLevel: number } | null;
  readonly addOn: { readonly chips: number; readonly cost: number } | null;
  readonly simultaneousBusts: SimultaneousBustRule;
  readonly clock: { readonly actionSeconds: number; readonly timeBankSeconds: number };
}

type Issue = { path: (string | number)[]; message: string };

function resolveTournament(input: z.output<typeof tournamentConfigInputSchema>): {
  config: TournamentConfig;
  issues: Issue[];
} {
  const issues: Issue[] = [];
  const game = input.game ?? 'holdem';
  const cap = maxSeatsFor(game);
  const seats = input.seats ?? Math.min(9, cap);
  if (seats > cap) issues.push({ path: ['seats'], message: `${game} seats at most ${cap}` });
  const sitAndGo = input.format === TournamentFormat.SIT_AND_GO;

  const max = input.entrants?.max ?? (sitAndGo ? seats : 100);
  const min = input.entrants?.min ?? (sitAndGo ? max : 2);
  if (min > max) issues.push({ path: ['entrants', 'min'], message: 'at most entrants.max' });
  if (sitAndGo && max > seats)
    issues.push({ path: ['entrants', 'max'], message: `a sit-and-go is one table of ${seats}` });
  if (sitAndGo && min !== max)
    issues.push({ path: ['entrants', 'min'], message: 'a sit-and-go starts when full: min = max' });

  const scheduledOnly = (key: 'startsAt' | 'lateRegistrationLevels' | 'reEntry' | 'addOn') => {
    const v = input[key];
    if (sitAndGo && v !== undefined && v !== null && v !== 0) {
      issues.push({ path: [key], message: 'only for a scheduled tournament' });
    }
  };
  (['startsAt', 'lateRegistrationLevels', 'reEntry', 'addOn'] as const).forEach(scheduledOnly);
  if (!sitAndGo && (input.startsAt ?? null) === null)
    issues.push({ path: ['startsAt'], message: 'required for a scheduled tournament' });

  const fee = input.fee ?? 0;
  if (fee > input.buyIn) issues.push({ path: ['fee'], message: 'at most the buy-in' });

  const s = input.structure ?? {};
  const preset = STRUCTURE_PRESETS[s.preset ?? (sitAndGo ? StructurePreset.TURBO : StructurePreset.REGULAR)];
  const levels: BlindLevel[] = s.levels?.map((l) => ({
    smallBlind: l.smallBlind ?? Math.floor(l.bigBlind / 2),
    bigBlind: l.bigBlind,
    ante: l.ante ?? 0,
    bigBlindAnte: l.bigBlindAnte ?? 0,
  })) ?? [...preset.structure.levels];
  const levelLength = s.levelLength ?? preset.structure.levelLength;
  const breaks = s.breaks !== undefined ? s.breaks : levelLength.unit === 'hands' ? null : preset.structure.breaks;
  const structure: BlindStructure = { levels, levelLength, breaks };
  for (const issue of structureIssues(structure)) {
    issues.push({
      path: issue.level === null ? ['structure'] : ['structure', 'levels', issue.level],
      message: issue.message,
    });
  }
  // Every listed level must be playable by every game the tables deal.
  const limit = input.limit ?? defaultLimitFor(game);
  levels.forEach((level, i) => {
    const games = tableGames(game, limit);
    tournamentLevelStakes(game, limit, level).forEach((stakes, g) => {
      for (const issue of checkStakes(games[g]!.game, games[g]!.limit, stakes, ['structure', 'levels', i])) {
        issues.push(issue);
      }
    });
  });
  const startingStack = input.startingStack ?? preset.startingStack;
  const firstBigBlind = levels[0]?.bigBlind ?? 1;
  if (startingStack < firstBigBlind * 10) {
    issues.push({ path: ['startingStack'], message: 'at least 10 big blinds of the first level' });
  }
  const addOn = input.addOn ?? null;
  if (addOn !== null && breaks === null)
    issues.push({ path: ['addOn'], message: 'offered at the first break: the structure has none' });

  return {
    config: {
      name: input.name,
      format: input.format,
      game,
      limit,
      seats,
      entrants: { min, max },
      startsAt: sitAndGo ? null : (input.startsAt ?? null),
      lateRegistrationLevels: sitAndGo ? 0 : (input.lateRegistrationLevels ?? 0),
      buyIn: input.buyIn,
      fee,
      startingStack,
      structure,
      reEntry: sitAndGo ? null : (input.reEntry ?? null),
      addOn: sitAndGo ? null : addOn,
      simultaneousBusts: input.simultaneousBusts ?? SimultaneousBustRule.STARTING_STACK,
      clock: {
        actionSeconds: input.clock?.actionSeconds ?? CLOCK_DEFAULTS.actionSeconds,
        timeBankSeconds: input.clock?.timeBankSeconds ?? CLOCK_DEFAULTS.timeBankSeconds,
      },
    },
    issues,
  };
}

/** The games a tournament's tables deal: its one game, or its mixed format's rotation. */
function tableGames(game: GameType, limit: BettingLimit): { game: SingleGameType; limit: BettingLimit }[] {
  return isMixedGame(game) ? MIXED_FORMATS[game].map((e) => ({ game: e.game, limit: e.limit })) : [{ game, limit }];
}

/**
 * The stakes a level makes for each game the tournament's tables deal (one for a single game, one per
 * rotation entry of a mixed format, in order): blind games take the level's blinds and antes; Short
 * Deck its big blind as the button blind, with the level's ante or half the big blind; the Stud family
 * its big blind as the small bet, with the level's ante or a tenth of it and a bring-in of a third.
 * What a table passes to the engine's `Table.setStakes` at each new level.
 */
export function tournamentLevelStakes(game: GameType, limit: BettingLimit, level: BlindLevel): Stakes[] {
  return tableGames(game, limit).map(({ game: g }) => {
    const forced = SINGLE_GAMES[g].forcedBets;
    const input: StakesInput =
      forced === 'blinds'
        ? { smallBlind: level.smallBlind, bigBlind: level.bigBlind, ante: level.ante, bigBlindAnte: level.bigBlindAnte }
        : forced === 'button_blind'
          ? { bigBlind: level.bigBlind, ...(level.ante > 0 ? { ante: level.ante } : {}) }
          : { smallBet: level.bigBlind, ...(level.ante > 0 ? { ante: level.ante } : {}) };
    return resolveStakes(g, input);
  });
}

/** Input → defaults → cross-field rules. Its output is a TournamentConfig that parses back to itself. */
export const tournamentConfigSchema: z.ZodType<TournamentConfig, TournamentConfigInput> =
  tournamentConfigInputSchema.transform((input, ctx) => {
    const { config, issues } = resolveTournament(input);
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return config;
  });

export const TournamentConfigErrorCode = { INVALID: 'invalid_tournament_config' } as const;
export type TournamentConfigErrorCode = (typeof TournamentConfigErrorCode)[keyof typeof TournamentConfigErrorCode];

export interface TournamentConfigIssue {
  /** Dotted path of the field, e.g. "structure.levels.3". */
  readonly path: string;
  readonly message: string;
}

export class TournamentConfigError extends CodedError<TournamentConfigErrorCode> {
  override readonly name = 'TournamentConfigError';
  constructor(
    readonly issues: readonly TournamentConfigIssue[],
    options?: { cause?: unknown },
  ) {
    super(
      TournamentConfigErrorCode.INVALID,
      `invalid tournament config: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
      options,
    );
  }
}

export type TournamentConfigResult =
  { success: true; config: TournamentConfig } | { success: false; error: TournamentConfigError };

export function safeParseTournamentConfig(input: unknown): TournamentConfigResult {
  const result = tournamentConfigSchema.safeParse(input);
  if (result.success) return { success: true, config: result.data };
  return {
    success: false,
    error: new TournamentConfigError(
      result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      { cause: result.error },
    ),
  };
}

/** Validates a tournament config and applies its defaults; throws TournamentConfigError listing every problem. */
export function parseTournamentConfig(input: unknown): TournamentConfig {
  const result = safeParseTournamentConfig(input);
  if (!result.success) throw result.error;
  return result.config;
}

/** How far ahead a scheduled tournament may be announced. */
export const TOURNAMENT_SCHEDULE_AHEAD_MS = 90 * 24 * 3600_000;

/**
 * Rules a *new* tournament must follow beyond what a stored config satisfies, at `nowMs`: a start in
 * the future and at most {@link TOURNAMENT_SCHEDULE_AHEAD_MS} away, every total (the entry price,
 * the largest prize pool, every chip that can be in play) within {@link ROOM_CHIPS_MAX}, so stacks,
 * pots and prizes stay safe integers all the way through, a re-entry only within late registration,
 * and an add-on only at a break after it.
 */
export function newTournamentIssues(config: TournamentConfig, nowMs: number): TournamentConfigIssue[] {
  const issues: TournamentConfigIssue[] = [];
  if (config.format === TournamentFormat.SCHEDULED && config.startsAt === null) {
    issues.push({ path: 'startsAt', message: 'required for a scheduled tournament' });
  }
  if (config.startsAt !== null) {
    const at = Date.parse(config.startsAt);
    if (!(at > nowMs)) issues.push({ path: 'startsAt', message: 'in the future' });
    else if (at - nowMs > TOURNAMENT_SCHEDULE_AHEAD_MS)
      issues.push({ path: 'startsAt', message: 'at most 90 days ahead' });
  }
  const entries = config.entrants.max * (1 + (config.reEntry?.max ?? 0));
  const addOns = config.addOn === null ? 0 : config.entrants.max;
  const limits: Array<[string, number]> = [
    ['buyIn', config.buyIn + config.fee],
    ['buyIn', entries * config.buyIn + addOns * (config.addOn?.cost ?? 0)],
    ['startingStack', entries * config.startingStack + addOns * (config.addOn?.chips ?? 0)],
  ];
  const seen = new Set<string>();
  for (const [path, total] of limits) {
    if (total > ROOM_CHIPS_MAX && !seen.has(path)) {
      seen.add(path);
      issues.push({ path, message: `the totals it makes may come to at most ${ROOM_CHIPS_MAX} chips` });
    }
  }
  // A re-entry is a late registration of a busted player: it is taken only while registration is
  // open, so its last level may not outlast late registration's.
  if (config.reEntry !== null && config.reEntry.untilLevel > config.lateRegistrationLevels) {
    issues.push({
      path: 'reEntry',
      message:
        config.lateRegistrationLevels === 0
          ? 'needs late registration (lateRegistrationLevels): a re-entry is a late registration'
          : `untilLevel at most lateRegistrationLevels (${config.lateRegistrationLevels}): a re-entry is a late registration`,
    });
  }
  // The add-on is sold at the first break, when the field and the pool are final but for it: late
  // registration must be over by then.
  const breaks = config.structure.breaks;
  if (config.addOn !== null && breaks !== null && breaks.everyLevels <= config.lateRegistrationLevels) {
    issues.push({
      path: 'addOn',
      message: `sold at the first break, which must come after late registration (structure.breaks.everyLevels above ${config.lateRegistrationLevels})`,
    });
  }
  return issues;
}

/** Only the stakes a game uses, as a room config takes them (a resolved Stakes lists 0 for the rest). */
function stakesInput(stakes: Stakes): StakesInput {
  return Object.fromEntries(Object.entries(stakes).filter(([, v]) => v > 0));
}

/**
 * The room config a tournament's tables play under: its game (a mixed format's rotation), seats and
 * clock, the first level's stakes (the director sets each level's with `Table.setStakes`), no rake,
 * no bots, unlisted, never practice chips, and no dealing by themselves: the director deals.
 */
export function tournamentTableConfig(config: TournamentConfig): RoomConfig {
  const first = levelAt(config.structure, 0);
  const stakes = tournamentLevelStakes(config.game, config.limit, first);
  const mixed = isMixedGame(config.game);
  return parseRoomConfig({
    game: config.game,
    ...(mixed ? {} : { limit: config.limit, stakes: stakesInput(stakes[0]!) }),
    seats: config.seats,
    clock: { actionSeconds: config.clock.actionSeconds, timeBankSeconds: config.clock.timeBankSeconds },
    rake: { percent: 0 },
    startHand: { autoStart: false, hostMayForceStart: false },
    botFill: { mode: 'off' },
    listed: false,
    // Tournament chips are not ledger money, and a tournament is paid in real chips: never practice.
    practiceChips: false,
    ...(mixed
      ? {
          rotation: {
            order: MIXED_FORMATS[config.game].map((e, i) => ({
              game: e.game,
              limit: e.limit,
              stakes: stakesInput(stakes[i]!),
            })),
          },
        }
      : {}),
  });
}
