// The create-room form: text fields as the player typed them, turned into the lobby's RoomConfigInput
// and checked with the same parser the lobby and the worker use (@felt/protocol), so the form shows
// the lobby's own messages next to the fields before anything is sent.
import {
  isMixedGame,
  newRoomIssues,
  safeParseRoomConfig,
  type BettingLimit,
  type GameType,
  type RoomConfig,
  type RoomConfigInput,
  type RoomRules,
  type StakesInput,
} from '@felt/protocol';

export type ShowdownField = keyof RoomRules['showdown'];

export type StakeField = keyof StakesInput;

export interface RoomForm {
  readonly game: GameType;
  /** '' keeps the game's own limit. */
  readonly limit: BettingLimit | '';
  readonly stakes: Readonly<Partial<Record<StakeField, string>>>;
  readonly seats: string;
  readonly buyInMin: string;
  readonly buyInMax: string;
  readonly actionSeconds: string;
  readonly timeBankSeconds: string;
  readonly warningSeconds: string;
  readonly rakePercent: string;
  readonly rakeCap: string;
  readonly rakeHeadsUp: string;
  readonly noFlopNoDrop: boolean;
  readonly autoStart: boolean;
  readonly hostMayForceStart: boolean;
  readonly botFill: boolean;
  readonly botTarget: string;
  readonly handsPerVariant: string;
  readonly listed: boolean;
  /** House rules (docs/engine.md). */
  readonly shortAllInBlind: RoomRules['shortAllInBlind'];
  readonly oddChips: RoomRules['oddChips'];
  /** 'default', 'none' or a number of bets and raises per round, as typed. */
  readonly raiseCap: string;
  readonly studOpenPairBigBet: boolean;
  readonly limitHalfBetReopens: boolean;
  readonly showdown: Readonly<Record<ShowdownField, boolean>>;
  /** Take a seat in the new room at once, with this buy-in. */
  readonly sit: boolean;
  readonly sitBuyIn: string;
}

export const EMPTY_ROOM_FORM: RoomForm = {
  game: 'holdem',
  limit: '',
  stakes: {},
  seats: '',
  buyInMin: '',
  buyInMax: '',
  actionSeconds: '',
  timeBankSeconds: '',
  warningSeconds: '',
  rakePercent: '',
  rakeCap: '',
  rakeHeadsUp: '',
  noFlopNoDrop: true,
  autoStart: true,
  hostMayForceStart: true,
  botFill: false,
  botTarget: '',
  handsPerVariant: '',
  listed: true,
  shortAllInBlind: 'full_blind',
  oddChips: 'one_each',
  raiseCap: 'default',
  studOpenPairBigBet: true,
  limitHalfBetReopens: false,
  showdown: {
    allowMuck: true,
    showAllHands: false,
    autoMuck: true,
    lastAggressorShowsFirst: true,
    allInMustShow: true,
    contestedWinnerMustShow: true,
  },
  sit: true,
  sitBuyIn: '',
};

export const SHOWDOWN_LABELS: Readonly<Record<ShowdownField, string>> = {
  allowMuck: 'Losing hands may be mucked',
  showAllHands: 'Show every hand at showdown',
  autoMuck: 'Muck losing hands automatically',
  lastAggressorShowsFirst: 'The last aggressor shows first',
  allInMustShow: 'All-in players must show',
  contestedWinnerMustShow: 'Winners of a contested pot must show',
};

/** The games and limits a room plays: one, or each of a mixed format's rotation. */
function playedGames(game: GameType, limit: BettingLimit | ''): { game: string; limit: BettingLimit }[] {
  const d = defaultsFor(game, limit);
  if (d === null) return [];
  return d.rotation
    ? d.rotation.order.map((e) => ({ game: e.game, limit: e.limit }))
    : [{ game: d.game, limit: d.limit }];
}

/** Whether the room plays Stud or Stud Hi-Lo under fixed limit (the open-pair rule applies). */
export function hasStudFixedLimit(game: GameType, limit: BettingLimit | ''): boolean {
  return playedGames(game, limit).some((e) => (e.game === 'stud' || e.game === 'stud8') && e.limit === 'fl');
}

/** Whether the room plays any game under fixed limit (the half-bet rule applies). */
export function hasFixedLimit(game: GameType, limit: BettingLimit | ''): boolean {
  return playedGames(game, limit).some((e) => e.limit === 'fl');
}

function raiseCapInput(text: string): RoomRules['raiseCap'] | number | undefined {
  const t = text.trim();
  if (t === '' || t === 'default') return undefined;
  if (t === 'none') return 'none';
  return num(t);
}

export const STAKE_LABELS: Readonly<Record<StakeField, string>> = {
  smallBlind: 'Small blind',
  bigBlind: 'Big blind',
  ante: 'Ante',
  bigBlindAnte: 'Big-blind ante',
  buttonBlind: 'Button blind',
  bringIn: 'Bring-in',
  smallBet: 'Small bet',
  bigBet: 'Big bet',
};

