import { BetLimit, CodedError, MIXED_FORMATS as ENGINE_MIXED_FORMATS, MixedFormat } from '@felt/engine';
import { z } from 'zod';

/**
 * A room's configuration: what the host chooses when creating a room, stored as JSON in
 * rooms.config and read by the table worker. `parseRoomConfig` applies the defaults and the
 * cross-field rules, and its output parses back to itself, so the stored form is the parsed form
 * and every read can re-validate it.
 *
 * Field names are camelCase, like the engine's HandSetup that the worker builds from them.
 */

export const GameType = {
  HOLDEM: 'holdem',
  OMAHA: 'omaha',
  OMAHA5: 'omaha5',
  OMAHA8: 'omaha8',
  SHORT_DECK: 'shortdeck',
  STUD: 'stud',
  STUD8: 'stud8',
  RAZZ: 'razz',
  TRIPLE_DRAW_27: '27td',
  HORSE: MixedFormat.HORSE,
  EIGHT_GAME: MixedFormat.EIGHT_GAME,
} as const;
export type GameType = (typeof GameType)[keyof typeof GameType];
export const GAME_TYPES = Object.values(GameType) as [GameType, ...GameType[]];

/** The games a mixed rotation is made of (a rotation can't contain another rotation). */
export type SingleGameType = Exclude<GameType, MixedFormat>;
export const SINGLE_GAME_TYPES = GAME_TYPES.filter((g) => !isMixedGame(g)) as [SingleGameType, ...SingleGameType[]];

/** The engine's betting structures, under the name the room config has always used. */
export const BettingLimit = BetLimit;
export type BettingLimit = BetLimit;
export const BETTING_LIMITS = Object.values(BettingLimit) as [BettingLimit, ...BettingLimit[]];

/** How a game opens the action, which decides the stakes it needs. */
type ForcedBets = 'blinds' | 'button_blind' | 'bring_in';

interface GameProfile {
  readonly forcedBets: ForcedBets;
  /** Reference 001: NL for Hold'em and Short Deck, PL for the Omahas, FL for Stud, Razz and 2-7. */
  readonly defaultLimit: BettingLimit;
  readonly maxSeats: number;
}

const SINGLE_GAMES: Readonly<Record<SingleGameType, GameProfile>> = {
  holdem: { forcedBets: 'blinds', defaultLimit: 'nl', maxSeats: 10 },
  omaha: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 10 },
  // Five hole cards each: eight players already take 40 of the 52 cards (reference 001).
  omaha5: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 8 },
  omaha8: { forcedBets: 'blinds', defaultLimit: 'pl', maxSeats: 10 },
  shortdeck: { forcedBets: 'button_blind', defaultLimit: 'nl', maxSeats: 10 },
  // Seven cards each from one deck (reference 001's stud cap).
  stud: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  stud8: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  razz: { forcedBets: 'bring_in', defaultLimit: 'fl', maxSeats: 8 },
  // Five cards each plus three draws: the usual six-handed cap keeps reshuffles of the discards
  // rare. Raising a cap later is compatible with stored rooms; lowering one would not be.
  '27td': { forcedBets: 'blinds', defaultLimit: 'fl', maxSeats: 6 },
};

export interface RotationEntryDefault {
  readonly game: SingleGameType;
  readonly limit: BettingLimit;
}

/**
 * The named mixed formats and their default rotations: the engine's, typed for the room config (the
 * assignment checks that every game in them is one a room can name).
 */
export const MIXED_FORMATS: Readonly<Record<MixedFormat, readonly RotationEntryDefault[]>> = ENGINE_MIXED_FORMATS;

export function isMixedGame(game: GameType): game is MixedFormat {
  return game === MixedFormat.HORSE || game === MixedFormat.EIGHT_GAME;
}

/** The most seats a game allows; for a mixed game, the tightest cap in its default rotation. */
export function maxSeatsFor(game: GameType): number {
  if (isMixedGame(game)) return Math.min(...MIXED_FORMATS[game].map((e) => SINGLE_GAMES[e.game].maxSeats));
  return SINGLE_GAMES[game].maxSeats;
}

export function defaultLimitFor(game: GameType): BettingLimit {
  // Both named mixed formats open with fixed limit; each rotation entry carries its own limit.
  return isMixedGame(game) ? 'fl' : SINGLE_GAMES[game].defaultLimit;
}

// ---------------------------------------------------------------------------------------------
// Schemas

