/** What a host sends (the input schemas) and what a room stores (the resolved RoomConfig). */
import { z } from 'zod';
import { DEALING_MODES, type DealingMode } from '../blind-frames.js';
import {
  BETTING_LIMITS,
  GAME_TYPES,
  SINGLE_GAME_TYPES,
  type BettingLimit,
  type GameType,
  type SingleGameType,
} from './games.js';

/** Whole chips. Safe integers, because they travel as JSON numbers and become BigInt in the ledger. */
const chips = z.number().int({ message: 'expected whole chips' }).nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The most chips any amount of a *new* room may come to, given or derived (stakes, bet sizes,
 * buy-ins, the rake cap): 10^12. A table's pots add up to ten such stacks and more with top-ups,
 * and every one of those sums must stay a safe integer (2^53 - 1, about 9 * 10^15) on the way
 * through JSON, the engine and the ledger, with three orders of magnitude to spare. Stored configs
 * are held only to the safe-integer bound (see `newRoomIssues` in room-config.ts).
 */
export const ROOM_CHIPS_MAX = 1_000_000_000_000;

/** A percentage with at most two decimals (the engine works in basis points). */
const percent = z
  .number()
  .min(0)
  .max(100)
  .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-9, { message: 'at most two decimals' });

const stakesInputSchema = z.strictObject({
  smallBlind: chips.optional(),
  bigBlind: chips.optional(),
  /** Posted by every dealt-in player. */
  ante: chips.optional(),
  /** Posted by the big blind for the whole table; exclusive with `ante`. */
  bigBlindAnte: chips.optional(),
  /** Short Deck's button blind. */
  buttonBlind: chips.optional(),
  /** Stud family: the lowest (Razz: highest) door card's forced bet. */
  bringIn: chips.optional(),
  /** Fixed-limit small bet (Stud family: also the completion). */
  smallBet: chips.optional(),
  /** Fixed-limit big bet. */
  bigBet: chips.optional(),
});
export type StakesInput = z.input<typeof stakesInputSchema>;

/** Resolved stakes: every field present; 0 means the game has no such forced bet. */
export interface Stakes {
  readonly smallBlind: number;
  readonly bigBlind: number;
  readonly ante: number;
  readonly bigBlindAnte: number;
  readonly buttonBlind: number;
  readonly bringIn: number;
  readonly smallBet: number;
  readonly bigBet: number;
}

export const rotationEntryInputSchema = z.strictObject({
  game: z.enum(SINGLE_GAME_TYPES),
  limit: z.enum(BETTING_LIMITS).optional(),
  /** Overrides of the room's stakes for this game: blinds, antes, bring-in and bet sizes. */
  stakes: stakesInputSchema.optional(),
  /** A tighter seat cap for this game. */
  maxSeats: z.number().int().min(2).max(10).optional(),
});

const clockInputSchema = z.strictObject({
  actionSeconds: z.number().int().min(5).max(300).optional(),
  timeBankSeconds: z.number().int().min(0).max(600).optional(),
  warningSeconds: z.number().int().min(0).max(299).optional(),
  /** Seconds added back to each dealt-in player's time bank (up to a full bank) every `refillEveryHands` hands; 0: never. */
  refillSeconds: z.number().int().min(0).max(600).optional(),
  /** How many of the table's hands between two refills. */
  refillEveryHands: z.number().int().min(1).max(1000).optional(),
});

const rakeInputSchema = z.strictObject({
  percent: percent.max(10, { message: 'at most 10 percent' }).optional(),
  /** Most chips raked from one hand; 0 means no cap. */
  cap: chips.optional(),
  /** Replaces `percent` when exactly two players remain at settlement; null means the same. */
  headsUpPercent: percent.max(10, { message: 'at most 10 percent' }).nullable().optional(),
  /** No rake unless the hand saw a flop (Stud: fourth street). */
  noFlopNoDrop: z.boolean().optional(),
});

