/** Defaults and cross-field rules: from what a host sent to the RoomConfig a room stores. */
import { BLIND_GAMES } from '@felt/engine';
import type { z } from 'zod';
import { DealingMode } from '../blind-frames.js';
import {
  SINGLE_GAMES,
  defaultLimitFor,
  isMixedGame,
  maxSeatsFor,
  MIXED_FORMATS,
  type BettingLimit,
  type ForcedBets,
  type GameType,
  type SingleGameType,
} from './games.js';
import {
  BotFillMode,
  CHAT_DEFAULTS,
  RULES_DEFAULTS,
  SHOWDOWN_DEFAULTS,
  type RoomConfig,
  type RoomConfigInput,
  type RoomRules,
  type Stakes,
  type StakesInput,
  type rotationEntryInputSchema,
} from './schema.js';

/** Buy-ins are measured in this unit: the big blind, or the small bet in the Stud family. */
export function stakesUnit(game: GameType, stakes: Stakes): number {
  return !isMixedGame(game) && SINGLE_GAMES[game].forcedBets === 'bring_in' ? stakes.smallBet : stakes.bigBlind;
}

/** Buy-in limits relative to the stakes unit. */
export const BUY_IN_BOUNDS = { minUnits: 10, maxUnits: 1000, defaultMinUnits: 40, defaultMaxUnits: 100 } as const;

export const CLOCK_DEFAULTS = {
  actionSeconds: 30,
  timeBankSeconds: 60,
  warningSeconds: 10,
  refillSeconds: 0,
  refillEveryHands: 10,
} as const;

export type Issue = { path: (string | number)[]; message: string };

const DEFAULT_UNIT = 2;

function half(n: number): number {
  return Math.max(1, Math.floor(n / 2));
}

/**
 * Stakes for one game: the given values, then the game's defaults. `base` is the room's stakes
 * when resolving a rotation entry, so an entry inherits what it doesn't override.
 */
export function resolveStakes(game: SingleGameType | 'mixed', input: StakesInput, base?: Stakes): Stakes {
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
export function checkStakes(game: SingleGameType, limit: BettingLimit, s: Stakes, path: (string | number)[]): Issue[] {
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
export function amountIssues(
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

export function resolve(input: RoomConfigInput): { config: RoomConfig; issues: Issue[] } {
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

  const actionSeconds = input.clock?.actionSeconds ?? CLOCK_DEFAULTS.actionSeconds;
  const clock = {
    actionSeconds,
    timeBankSeconds: input.clock?.timeBankSeconds ?? CLOCK_DEFAULTS.timeBankSeconds,
    // By default the warning comes 10 s before the end, or halfway through a shorter clock (a short
    // clock alone, as a tournament's tables are given, is a valid config).
    warningSeconds:
      input.clock?.warningSeconds ?? Math.min(CLOCK_DEFAULTS.warningSeconds, Math.floor(actionSeconds / 2)),
    refillSeconds: input.clock?.refillSeconds ?? CLOCK_DEFAULTS.refillSeconds,
    refillEveryHands: input.clock?.refillEveryHands ?? CLOCK_DEFAULTS.refillEveryHands,
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
  // Practice chips must never reach the house's real rake account (the ledger refuses it too).
  const practiceChips = input.practiceChips ?? false;
  if (practiceChips && rake.percent > 0) {
    issues.push({
      path: ['rake', 'percent'],
      message: 'a practice-chip room takes no rake: set the rake percent to 0',
    });
  }

  const botFill = {
    mode: input.botFill?.mode ?? BotFillMode.OFF,
    targetPlayers: input.botFill?.targetPlayers ?? 2,
  };
  if (botFill.targetPlayers > seats) {
    issues.push({ path: ['botFill', 'targetPlayers'], message: `bots can fill at most the ${seats} seats` });
  }

  const dealing = input.dealing ?? DealingMode.STANDARD;
  if (dealing === DealingMode.ENGINE_BLIND) {
    if (!practiceChips) {
      issues.push({ path: ['dealing'], message: 'engine-blind dealing is for practice chips only: set practiceChips' });
    }
    if (botFill.mode !== BotFillMode.OFF) {
      issues.push({
        path: ['botFill', 'mode'],
        message: 'engine-blind dealing needs every seat a person: no bot fill',
      });
    }
    if (isMixedGame(game) || !BLIND_GAMES.has(game)) {
      issues.push({
        path: ['dealing'],
        message: `engine-blind dealing plays ${[...BLIND_GAMES].join(', ')}, not ${game}`,
      });
    }
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
    chat: {
      enabled: input.chat?.enabled ?? CHAT_DEFAULTS.enabled,
      spectators: input.chat?.spectators ?? CHAT_DEFAULTS.spectators,
    },
    practiceChips,
    dealing,
  };
  // Given amounts passed the schema's bound; derived ones must too, or the stored form won't parse.
  issues.push(...amountIssues(config, Number.MAX_SAFE_INTEGER, 'a stored amount can hold'));
  return { config, issues };
}

export function unitName(game: GameType): string {
  return !isMixedGame(game) && SINGLE_GAMES[game].forcedBets === 'bring_in' ? 'small bet' : 'big blind';
}
