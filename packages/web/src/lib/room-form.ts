// The create-room form: text fields as the player typed them, turned into the lobby's RoomConfigInput
// and checked with the same parser the lobby and the worker use (@felt/protocol), so the form shows
// the lobby's own messages next to the fields before anything is sent.
import {
  DealingMode,
  GAME_TYPES,
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
import { en } from '../i18n/en.js';
import { currentLocale, t, type MessageKey } from '../i18n/i18n.js';
import { gameName } from './format.js';

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
  readonly refillSeconds: string;
  readonly refillEveryHands: string;
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
  /** Free practice chips instead of the wallet's (no rake). */
  readonly practiceChips: boolean;
  /**
   * How cards are dealt. Engine-blind (docs/fairness.md, "Engine-blind dealing") holds practice chips
   * on, bot fill off and the game to one it can deal: change it with {@link setDealing}.
   */
  readonly dealing: DealingMode;
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
  refillSeconds: '',
  refillEveryHands: '',
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
  practiceChips: false,
  dealing: 'standard',
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

/**
 * The games engine-blind dealing can deal (hold'em, the Omaha family, short deck), as the room parser
 * says: asked of the parser itself, so the form offers exactly what the lobby accepts.
 */
export const BLIND_DEALING_GAMES: readonly GameType[] = GAME_TYPES.filter(
  (game) => safeParseRoomConfig({ game, dealing: DealingMode.ENGINE_BLIND, practiceChips: true }).success,
);

/** The games the form offers with this dealing. */
export function gamesFor(dealing: DealingMode): readonly GameType[] {
  return dealing === DealingMode.ENGINE_BLIND ? BLIND_DEALING_GAMES : GAME_TYPES;
}

/**
 * The form with another dealing. Engine-blind needs practice chips, every seat a person and a game it
 * can deal, so choosing it ticks practice chips, unticks bot fill and moves a game it cannot deal to
 * Hold'em (the boxes are then held, see {@link lockedByDealing}). Going back to standard leaves the
 * rest as it is: the player unticks practice chips if they want a real-chip room.
 */
export function setDealing(form: RoomForm, dealing: DealingMode): RoomForm {
  if (dealing !== DealingMode.ENGINE_BLIND) return { ...form, dealing };
  const keepGame = BLIND_DEALING_GAMES.includes(form.game);
  return {
    ...form,
    dealing,
    practiceChips: true,
    botFill: false,
    ...(keepGame ? {} : { game: 'holdem', limit: '', stakes: {} }),
  };
}

/** The boxes the dealing holds (shown ticked or unticked and disabled). */
export function lockedByDealing(form: RoomForm): { readonly practiceChips: boolean; readonly botFill: boolean } {
  const blind = form.dealing === DealingMode.ENGINE_BLIND;
  return { practiceChips: blind, botFill: blind };
}

/** The showdown rules, in the order the form lists them. */
export const SHOWDOWN_FIELDS = Object.keys(EMPTY_ROOM_FORM.showdown) as ShowdownField[];

export function showdownLabel(field: ShowdownField): string {
  return t(`room.showdownRule.${field}`);
}

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

export function stakeLabel(field: StakeField): string {
  return t(`room.stake.${field}`);
}

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
      refillSeconds: num(form.refillSeconds),
      refillEveryHands: num(form.refillEveryHands),
    }),
    rake: form.practiceChips
      ? undefined
      : defined({
          percent: num(form.rakePercent),
          cap: num(form.rakeCap),
          headsUpPercent: num(form.rakeHeadsUp),
          noFlopNoDrop: form.noFlopNoDrop,
        }),
    startHand: { autoStart: form.autoStart, hostMayForceStart: form.hostMayForceStart },
    botFill: form.botFill ? { mode: 'fill', targetPlayers: num(form.botTarget) } : { mode: 'off' },
    rotation: isMixedGame(form.game) ? defined({ handsPerVariant: num(form.handsPerVariant) }) : undefined,
    listed: form.listed,
    ...(form.practiceChips ? { practiceChips: true } : {}),
    // Standard is the lobby's default: sent only when engine-blind is chosen.
    ...(form.dealing !== DealingMode.STANDARD ? { dealing: form.dealing } : {}),
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
  /**
   * Messages by dotted path ("stakes.smallBlind", "buyIn.max"); '' for the form as a whole, in the
   * page's language (the parser's English sentences through {@link roomIssueText}).
   */
  readonly issues: ReadonlyMap<string, string>;
  /** The seat buy-in, when the player sits at once; null when not sitting or it is not a number. */
  readonly sitBuyIn: number | null;
}