/**
 * Showdown options, the engine's ShowdownOptions: who must show, who may muck, and who
 * shows first.
 */
const showdownInputSchema = z.strictObject({
  /** When false, every hand at showdown is shown. */
  allowMuck: z.boolean().optional(),
  /** When true, every hand at showdown is shown. */
  showAllHands: z.boolean().optional(),
  /** Losing hands that need not show are mucked; when false they are tabled. */
  autoMuck: z.boolean().optional(),
  /** The last aggressor of the final betting round shows first (else the first live seat after the button). */
  lastAggressorShowsFirst: z.boolean().optional(),
  /** A player all-in must show at showdown. */
  allInMustShow: z.boolean().optional(),
  /** A winner of a contested pot must show. */
  contestedWinnerMustShow: z.boolean().optional(),
});

export const SHOWDOWN_DEFAULTS = {
  allowMuck: true,
  showAllHands: false,
  autoMuck: true,
  lastAggressorShowsFirst: true,
  allInMustShow: true,
  contestedWinnerMustShow: true,
} as const;

/** Bets and raises per betting round: the structure's default (fixed limit 4, otherwise none), none, or N. */
const raiseCapSchema = z.union([z.literal('default'), z.literal('none'), z.number().int().min(1).max(100)]);
export type RaiseCap = z.infer<typeof raiseCapSchema>;

/** House rules on which rooms differ (docs/engine.md, "House rules"). */
const rulesInputSchema = z.strictObject({
  /**
   * A big blind (Short Deck: the button blind) posted all-in for less: `full_blind` keeps the full blind
   * as the bet to call and the base of the minimum raise; `posted` makes what was posted the bet to call.
   */
  shortAllInBlind: z.enum(['full_blind', 'posted']).optional(),
  /** Odd chips of a split pot: one each clockwise from the button, or all to the first winner. */
  oddChips: z.enum(['one_each', 'first_winner']).optional(),
  /** Stud and Stud Hi-Lo, fixed limit: an open pair on fourth street allows the big bet. */
  studOpenPairBigBet: z.boolean().optional(),
  /** Fixed limit: an all-in of at least half a bet reopens the betting like a full bet. */
  limitHalfBetReopens: z.boolean().optional(),
  raiseCap: raiseCapSchema.optional(),
  showdown: showdownInputSchema.optional(),
});

export const RULES_DEFAULTS = {
  shortAllInBlind: 'full_blind',
  oddChips: 'one_each',
  studOpenPairBigBet: true,
  limitHalfBetReopens: false,
  raiseCap: 'default',
} as const;

export const BotFillMode = { OFF: 'off', FILL: 'fill' } as const;
export type BotFillMode = (typeof BotFillMode)[keyof typeof BotFillMode];