/** The stakes a game uses, in the order the form lists them. */
export function stakeFields(game: GameType, limit: BettingLimit | ''): StakeField[] {
  if (isMixedGame(game)) return ['smallBlind', 'bigBlind', 'ante', 'bringIn', 'smallBet', 'bigBet'];
  if (game === 'stud' || game === 'stud8' || game === 'razz') return ['ante', 'bringIn', 'smallBet', 'bigBet'];
  if (game === 'shortdeck') return ['bigBlind', 'buttonBlind', 'ante'];
  const fixed = limit === 'fl' || (limit === '' && game === '27td');
  return ['smallBlind', 'bigBlind', 'ante', 'bigBlindAnte', ...(fixed ? (['smallBet', 'bigBet'] as const) : [])];
}

function num(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  // Number('') is 0 and Number('1e3') is 1000: only plain decimals count, the rest goes to the
  // parser as NaN so it is reported rather than silently reinterpreted.
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

function defined<T extends object>(obj: T): Partial<T> | undefined {
  const out = Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The config the lobby receives: only what the player set, so the lobby's defaults fill the rest. */
export function toConfigInput(form: RoomForm): RoomConfigInput {
  const stakes: Record<string, number | undefined> = {};
  for (const f of stakeFields(form.game, form.limit)) stakes[f] = num(form.stakes[f] ?? '');
  const input: Record<string, unknown> = {
    game: form.game,
    ...(form.limit !== '' && !isMixedGame(form.game) ? { limit: form.limit } : {}),
    stakes: defined(stakes),
    seats: num(form.seats),
    buyIn: defined({ min: num(form.buyInMin), max: num(form.buyInMax) }),
    clock: defined({
      actionSeconds: num(form.actionSeconds),
      timeBankSeconds: num(form.timeBankSeconds),
      warningSeconds: num(form.warningSeconds),
    }),
    rake: defined({
      percent: num(form.rakePercent),
      cap: num(form.rakeCap),
      headsUpPercent: num(form.rakeHeadsUp),
      noFlopNoDrop: form.noFlopNoDrop,
    }),
    startHand: { autoStart: form.autoStart, hostMayForceStart: form.hostMayForceStart },
    botFill: form.botFill ? { mode: 'fill', targetPlayers: num(form.botTarget) } : { mode: 'off' },
    rotation: isMixedGame(form.game) ? defined({ handsPerVariant: num(form.handsPerVariant) }) : undefined,
    listed: form.listed,
    rules: defined({
      shortAllInBlind: form.shortAllInBlind === 'full_blind' ? undefined : form.shortAllInBlind,
      oddChips: form.oddChips === 'one_each' ? undefined : form.oddChips,
      raiseCap: raiseCapInput(form.raiseCap),
      // Sent only where the rule applies, so a box left from another game never refuses the form.
      studOpenPairBigBet: !form.studOpenPairBigBet && hasStudFixedLimit(form.game, form.limit) ? false : undefined,
      limitHalfBetReopens: form.limitHalfBetReopens && hasFixedLimit(form.game, form.limit) ? true : undefined,
      showdown: defined(
        Object.fromEntries(
          (Object.keys(form.showdown) as ShowdownField[])
            .filter((k) => form.showdown[k] !== EMPTY_ROOM_FORM.showdown[k])
            .map((k) => [k, form.showdown[k]]),
        ),
      ),
    }),
  };
  return JSON.parse(JSON.stringify(input)) as RoomConfigInput;
}

export interface FormCheck {
  /** The resolved config, with the lobby's defaults, when the form is valid. */
  readonly config: RoomConfig | null;
  /** Messages by dotted path ("stakes.smallBlind", "buyIn.max"); '' for the form as a whole. */
  readonly issues: ReadonlyMap<string, string>;
  /** The seat buy-in, when the player sits at once; null when not sitting or it is not a number. */
  readonly sitBuyIn: number | null;
}

export function checkRoomForm(form: RoomForm): FormCheck {
  const result = safeParseRoomConfig(toConfigInput(form));
  const issues = new Map<string, string>();
  let config: RoomConfig | null = null;
  if (result.success) config = result.config;
  else for (const i of result.error.issues) if (!issues.has(i.path)) issues.set(i.path, i.message);
  // What the lobby also checks for a new room (a bot-fill room leaves a seat free for players).
  if (config !== null) for (const i of newRoomIssues(config)) if (!issues.has(i.path)) issues.set(i.path, i.message);
  let sitBuyIn: number | null = null;
  if (form.sit) {
    const n = num(form.sitBuyIn);
    const fallback = config?.buyIn.max;
    const amount = n ?? fallback;
    if (amount === undefined || !Number.isInteger(amount)) {
      if (config !== null) issues.set('sit.buy_in', 'enter your buy-in in whole chips');
    } else if (config !== null && (amount < config.buyIn.min || amount > config.buyIn.max)) {
      issues.set('sit.buy_in', `choose a buy-in between ${config.buyIn.min} and ${config.buyIn.max}`);
    } else {
      sitBuyIn = amount;
    }
  }
  return { config, issues, sitBuyIn };
}

/** The defaults a game resolves to, for the fields' placeholders. */
export function defaultsFor(game: GameType, limit: BettingLimit | ''): RoomConfig | null {
  const r = safeParseRoomConfig({ game, ...(limit !== '' && !isMixedGame(game) ? { limit } : {}) });
  return r.success ? r.config : null;
}