export function checkRoomForm(form: RoomForm): FormCheck {
  const result = safeParseRoomConfig(toConfigInput(form));
  const issues = new Map<string, string>();
  let config: RoomConfig | null = null;
  if (result.success) config = result.config;
  else for (const i of result.error.issues) if (!issues.has(i.path)) issues.set(i.path, roomIssueText(i.message));
  // What the lobby also checks for a new room (a bot-fill room leaves a seat free for players).
  if (config !== null) {
    for (const i of newRoomIssues(config)) if (!issues.has(i.path)) issues.set(i.path, roomIssueText(i.message));
  }
  let sitBuyIn: number | null = null;
  if (form.sit) {
    const n = num(form.sitBuyIn);
    const fallback = config?.buyIn.max;
    const amount = n ?? fallback;
    if (amount === undefined || !Number.isInteger(amount)) {
      if (config !== null) issues.set('sit.buy_in', t('room.issue.sitWholeChips'));
    } else if (config !== null && (amount < config.buyIn.min || amount > config.buyIn.max)) {
      issues.set('sit.buy_in', t('room.issue.sitRange', { min: config.buyIn.min, max: config.buyIn.max }));
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

const UNIT_WORDS: Readonly<Record<string, MessageKey>> = {
  'big blind': 'room.unit.bigBlind',
  'small blind': 'room.unit.smallBlind',
  'small bet': 'room.unit.smallBet',
  'button blind': 'room.unit.buttonBlind',
  'bring-in': 'room.unit.bringIn',
};

const unitText = (word: string): string | null => {
  const key = UNIT_WORDS[word];
  return key === undefined ? null : t(key);
};

/** A game as the parser names it (its code, or its English name) in the page's language. */
function gameText(nameOrCode: string): string {
  const code = Object.entries(en.game.name).find(([, name]) => name === nameOrCode)?.[0] ?? nameOrCode;
  return gameName(code);
}

type IssueRule = readonly [RegExp, (m: RegExpExecArray) => string | null];

/**
 * The room parser's messages (@felt/protocol, in English) as catalog sentences: each message the
 * parser can write has a pattern here and a catalog entry with its numbers and names as placeholders.
 */
const ISSUE_RULES: readonly IssueRule[] = [
  [/^expected whole chips$/, () => t('room.issue.wholeChips')],
  [/^Invalid input: expected number/, () => t('room.issue.number')],
  [/^enter a number$/, () => t('room.issue.number')],
  [/^Invalid input: expected int/, () => t('room.issue.wholeNumber')],
  [/^at least (-?[\d.]+)$/, (m) => t('room.issue.tooSmall', { min: m[1] })],
  [/^at most (-?[\d.]+)$/, (m) => t('room.issue.tooBig', { max: m[1] })],
  [/^at most two decimals$/, () => t('room.issue.twoDecimals')],
  [/^at most (\d+) percent$/, (m) => t('room.issue.atMostPercent', { max: m[1] })],
  [/^Too small: expected \w+ to be >=?\s*(\S+)$/, (m) => t('room.issue.tooSmall', { min: m[1] })],
  [/^Too big: expected \w+ to be <=?\s*(\S+)$/, (m) => t('room.issue.tooBig', { max: m[1] })],
  [
    /^comes to (\d+) chips, above the (\d+) chips a new room may use; lower the stakes$/,
    (m) => t('room.issue.aboveBound', { amount: m[1], bound: m[2] }),
  ],
  [
    /^comes to (\d+) chips, above the (\d+) chips a stored amount can hold; lower the stakes$/,
    (m) => t('room.issue.aboveStored', { amount: m[1], bound: m[2] }),
  ],
  [
    /^(\d+) seats exceeds the (\d+)-seat cap of (.+) in the rotation$/,
    (m) => t('room.issue.seatsOverRotation', { seats: m[1], max: m[2], game: gameText(m[3]!) }),
  ],
  [/^(.+) seats at most (\d+)$/, (m) => t('room.issue.seatsAtMost', { game: gameText(m[1]!), max: m[2] })],
  [/^(.+) needs a big blind for its blind games$/, (m) => t('room.issue.needsBigBlind', { game: gameText(m[1]!) })],
  [/^Short Deck needs a button blind of at least 1 chip$/, () => t('room.issue.shortDeckButton')],
  [/^Short Deck needs an ante from every player$/, () => t('room.issue.shortDeckAnte')],
  [/^fixed limit needs a small bet of at least 1 chip$/, () => t('room.issue.flSmallBet')],
  [
    /^(.+) needs an? (big blind|small blind|small bet|bring-in) of at least 1 chip$/,
    (m) => {
      const what = unitText(m[2]!);
      return what === null ? null : t('room.issue.needsOneChip', { game: gameText(m[1]!), what });
    },
  ],
  [/^the small blind cannot exceed the big blind$/, () => t('room.issue.sbOverBb')],
  [/^(.+) has no small blind$/, (m) => t('room.issue.noSmallBlind', { game: gameText(m[1]!) })],
  [/^(.+) has no big blind \(it uses a bring-in\)$/, (m) => t('room.issue.noBigBlind', { game: gameText(m[1]!) })],
  [/^only Short Deck has a button blind$/, () => t('room.issue.onlyShortDeckButton')],
  [/^the bring-in cannot exceed the small bet \(the completion\)$/, () => t('room.issue.bringInOverSmallBet')],
  [/^only the Stud family has a bring-in$/, () => t('room.issue.onlyStudBringIn')],
  [/^a big-blind ante needs a big blind$/, () => t('room.issue.bbAnteNeedsBb')],
  [/^choose an ante or a big-blind ante, not both$/, () => t('room.issue.anteOrBbAnte')],
  [/^the big-blind ante cannot exceed the big blind$/, () => t('room.issue.bbAnteOverBb')],
  [
    /^the ante cannot exceed the (small bet|big blind)$/,
    (m) => {
      const unit = unitText(m[1]!);
      return unit === null ? null : t('room.issue.anteOver', { unit });
    },
  ],
  [/^the big bet cannot be smaller than the small bet$/, () => t('room.issue.bigBetUnderSmall')],
  [
    /^the minimum buy-in must be at least (\d+)× the (big blind|small bet) \((\d+)\)$/,
    (m) => {
      const unit = unitText(m[2]!);
      return unit === null ? null : t('room.issue.buyInMinUnits', { units: m[1], unit, amount: m[3] });
    },
  ],
  [
    /^the maximum buy-in can be at most (\d+)× the (big blind|small bet) \((\d+)\)$/,
    (m) => {
      const unit = unitText(m[2]!);
      return unit === null ? null : t('room.issue.buyInMaxUnits', { units: m[1], unit, amount: m[3] });
    },
  ],
  [/^the maximum buy-in is below the minimum$/, () => t('room.issue.buyInOrder')],
  [/^the warning must come before the action clock runs out$/, () => t('room.issue.warningOrder')],
  [/^set a rake percent before a cap or a heads-up percent$/, () => t('room.issue.rakePercentFirst')],
  [/^bots can fill at most the (\d+) seats$/, (m) => t('room.issue.botsAtMost', { seats: m[1] })],
  [
    /^leave a seat for players to join: bots fill at most (\d+) of the (\d+) seats$/,
    (m) => t('room.issue.botsLeaveSeat', { most: m[1], seats: m[2] }),
  ],
  [/^the open-pair rule applies only to Stud and Stud Hi-Lo under fixed limit$/, () => t('room.issue.openPairOnly')],
  [/^the half-bet rule applies only to fixed limit$/, () => t('room.issue.halfBetOnly')],
  [/^a rotation applies only to horse and 8game$/, () => t('room.issue.rotationOnly')],
  [/^engine-blind dealing is for practice chips only: set practiceChips$/, () => t('room.issue.blindPractice')],
  [/^engine-blind dealing needs every seat a person: no bot fill$/, () => t('room.issue.blindBots')],
  [
    /^engine-blind dealing plays (.+), not (\S+)$/,
    (m) =>
      t('room.issue.blindGames', {
        games: m[1]!
          .split(', ')
          .map((g) => gameText(g))
          .join(t('common.listSeparator')),
        game: gameText(m[2]!),
      }),
  ],
];

/**
 * A field's message in the page's language. A message no rule knows (a newer lobby's) is shown as
 * the lobby wrote it in English, and as a generic sentence in any other language.
 */
export function roomIssueText(message: string): string {
  for (const [re, text] of ISSUE_RULES) {
    const m = re.exec(message);
    if (!m) continue;
    const out = text(m);
    if (out !== null) return out;
  }
  return currentLocale() === 'en' ? message : t('room.issue.other');
}