/** What a client sends: every field optional except the stakes that the game needs. */
export const roomConfigInputSchema = z.strictObject({
  game: z.enum(GAME_TYPES).optional(),
  limit: z.enum(BETTING_LIMITS).optional(),
  stakes: stakesInputSchema.optional(),
  seats: z.number().int().min(2).max(10).optional(),
  buyIn: z
    .strictObject({
      min: chips.optional(),
      max: chips.optional(),
    })
    .optional(),
  clock: clockInputSchema.optional(),
  rake: rakeInputSchema.optional(),
  startHand: z
    .strictObject({
      /** Deal the next hand as soon as enough players are ready. */
      autoStart: z.boolean().optional(),
      /** The host may start a hand (with fewer ready players than auto-start waits for). */
      hostMayForceStart: z.boolean().optional(),
    })
    .optional(),
  botFill: z
    .strictObject({
      mode: z.enum([BotFillMode.OFF, BotFillMode.FILL]).optional(),
      /** With mode "fill": bots take empty seats until this many players are seated. */
      targetPlayers: z.number().int().min(2).max(10).optional(),
    })
    .optional(),
  /** Only for horse and 8game (null or absent otherwise). */
  rotation: z
    .strictObject({
      order: z.array(rotationEntryInputSchema).min(2).max(16).optional(),
      /** Hands of each game before the rotation moves on (only at hand boundaries). */
      handsPerVariant: z.number().int().min(1).max(100).optional(),
    })
    .nullable()
    .optional(),
  /** Listed in the lobby and eligible for quick join; a private room is joined by its code. */
  listed: z.boolean().optional(),
  /** House rules and showdown options; every field defaults as docs/engine.md says. */
  rules: rulesInputSchema.optional(),
  /**
   * Play with practice chips (default false): free chips from the player's practice wallet, never
   * their real wallet (docs/dev/money-flows.md, "Practice chips"). A practice room takes no rake.
   */
  practiceChips: z.boolean().optional(),
  /**
   * How cards are dealt (default "standard"). "engine_blind": the players shuffle and deal among
   * themselves, so the server never holds an unshown hole card (docs/fairness.md, "Engine-blind
   * dealing"); practice chips only, no bot fill, and hold'em, Omaha or short deck only.
   */
  dealing: z.enum(DEALING_MODES).optional(),
  /** Table chat (docs/protocol.md, "Table chat"). */
  chat: z
    .strictObject({
      /** Players may chat at the table (default true); false turns chat off for everyone. */
      enabled: z.boolean().optional(),
      /** Spectators may chat too, while chat is on (default false: they only read it). */
      spectators: z.boolean().optional(),
    })
    .optional(),
});
export type RoomConfigInput = z.input<typeof roomConfigInputSchema>;

export interface RotationEntry {
  readonly game: SingleGameType;
  readonly limit: BettingLimit;
  readonly stakes: Stakes;
  readonly maxSeats: number;
}

/** A fully resolved room configuration: what is stored and what the worker reads. */
export interface RoomConfig {
  readonly game: GameType;
  readonly limit: BettingLimit;
  readonly stakes: Stakes;
  readonly seats: number;
  readonly buyIn: { readonly min: number; readonly max: number };
  readonly clock: {
    readonly actionSeconds: number;
    readonly timeBankSeconds: number;
    readonly warningSeconds: number;
    readonly refillSeconds: number;
    readonly refillEveryHands: number;
  };
  readonly rake: {
    readonly percent: number;
    readonly cap: number;
    readonly headsUpPercent: number | null;
    readonly noFlopNoDrop: boolean;
  };
  readonly startHand: { readonly autoStart: boolean; readonly hostMayForceStart: boolean };
  readonly botFill: { readonly mode: BotFillMode; readonly targetPlayers: number };
  /** Present for horse and 8game, null otherwise. */
  readonly rotation: { readonly order: readonly RotationEntry[]; readonly handsPerVariant: number } | null;
  readonly listed: boolean;
  readonly rules: RoomRules;
  readonly chat: RoomChat;
  /** Chips come from practice wallets, never real ones; fixed at creation (rooms.practice). */
  readonly practiceChips: boolean;
  /** How cards are dealt; engine-blind only with practice chips, no bot fill and a blind-dealable game. */
  readonly dealing: DealingMode;
}

/** Who may chat at the room's table. */
export interface RoomChat {
  readonly enabled: boolean;
  readonly spectators: boolean;
}

export const CHAT_DEFAULTS = { enabled: true, spectators: false } as const satisfies RoomChat;

export interface RoomRules {
  readonly shortAllInBlind: 'full_blind' | 'posted';
  readonly oddChips: 'one_each' | 'first_winner';
  readonly studOpenPairBigBet: boolean;
  readonly limitHalfBetReopens: boolean;
  readonly raiseCap: RaiseCap;
  readonly showdown: {
    readonly allowMuck: boolean;
    readonly showAllHands: boolean;
    readonly autoMuck: boolean;
    readonly lastAggressorShowsFirst: boolean;
    readonly allInMustShow: boolean;
    readonly contestedWinnerMustShow: boolean;
  };
}