/** Whole chips. Safe integers, because they travel as JSON numbers and become BigInt in the ledger. */
const chips = z.number().int({ message: 'expected whole chips' }).nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The most chips any amount of a *new* room may come to, given or derived (stakes, bet sizes,
 * buy-ins, the rake cap): 10^12. A table's pots add up to ten such stacks and more with top-ups,
 * and every one of those sums must stay a safe integer (2^53 - 1, about 9 * 10^15) on the way
 * through JSON, the engine and the ledger, with three orders of magnitude to spare. Stored configs
 * are held only to the safe-integer bound (see {@link newRoomIssues}).
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

const rotationEntryInputSchema = z.strictObject({
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
 * Showdown options (reference 001), the engine's ShowdownOptions: who must show, who may muck, and who
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
  readonly clock: { readonly actionSeconds: number; readonly timeBankSeconds: number; readonly warningSeconds: number };
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
}

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

// ---------------------------------------------------------------------------------------------
// Defaults and cross-field rules

/** Buy-ins are measured in this unit: the big blind, or the small bet in the Stud family. */
export function stakesUnit(game: GameType, stakes: Stakes): number {
  return !isMixedGame(game) && SINGLE_GAMES[game].forcedBets === 'bring_in' ? stakes.smallBet : stakes.bigBlind;
}

/** Buy-in limits relative to the stakes unit. */
export const BUY_IN_BOUNDS = { minUnits: 10, maxUnits: 1000, defaultMinUnits: 40, defaultMaxUnits: 100 } as const;

export const CLOCK_DEFAULTS = { actionSeconds: 30, timeBankSeconds: 60, warningSeconds: 10 } as const;

type Issue = { path: (string | number)[]; message: string };

const DEFAULT_UNIT = 2;

function half(n: number): number {
  return Math.max(1, Math.floor(n / 2));
}

/**
 * Stakes for one game: the given values, then the game's defaults. `base` is the room's stakes
 * when resolving a rotation entry, so an entry inherits what it doesn't override.
 */
function resolveStakes(game: SingleGameType | 'mixed', input: StakesInput, base?: Stakes): Stakes {
  // A room-level 0 means "none there", so a game in the rotation falls back to its own default.
  const pick = (k: keyof Stakes): number | undefined => input[k] ?? (base?.[k] || undefined);
  // A forced bet the game doesn't use is 0 unless this very input sets it, in which case
  // checkStakes reports it; inherited room-level values don't leak into games without them.
  const unused = (k: keyof Stakes): number => input[k] ?? 0;
  const forced: ForcedBets | 'mixed' = game === 'mixed' ? 'mixed' : SINGLE_GAMES[game].forcedBets;
  // Without stakes a room plays 1/2 (Stud family: 2/4 with a bring-in of 1).
  const bigBlind = forced === 'bring_in' ? unused('bigBlind') : (pick('bigBlind') ?? DEFAULT_UNIT);
  const smallBet = pick('smallBet') ?? (forced === 'bring_in' ? DEFAULT_UNIT : bigBlind);
  const bigBet = pick('bigBet') ?? smallBet * 2;
  const bringIn = (): number => pick('bringIn') ?? (smallBet > 0 ? Math.max(1, Math.floor(smallBet / 3)) : 0);
  switch (forced) {
    case 'blinds':
      return {
        smallBlind: pick('smallBlind') ?? (bigBlind > 0 ? half(bigBlind) : 0),
        bigBlind,
        ante: pick('ante') ?? 0,
        bigBlindAnte: pick('bigBlindAnte') ?? 0,
        buttonBlind: unused('buttonBlind'),
        bringIn: unused('bringIn'),
        smallBet,
        bigBet,
      };
    case 'button_blind':
      return {
        smallBlind: unused('smallBlind'),
        bigBlind,
        ante: pick('ante') ?? (bigBlind > 0 ? half(bigBlind) : 0),
        bigBlindAnte: unused('bigBlindAnte'),
        buttonBlind: pick('buttonBlind') ?? bigBlind,
        bringIn: unused('bringIn'),
        smallBet,
        bigBet,
      };
    case 'bring_in':
      return {
        smallBlind: unused('smallBlind'),
        bigBlind,
        ante: pick('ante') ?? (smallBet > 0 ? Math.max(1, Math.floor(smallBet / 10)) : 0),
        bigBlindAnte: unused('bigBlindAnte'),
        buttonBlind: unused('buttonBlind'),
        bringIn: bringIn(),
        smallBet,
        bigBet,
      };
    case 'mixed':
      // The room-level stakes of a mixed game carry everything its components may need.
      return {
        smallBlind: pick('smallBlind') ?? (bigBlind > 0 ? half(bigBlind) : 0),
        bigBlind,
        ante: pick('ante') ?? 0,
        bigBlindAnte: pick('bigBlindAnte') ?? 0,
        buttonBlind: pick('buttonBlind') ?? 0,
        bringIn: bringIn(),
        smallBet,
        bigBet,
      };
  }
}

/** Forced bets the game can't use must be zero, so a config never says more than it means. */
function checkStakes(game: SingleGameType, limit: BettingLimit, s: Stakes, path: (string | number)[]): Issue[] {
  const issues: Issue[] = [];
  const at = (field: keyof Stakes, message: string): void => {
    issues.push({ path: [...path, field], message });
  };
  const forced = SINGLE_GAMES[game].forcedBets;
  if (forced === 'blinds' || forced === 'button_blind') {
    if (s.bigBlind < 1) at('bigBlind', `${game} needs a big blind of at least 1 chip`);
  }
  if (forced === 'blinds') {
    if (s.smallBlind < 1) at('smallBlind', `${game} needs a small blind of at least 1 chip`);
    if (s.smallBlind > s.bigBlind) at('smallBlind', 'the small blind cannot exceed the big blind');
  } else if (s.smallBlind !== 0) {
    at('smallBlind', `${game} has no small blind`);
  }
  if (forced === 'bring_in' && s.bigBlind !== 0) at('bigBlind', `${game} has no big blind (it uses a bring-in)`);
  if (forced === 'button_blind') {
    if (s.buttonBlind < 1) at('buttonBlind', 'Short Deck needs a button blind of at least 1 chip');
    if (s.ante < 1) at('ante', 'Short Deck needs an ante from every player');
  } else if (s.buttonBlind !== 0) {
    at('buttonBlind', 'only Short Deck has a button blind');
  }
  if (forced === 'bring_in') {
    if (s.smallBet < 1) at('smallBet', `${game} needs a small bet of at least 1 chip`);
    if (s.bringIn < 1) at('bringIn', `${game} needs a bring-in of at least 1 chip`);
    if (s.bringIn > s.smallBet) at('bringIn', 'the bring-in cannot exceed the small bet (the completion)');
  } else if (s.bringIn !== 0) {
    at('bringIn', 'only the Stud family has a bring-in');
  }
  if (s.bigBlindAnte !== 0) {
    if (forced !== 'blinds') at('bigBlindAnte', 'a big-blind ante needs a big blind');
    if (s.ante !== 0) at('bigBlindAnte', 'choose an ante or a big-blind ante, not both');
    if (s.bigBlindAnte > s.bigBlind) at('bigBlindAnte', 'the big-blind ante cannot exceed the big blind');
  }
  const unit = forced === 'bring_in' ? s.smallBet : s.bigBlind;
  if (s.ante > unit) at('ante', `the ante cannot exceed the ${forced === 'bring_in' ? 'small bet' : 'big blind'}`);
  if (limit === 'fl' || forced === 'bring_in') {
    if (s.smallBet < 1) at('smallBet', 'fixed limit needs a small bet of at least 1 chip');
    if (s.bigBet < s.smallBet) at('bigBet', 'the big bet cannot be smaller than the small bet');
  }
  return issues;
}

/** Every amount of chips in a resolved config, with its path: what the bounds apply to. */
function amountsOf(config: Pick<RoomConfig, 'stakes' | 'buyIn' | 'rake' | 'rotation'>): [Issue['path'], number][] {
  const stakes = (s: Stakes, path: (string | number)[]): [Issue['path'], number][] =>
    (Object.keys(s) as (keyof Stakes)[]).map((k) => [[...path, k], s[k]]);
  return [
    ...stakes(config.stakes, ['stakes']),
    ...(config.rotation?.order.flatMap((e, i) => stakes(e.stakes, ['rotation', 'order', i, 'stakes'])) ?? []),
    [['buyIn', 'min'], config.buyIn.min],
    [['buyIn', 'max'], config.buyIn.max],
    [['rake', 'cap'], config.rake.cap],
  ];
}

/**
 * Amounts above `bound`. Given amounts are bounded by the schema already; this catches the derived
 * ones (a default buy-in of 100 big blinds, a big bet of two small bets), which would otherwise be
 * stored unreadable: a config that parses must parse again from its own output.
 */
function amountIssues(
  config: Pick<RoomConfig, 'stakes' | 'buyIn' | 'rake' | 'rotation'>,
  bound: number,
  hint: string,
): Issue[] {
  return amountsOf(config)
    .filter(([, amount]) => !Number.isSafeInteger(amount) || amount > bound)
    .map(([path, amount]) => ({
      path,
      message: `comes to ${amount} chips, above the ${bound} chips ${hint}; lower the stakes`,
    }));
}

function resolve(input: RoomConfigInput): { config: RoomConfig; issues: Issue[] } {
  const issues: Issue[] = [];
  const game = input.game ?? 'holdem';
  const mixed = isMixedGame(game);
  const limit = input.limit ?? defaultLimitFor(game);
  const stakes = resolveStakes(mixed ? 'mixed' : game, input.stakes ?? {});

  let rotation: RoomConfig['rotation'] = null;
  if (mixed) {
    const order: z.input<typeof rotationEntryInputSchema>[] =
      input.rotation?.order ?? MIXED_FORMATS[game].map((e) => ({ game: e.game, limit: e.limit }));
    rotation = {
      order: order.map((e) => {
        const profile = SINGLE_GAMES[e.game];
        return {
          game: e.game,
          limit: e.limit ?? profile.defaultLimit,
          stakes: resolveStakes(e.game, e.stakes ?? {}, stakes),
          maxSeats: Math.min(e.maxSeats ?? profile.maxSeats, profile.maxSeats),
        };
      }),
      handsPerVariant: input.rotation?.handsPerVariant ?? 6,
    };
    input.rotation?.order?.forEach((e, i) => {
      const cap = SINGLE_GAMES[e.game].maxSeats;
      if (e.maxSeats !== undefined && e.maxSeats > cap) {
        issues.push({ path: ['rotation', 'order', i, 'maxSeats'], message: `${e.game} seats at most ${cap}` });
      }
    });
  } else if (input.rotation != null) {
    issues.push({ path: ['rotation'], message: 'a rotation applies only to horse and 8game' });
  }

  const seatCap = rotation ? Math.min(...rotation.order.map((e) => e.maxSeats)) : maxSeatsFor(game);
  const seats = input.seats ?? Math.min(6, seatCap);
  if (seats > seatCap) {
    const culprit = rotation?.order.find((e) => e.maxSeats === seatCap)?.game;
    issues.push({
      path: ['seats'],
      message: culprit
        ? `${seats} seats exceeds the ${seatCap}-seat cap of ${culprit} in the rotation`
        : `${game} seats at most ${seatCap}`,
    });
  }

  if (rotation) {
    if (stakes.bigBlind < 1 && rotation.order.some((e) => SINGLE_GAMES[e.game].forcedBets !== 'bring_in')) {
      issues.push({ path: ['stakes', 'bigBlind'], message: `${game} needs a big blind for its blind games` });
    }
    rotation.order.forEach((e, i) =>
      issues.push(...checkStakes(e.game, e.limit, e.stakes, ['rotation', 'order', i, 'stakes'])),
    );
  } else {
    issues.push(...checkStakes(game as SingleGameType, limit, stakes, ['stakes']));
  }

  const unit = stakesUnit(game, stakes);
  const buyIn = {
    min: input.buyIn?.min ?? unit * BUY_IN_BOUNDS.defaultMinUnits,
    max: input.buyIn?.max ?? unit * BUY_IN_BOUNDS.defaultMaxUnits,
  };
  if (unit >= 1) {
    if (buyIn.min < unit * BUY_IN_BOUNDS.minUnits) {
      issues.push({
        path: ['buyIn', 'min'],
        message: `the minimum buy-in must be at least ${BUY_IN_BOUNDS.minUnits}× the ${unitName(game)} (${unit * BUY_IN_BOUNDS.minUnits})`,
      });
    }
    if (buyIn.max > unit * BUY_IN_BOUNDS.maxUnits) {
      issues.push({
        path: ['buyIn', 'max'],
        message: `the maximum buy-in can be at most ${BUY_IN_BOUNDS.maxUnits}× the ${unitName(game)} (${unit * BUY_IN_BOUNDS.maxUnits})`,
      });
    }
  }
  if (buyIn.max < buyIn.min)
    issues.push({ path: ['buyIn', 'max'], message: 'the maximum buy-in is below the minimum' });

  const clock = {
    actionSeconds: input.clock?.actionSeconds ?? CLOCK_DEFAULTS.actionSeconds,
    timeBankSeconds: input.clock?.timeBankSeconds ?? CLOCK_DEFAULTS.timeBankSeconds,
    warningSeconds: input.clock?.warningSeconds ?? CLOCK_DEFAULTS.warningSeconds,
  };
  if (clock.warningSeconds >= clock.actionSeconds) {
    issues.push({
      path: ['clock', 'warningSeconds'],
      message: 'the warning must come before the action clock runs out',
    });
  }

  const rake = {
    percent: input.rake?.percent ?? 0,
    cap: input.rake?.cap ?? 0,
    headsUpPercent: input.rake?.headsUpPercent ?? null,
    noFlopNoDrop: input.rake?.noFlopNoDrop ?? true,
  };
  if (rake.percent === 0 && ((rake.headsUpPercent ?? 0) > 0 || rake.cap > 0)) {
    issues.push({ path: ['rake', 'percent'], message: 'set a rake percent before a cap or a heads-up percent' });
  }

  const botFill = {
    mode: input.botFill?.mode ?? BotFillMode.OFF,
    targetPlayers: input.botFill?.targetPlayers ?? 2,
  };
  if (botFill.targetPlayers > seats) {
    issues.push({ path: ['botFill', 'targetPlayers'], message: `bots can fill at most the ${seats} seats` });
  }

  const sd = input.rules?.showdown;
  const rules: RoomRules = {
    shortAllInBlind: input.rules?.shortAllInBlind ?? RULES_DEFAULTS.shortAllInBlind,
    oddChips: input.rules?.oddChips ?? RULES_DEFAULTS.oddChips,
    studOpenPairBigBet: input.rules?.studOpenPairBigBet ?? RULES_DEFAULTS.studOpenPairBigBet,
    limitHalfBetReopens: input.rules?.limitHalfBetReopens ?? RULES_DEFAULTS.limitHalfBetReopens,
    raiseCap: input.rules?.raiseCap ?? RULES_DEFAULTS.raiseCap,
    showdown: {
      allowMuck: sd?.allowMuck ?? SHOWDOWN_DEFAULTS.allowMuck,
      showAllHands: sd?.showAllHands ?? SHOWDOWN_DEFAULTS.showAllHands,
      autoMuck: sd?.autoMuck ?? SHOWDOWN_DEFAULTS.autoMuck,
      lastAggressorShowsFirst: sd?.lastAggressorShowsFirst ?? SHOWDOWN_DEFAULTS.lastAggressorShowsFirst,
      allInMustShow: sd?.allInMustShow ?? SHOWDOWN_DEFAULTS.allInMustShow,
      contestedWinnerMustShow: sd?.contestedWinnerMustShow ?? SHOWDOWN_DEFAULTS.contestedWinnerMustShow,
    },
  };
  // A rule the room's games never use would say more than the room means.
  const played = rotation ? rotation.order.map((e) => ({ game: e.game, limit: e.limit })) : [{ game, limit }];
  if (!rules.studOpenPairBigBet && !played.some((e) => (e.game === 'stud' || e.game === 'stud8') && e.limit === 'fl')) {
    issues.push({
      path: ['rules', 'studOpenPairBigBet'],
      message: 'the open-pair rule applies only to Stud and Stud Hi-Lo under fixed limit',
    });
  }
  if (rules.limitHalfBetReopens && !played.some((e) => e.limit === 'fl')) {
    issues.push({ path: ['rules', 'limitHalfBetReopens'], message: 'the half-bet rule applies only to fixed limit' });
  }

  const config: RoomConfig = {
    game,
    limit,
    stakes,
    seats,
    buyIn,
    clock,
    rake,
    startHand: {
      autoStart: input.startHand?.autoStart ?? true,
      hostMayForceStart: input.startHand?.hostMayForceStart ?? true,
    },
    botFill,
    rotation,
    listed: input.listed ?? true,
    rules,
  };
  // Given amounts passed the schema's bound; derived ones must too, or the stored form won't parse.
  issues.push(...amountIssues(config, Number.MAX_SAFE_INTEGER, 'a stored amount can hold'));
  return { config, issues };
}

function unitName(game: GameType): string {
  return !isMixedGame(game) && SINGLE_GAMES[game].forcedBets === 'bring_in' ? 'small bet' : 'big blind';
}

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
