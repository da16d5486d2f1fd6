/**
 * A room's configuration: what the host chooses when creating a room, stored as JSON in
 * rooms.config and read by the table worker. `parseRoomConfig` applies the defaults and the
 * cross-field rules, and its output parses back to itself, so the stored form is the parsed form
 * and every read can re-validate it.
 *
 * Field names are camelCase, like the engine's HandSetup that the worker builds from them.
 *
 * The parts: room-config/games.ts (games, limits, their profiles and the mixed formats),
 * room-config/schema.ts (the input schemas and the resolved types), room-config/resolve.ts (defaults
 * and cross-field rules); this file puts them together and is the entry the package exports.
 */
import { CodedError } from '@felt/engine';
import type { z } from 'zod';
import { SINGLE_GAMES, isMixedGame } from './room-config/games.js';
import { amountIssues, resolve } from './room-config/resolve.js';
import {
  BotFillMode,
  ROOM_CHIPS_MAX,
  roomConfigInputSchema,
  type RoomConfig,
  type RoomConfigInput,
} from './room-config/schema.js';

export {
  BETTING_LIMITS,
  BettingLimit,
  GAME_TYPES,
  GameType,
  MIXED_FORMATS,
  SINGLE_GAME_TYPES,
  defaultLimitFor,
  isMixedGame,
  maxSeatsFor,
  type RotationEntryDefault,
  type SingleGameType,
} from './room-config/games.js';
export {
  BotFillMode,
  CHAT_DEFAULTS,
  ROOM_CHIPS_MAX,
  RULES_DEFAULTS,
  SHOWDOWN_DEFAULTS,
  roomConfigInputSchema,
  type RaiseCap,
  type RoomConfig,
  type RoomChat,
  type RoomConfigInput,
  type RoomRules,
  type RotationEntry,
  type Stakes,
  type StakesInput,
} from './room-config/schema.js';
export { BUY_IN_BOUNDS, CLOCK_DEFAULTS, stakesUnit } from './room-config/resolve.js';

/**
 * The config schema: input → defaults → cross-field rules. Its output is a RoomConfig, and parsing
 * that output again returns it unchanged.
 */
export const roomConfigSchema: z.ZodType<RoomConfig, RoomConfigInput> = roomConfigInputSchema.transform(
  (input, ctx) => {
    const { config, issues } = resolve(input);
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return config;
  },
);

export const RoomConfigErrorCode = { INVALID: 'invalid_room_config' } as const;
export type RoomConfigErrorCode = (typeof RoomConfigErrorCode)[keyof typeof RoomConfigErrorCode];

export interface RoomConfigIssue {
  /** Dotted path of the field, e.g. "stakes.smallBlind" or "rotation.order.2.stakes.bringIn". */
  readonly path: string;
  readonly message: string;
}

export class RoomConfigError extends CodedError<RoomConfigErrorCode> {
  override readonly name = 'RoomConfigError';
  constructor(
    readonly issues: readonly RoomConfigIssue[],
    options?: { cause?: unknown },
  ) {
    super(
      RoomConfigErrorCode.INVALID,
      `invalid room config: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
      options,
    );
  }
}

export type RoomConfigResult = { success: true; config: RoomConfig } | { success: false; error: RoomConfigError };

export function safeParseRoomConfig(input: unknown): RoomConfigResult {
  const result = roomConfigSchema.safeParse(input);
  if (result.success) return { success: true, config: result.data };
  return {
    success: false,
    error: new RoomConfigError(
      result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      { cause: result.error },
    ),
  };
}

/**
 * Rules a *new* room must follow beyond what every stored config satisfies (stored configs are
 * re-read on every use, so a rule added later applies here, to creation, and not to them).
 * - Bot fill leaves a seat free above heads-up: a player can always join, and a bot then leaves
 *   for them between hands. Heads-up is the exception: there the bot is the one opponent.
 * - Every amount, given or derived, is at most {@link ROOM_CHIPS_MAX} chips.
 */
export function newRoomIssues(config: RoomConfig): RoomConfigIssue[] {
  const issues: RoomConfigIssue[] = amountIssues(config, ROOM_CHIPS_MAX, 'a new room may use').map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  const { botFill, seats } = config;
  if (botFill.mode === BotFillMode.FILL && seats > 2 && botFill.targetPlayers >= seats) {
    issues.push({
      path: 'botFill.targetPlayers',
      message: `leave a seat for players to join: bots fill at most ${seats - 1} of the ${seats} seats`,
    });
  }
  return issues;
}

/** Validates a room config and applies its defaults; throws RoomConfigError listing every problem. */
export function parseRoomConfig(input: unknown): RoomConfig {
  const result = safeParseRoomConfig(input);
  if (!result.success) throw result.error;
  return result.config;
}

/** "1/2" for blind games, "10/20" (small/big bet) for the Stud family: how the lobby shows stakes. */
export function stakesLabel(config: RoomConfig): string {
  const s = config.stakes;
  if (!isMixedGame(config.game) && SINGLE_GAMES[config.game].forcedBets === 'bring_in') {
    return `${s.smallBet}/${s.bigBet}`;
  }
  if (config.game === 'shortdeck') return `${s.ante}/${s.buttonBlind}`;
  return `${s.smallBlind}/${s.bigBlind}`;
}
