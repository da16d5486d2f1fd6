import { initialDeck, isCard, parseCards, type Card } from '../cards.js';
import type { BetLimit, Stakes } from '../betting/structure.js';
import { ExportError, ExportErrorCode, SetupError } from '../errors.js';
import { getGameRules } from '../games/registry.js';
import type { GameRules } from '../games/types.js';
import { Hand, type HandOptions } from '../hand/hand.js';
import { viewOperation } from '../hand/operations.js';
import {
  DEFAULT_HOUSE_RULES,
  DEFAULT_SHOWDOWN_OPTIONS,
  ForcedBetKind,
  type ForcedBet,
  type HandSetup,
  type HouseRules,
  type RakeConfig,
  type ShowdownOptions,
} from '../hand/setup.js';
import { parseToml, tomlString, tomlValue, type TomlValue } from './toml.js';

/**
 * PHH (Poker Hand History, uoftcprg/phh-std) written from a hand's operation log, in pokerkit's
 * notation: players p1..pN in position order (the first seat after the button first, the button last;
 * heads-up p1 is the big blind), forced bets as per-player arrays that PHH reverses heads-up (the Stud
 * games write `bring_in` instead of blinds), and `d dh` (one line per player and street; Stud's up and
 * down cards by position), `d db`, `pN pb` (bring-in), `cbr` (complete, bet or raise *to*), `cc`, `f`,
 * `sd` (stand pat or discard; a draw round's replacement cards follow all its discards, as pokerkit deals
 * them) and `sm`. Felt-only facts that PHH has no field for (rake, a non-default raise cap) go in
 * `_felt_*` user fields.
 */

function phhVariant(rules: GameRules, limit: BetLimit): string {
  const code = rules.phhVariant[limit];
  if (code === undefined) {
    throw new ExportError(
      ExportErrorCode.UNSUPPORTED,
      `PHH has no variant code for ${rules.name} ${limit.toUpperCase()}`,
      {
        game: rules.id,
        limit,
      },
    );
  }
  return code;
}

/** PHH writes heads-up per-player forced bets reversed. */
function asWritten<T>(effective: T[]): T[] {
  return effective.length === 2 ? [...effective].reverse() : effective;
}

export interface PhhOptions {
  /** Player names; defaults to the setup's names, else player ids. */
  readonly names?: Readonly<Record<number, string>>;
  /**
   * Whose record to write. Absent: the complete record, every card (it replays through the engine). A
   * seat: what that player saw, with other players' down cards and discards as `??` (`d dh p2 ????7s`);
   * null: a spectator's view. Cards shown at showdown are public either way.
   */
  readonly viewer?: number | null;
}

export function toPhh(hand: Hand, options: PhhOptions = {}): string {
  const { setup, rules } = hand;
  const variant = phhVariant(rules, setup.limit);
  const order = hand.positionOrder();
  const index = new Map(order.map((seat, i) => [seat, i + 1]));
  const antes = order.map(() => 0);
  const blinds = order.map(() => 0);
  let uniformAnte = false;
  for (const fb of setup.forcedBets) {
    const i = index.get(fb.seat)! - 1;
    switch (fb.kind) {
      case 'ante':
        uniformAnte = true;
        antes[i] = antes[i]! + fb.amount;
        break;
      case 'bb_ante':
      case 'dead_blind':
        antes[i] = antes[i]! + fb.amount;
        break;
      default:
        blinds[i] = blinds[i]! + fb.amount;
    }
  }
  const lines: string[] = [];
  const field = (key: string, value: TomlValue): void => {
    lines.push(`${key} = ${tomlValue(value)}`);
  };
  field('variant', variant);
  // Uniform antes are trimmed: a short ante only wins what it covers (our ante round).
  field('ante_trimming_status', uniformAnte);
  field('antes', asWritten(antes));
  if (rules.forcedBets === 'bring_in') field('bring_in', hand.structure.bringIn);
  else field('blinds_or_straddles', asWritten(blinds));
  if (setup.limit === 'fl') {
    field('small_bet', hand.structure.smallBet);
    field('big_bet', hand.structure.bigBet);
  } else field('min_bet', hand.structure.minBet);
  const starting = new Map(setup.players.map((p) => [p.seat, p.stack]));
  field(
    'starting_stacks',
    order.map((s) => starting.get(s)!),
  );
  lines.push('actions = [');
  for (const a of phhActions(hand, index, options.viewer)) lines.push(`  ${tomlString(a)},`);
  lines.push(']');
  // A show after the hand is not an action of the hand (the player is no longer in it): PHH readers
  // would refuse it in `actions`, so it goes in a user-defined field, in the same notation.
  const shownAfter = shownAfterHand(hand, index);
  if (shownAfter.length > 0) field('_shown_after_hand', shownAfter);
  field('hand', setup.handId);
  if (setup.tableName !== undefined) field('table', setup.tableName);
  field('seats', order);
  field('seat_count', setup.tableSize ?? rules.maxSeats);
  const names = new Map(setup.players.map((p) => [p.seat, options.names?.[p.seat] ?? p.name ?? p.id]));
  field(
    'players',
    order.map((s) => names.get(s)!),
  );
  if (setup.startedAt !== undefined) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(setup.startedAt);
    if (m !== null) {
      lines.push(`time = ${m[4]!}`);
      field('time_zone', 'UTC');
      field('day', Number(m[3]));
      field('month', Number(m[2]));
      field('year', Number(m[1]));
    }
  }
  const settlement = hand.settlement;
  if (settlement !== null) {
    const fin = new Map(settlement.players.map((p) => [p.seat, p]));
    field(
      'finishing_stacks',
      order.map((s) => fin.get(s)!.finalStack),
    );
    field(
      'winnings',
      order.map((s) => fin.get(s)!.won),
    );
  }
  if (setup.rake) {
    field('_felt_rake_percent', setup.rake.percent);
    field('_felt_rake_cap', setup.rake.cap);
    if (setup.rake.headsUpPercent !== undefined) field('_felt_rake_heads_up_percent', setup.rake.headsUpPercent);
    field('_felt_rake_no_flop_no_drop', setup.rake.noFlopNoDrop ?? true);
  }
  const defaultCap = setup.limit === 'fl' ? 4 : null;
  if (hand.structure.raiseCap !== defaultCap) field('_felt_raise_cap', hand.structure.raiseCap ?? 0);
  // House rules and showdown options that differ from the defaults, so a reader can replay the hand.
  const house = hand.houseRules;
  for (const key of Object.keys(HOUSE_RULE_FIELDS) as (keyof HouseRules)[]) {
    if (house[key] !== DEFAULT_HOUSE_RULES[key]) field(HOUSE_RULE_FIELDS[key], house[key]);
  }
  const showdown = { ...DEFAULT_SHOWDOWN_OPTIONS, ...setup.showdown };
  for (const key of Object.keys(SHOWDOWN_FIELDS) as (keyof ShowdownOptions)[]) {
    if (showdown[key] !== DEFAULT_SHOWDOWN_OPTIONS[key]) field(SHOWDOWN_FIELDS[key], showdown[key]);
  }
  return `${lines.join('\n')}\n`;
}

/** The `_felt_*` fields of the house rules (docs/engine.md), written only when not the default. */
const HOUSE_RULE_FIELDS: Readonly<Record<keyof HouseRules, string>> = {
  shortAllInBlind: '_felt_short_all_in_blind',
  oddChips: '_felt_odd_chips',
  studOpenPairBigBet: '_felt_stud_open_pair_big_bet',
  limitHalfBetReopens: '_felt_limit_half_bet_reopens',
};

const SHOWDOWN_FIELDS: Readonly<Record<keyof ShowdownOptions, string>> = {
  allowMuck: '_felt_showdown_allow_muck',
  showAllHands: '_felt_showdown_show_all_hands',
  autoMuck: '_felt_showdown_auto_muck',
  lastAggressorShowsFirst: '_felt_showdown_last_aggressor_shows_first',
  allInMustShow: '_felt_showdown_all_in_must_show',
  contestedWinnerMustShow: '_felt_showdown_contested_winner_must_show',
};

/** Post-hand shows (`show` with reason `voluntary`) as `pN sm CARDS`, for the `_shown_after_hand` field. */
export function shownAfterHand(hand: Hand, index?: ReadonlyMap<number, number>): string[] {
  const pos = index ?? new Map(hand.positionOrder().map((seat, i) => [seat, i + 1]));
  return hand.operations
    .filter((op) => op.type === 'show' && op.reason === 'voluntary')
    .map((op) => (op.type === 'show' ? `p${pos.get(op.seat)!} sm ${op.cards.join('')}` : ''));
}

const HIDDEN = '??';

/**
 * The `actions` array of a hand. With a `viewer` (a seat, or null for a spectator), cards that viewer
 * did not see are written `??`.
 */
export function phhActions(hand: Hand, index?: ReadonlyMap<number, number>, viewer?: number | null): string[] {
  const pos = index ?? new Map(hand.positionOrder().map((seat, i) => [seat, i + 1]));
  const p = (seat: number): string => `p${pos.get(seat)!}`;
  // PHH replays the hand in order, so a hand shown at showdown is its `sm` line: each operation is
  // written as the viewer saw it when it happened (viewOperation without later shows).
  const ops = viewer === undefined ? hand.operations : hand.operations.map((op) => viewOperation(op, viewer));
  const text = (cards: readonly (Card | null)[]): string => cards.map((c) => c ?? HIDDEN).join('');
  const out: string[] = [];
  // pokerkit deals a draw round's replacements after every player has discarded or stood pat.
  let drawDeals: string[] = [];
  const flush = (): void => {
    out.push(...drawDeals);
    drawDeals = [];
  };
  for (const op of ops) {
    const note = 'timeout' in op && op.timeout ? ' # timeout' : '';
    if (!(op.type === 'deal_hole' && op.draw) && op.type !== 'discard' && op.type !== 'reshuffle') flush();
    switch (op.type) {
      case 'deal_hole':
        // Blind dealing: nobody knew the cards (`unknown`), so every one is hidden.
        (op.draw ? drawDeals : out).push(
          `d dh ${p(op.seat)} ${text(op.unknown ? op.indices.map(() => null) : op.cards)}`,
        );
        break;
      case 'deal_board':
        out.push(`d db ${op.cards.join('')}`);
        break;
      case 'bring_in':
        out.push(`${p(op.seat)} pb${note}`);
        break;
      case 'discard': {
        const cards = text(op.cards);
        out.push(`${p(op.seat)} sd${cards === '' ? '' : ` ${cards}`}${note}`);
        break;
      }
      case 'fold':
        out.push(`${p(op.seat)} f${note}`);
        break;
      case 'check':
        out.push(`${p(op.seat)} cc${note}`);
        break;
      case 'call':
        out.push(`${p(op.seat)} cc`);
        break;
      case 'bet':
      case 'raise':
        out.push(`${p(op.seat)} cbr ${op.to}`);
        break;
      case 'show':
        // A show after the hand is in `_shown_after_hand`, not among the hand's actions.
        if (op.reason !== 'voluntary') out.push(`${p(op.seat)} sm ${op.cards.join('')}`);
        break;
      case 'muck':
        out.push(`${p(op.seat)} sm`);
        break;
      default:
        break;
    }
  }
  flush();
  return out;
}

/** A parsed PHH file: its fields, with the ones we replay typed. */
export interface PhhHand {
  readonly fields: Readonly<Record<string, TomlValue>>;
  readonly variant: string;
  readonly startingStacks: readonly number[];
  readonly actions: readonly string[];
  readonly finishingStacks: readonly number[] | null;
}

function numbers(v: TomlValue | undefined, key: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) {
    throw new ExportError(ExportErrorCode.PARSE, `${key} must be an array of numbers`, { key });
  }
  return v;
}

function num(v: TomlValue | undefined, key: string): number {
  if (typeof v !== 'number') throw new ExportError(ExportErrorCode.PARSE, `${key} must be a number`, { key });
  return v;
}

export function parsePhh(text: string): PhhHand {
  const fields = parseToml(text);
  const variant = fields.variant;
  if (typeof variant !== 'string') throw new ExportError(ExportErrorCode.PARSE, 'variant is missing');
  const actions = fields.actions;
  if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) {
    throw new ExportError(ExportErrorCode.PARSE, 'actions must be an array of strings');
  }
  return {
    fields,
    variant,
    startingStacks: numbers(fields.starting_stacks, 'starting_stacks'),
    actions,
    finishingStacks:
      fields.finishing_stacks === undefined ? null : numbers(fields.finishing_stacks, 'finishing_stacks'),
  };
}

/** PHH's variant codes for the games the engine plays (the inverse of the games' `phhVariant`). */
const VARIANTS: Record<string, { game: string; limit: BetLimit }> = {
  NT: { game: 'holdem', limit: 'nl' },
  FT: { game: 'holdem', limit: 'fl' },
  PO: { game: 'omaha', limit: 'pl' },
  'FO/8': { game: 'omaha8', limit: 'fl' },
  NS: { game: 'shortdeck', limit: 'nl' },
  F7S: { game: 'stud', limit: 'fl' },
  'F7S/8': { game: 'stud8', limit: 'fl' },
  FR: { game: 'razz', limit: 'fl' },
  F2L3D: { game: '27td', limit: 'fl' },
};

/**
 * Rebuilds the hand a PHH file describes and plays its actions through the engine: the dealer lines
 * fix the deck, player lines are applied as decisions (each must name the player to act), and `sm`
 * lines must match what the engine reveals. Supports the subset {@link toPhh} writes in full (no `??`);
 * a draw hand that reshuffled its discards cannot be rebuilt without its deck seed, and is refused.
 */
export function replayPhh(text: string, options: HandOptions & { handId?: string } = {}): { hand: Hand; phh: PhhHand } {
  const phh = parsePhh(text);
  const kind = VARIANTS[phh.variant];
  if (kind === undefined) throw new ExportError(ExportErrorCode.UNSUPPORTED, `unsupported PHH variant ${phh.variant}`);
  const rules = options.rules ?? getGameRules(kind.game);
  const f = phh.fields;
  const n = phh.startingStacks.length;
  const seats = f.seats === undefined ? Array.from({ length: n }, (_, i) => i + 1) : numbers(f.seats, 'seats');
  if (seats.length !== n) throw new ExportError(ExportErrorCode.PARSE, 'seats and starting_stacks differ in length');
  const written = (key: string): number[] => {
    const arr = numbers(f[key] ?? seats.map(() => 0), key);
    if (arr.length !== n) throw new ExportError(ExportErrorCode.PARSE, `${key} must have one entry per player`);
    return n === 2 ? [...arr].reverse() : arr;
  };
  const antes = written('antes');
  const trimming = f.ante_trimming_status === true;
  const uniform = trimming ? Math.min(...antes) : 0;
  const forcedBets: ForcedBet[] = [];
  if (uniform > 0) seats.forEach((seat) => forcedBets.push({ seat, kind: ForcedBetKind.ANTE, amount: uniform }));
  const raiseCap =
    f._felt_raise_cap !== undefined ? { raiseCap: num(f._felt_raise_cap, '_felt_raise_cap') || null } : {};
  const anteStake = uniform > 0 ? { ante: uniform } : {};
  let stakes: Stakes;
  if (rules.forcedBets === 'bring_in') {
    stakes = {
      smallBlind: 0,
      bigBlind: 0,
      bringIn: num(f.bring_in, 'bring_in'),
      smallBet: num(f.small_bet, 'small_bet'),
      bigBet: num(f.big_bet, 'big_bet'),
      ...anteStake,
      ...raiseCap,
    };
  } else if (rules.forcedBets === 'button_blind') {
    // Short Deck: the button (the last player) posts the only blind.
    const buttonBlind = written('blinds_or_straddles')[n - 1] ?? 0;
    if (buttonBlind > 0)
      forcedBets.push({ seat: seats[n - 1]!, kind: ForcedBetKind.BUTTON_BLIND, amount: buttonBlind });
    stakes =
      kind.limit === 'fl'
        ? { smallBlind: 0, bigBlind: num(f.small_bet, 'small_bet'), buttonBlind, ...anteStake, ...raiseCap }
        : { smallBlind: 0, bigBlind: num(f.min_bet, 'min_bet'), buttonBlind, ...anteStake, ...raiseCap };
  } else {
    const blinds = written('blinds_or_straddles');
    // Position i (p(i+1)) sits at seats[i]; the button is the last player.
    const bbIndex = n === 2 ? 0 : 1;
    const sbIndex = n === 2 ? 1 : 0;
    const sb = blinds[sbIndex] ?? 0;
    const bb = blinds[bbIndex] ?? 0;
    if (sb > 0) forcedBets.push({ seat: seats[sbIndex]!, kind: ForcedBetKind.SMALL_BLIND, amount: sb });
    if (bb > 0) forcedBets.push({ seat: seats[bbIndex]!, kind: ForcedBetKind.BIG_BLIND, amount: bb });
    if (antes[bbIndex]! - uniform > 0) {
      forcedBets.push({ seat: seats[bbIndex]!, kind: ForcedBetKind.BIG_BLIND_ANTE, amount: antes[bbIndex]! - uniform });
    }
    seats.forEach((seat, i) => {
      if (i === sbIndex || i === bbIndex) return;
      if (blinds[i]! > 0) forcedBets.push({ seat, kind: ForcedBetKind.LIVE_POST, amount: blinds[i]! });
      if (antes[i]! - uniform > 0)
        forcedBets.push({ seat, kind: ForcedBetKind.DEAD_BLIND, amount: antes[i]! - uniform });
    });
    if (antes[sbIndex]! - uniform > 0) {
      forcedBets.push({ seat: seats[sbIndex]!, kind: ForcedBetKind.DEAD_BLIND, amount: antes[sbIndex]! - uniform });
    }
    stakes =
      kind.limit === 'fl'
        ? {
            smallBlind: sb,
            bigBlind: bb || num(f.small_bet, 'small_bet'),
            smallBet: num(f.small_bet, 'small_bet'),
            bigBet: num(f.big_bet, 'big_bet'),
            ...anteStake,
            ...raiseCap,
          }
        : { smallBlind: sb, bigBlind: num(f.min_bet, 'min_bet'), ...anteStake, ...raiseCap };
  }
  const rake: RakeConfig | null =
    f._felt_rake_percent === undefined
      ? null
      : {
          percent: num(f._felt_rake_percent, '_felt_rake_percent'),
          cap: num(f._felt_rake_cap, '_felt_rake_cap'),
          ...(f._felt_rake_heads_up_percent !== undefined
            ? { headsUpPercent: num(f._felt_rake_heads_up_percent, '_felt_rake_heads_up_percent') }
            : {}),
          noFlopNoDrop: f._felt_rake_no_flop_no_drop !== false,
        };
  const houseRules: Partial<Record<keyof HouseRules, TomlValue>> = {};
  for (const [key, name] of Object.entries(HOUSE_RULE_FIELDS) as [keyof HouseRules, string][]) {
    if (f[name] !== undefined) houseRules[key] = f[name];
  }
  const showdown: Partial<Record<keyof ShowdownOptions, boolean>> = {};
  for (const [key, name] of Object.entries(SHOWDOWN_FIELDS) as [keyof ShowdownOptions, string][]) {
    const v = f[name];
    if (v === undefined) continue;
    if (typeof v !== 'boolean')
      throw new ExportError(ExportErrorCode.PARSE, `${name} must be a boolean`, { key: name });
    showdown[key] = v;
  }
  const names = Array.isArray(f.players) ? (f.players as string[]) : seats.map((s) => `p${s}`);
  const pad = (x: TomlValue | undefined): string => String(x).padStart(2, '0');
  const startedAt =
    typeof f.time === 'string' && typeof f.year === 'number' && typeof f.month === 'number' && typeof f.day === 'number'
      ? `${f.year}-${pad(f.month)}-${pad(f.day)}T${f.time}Z`
      : undefined;
  const setup: HandSetup = {
    handId: options.handId ?? (typeof f.hand === 'string' ? f.hand : String(f.hand ?? 'phh')),
    game: rules.id,
    limit: kind.limit,
    stakes,
    button: seats[n - 1]!,
    players: seats.map((seat, i) => ({
      seat,
      id: `p${i + 1}`,
      name: names[i] ?? `p${i + 1}`,
      stack: phh.startingStacks[i]!,
    })),
    forcedBets,
    deck: deckFromActions(phh.actions, n, rules),
    rake,
    ...(Object.keys(houseRules).length > 0 ? { houseRules: houseRules as Partial<HouseRules> } : {}),
    ...(Object.keys(showdown).length > 0 ? { showdown } : {}),
    ...(startedAt !== undefined ? { startedAt } : {}),
    ...(typeof f.table === 'string' ? { tableName: f.table } : {}),
    ...(typeof f.seat_count === 'number' ? { tableSize: f.seat_count } : {}),
  };
  let hand: Hand;
  try {
    hand = new Hand(setup, { rules });
  } catch (err) {
    if (err instanceof SetupError) {
      throw new ExportError(
        ExportErrorCode.PARSE,
        `the file's setup is not playable: ${err.message}`,
        {},
        { cause: err },
      );
    }
    throw err;
  }
  applyActions(hand, phh.actions, seats);
  const after = f._shown_after_hand;
  if (after !== undefined) {
    if (!Array.isArray(after) || !after.every((a) => typeof a === 'string')) {
      throw new ExportError(ExportErrorCode.PARSE, '_shown_after_hand must be an array of strings');
    }
    if (!hand.isComplete)
      throw new ExportError(ExportErrorCode.REPLAY_MISMATCH, 'a show after a hand that did not end');
    applyActions(hand, after, seats);
  }
  if (phh.finishingStacks !== null) {
    const settlement = hand.settlement;
    const finals = seats.map((seat) => settlement?.players.find((p) => p.seat === seat)?.finalStack ?? null);
    if (finals.join(',') !== phh.finishingStacks.join(',')) {
      throw new ExportError(
        ExportErrorCode.REPLAY_MISMATCH,
        `the engine finished with stacks ${finals.join(', ')}, the file says ${phh.finishingStacks.join(', ')}`,
      );
    }
  }
  // The engine dealt on its own; what it dealt must be what the file says, line for line.
  const dealerLines = (actions: readonly string[]): string[] =>
    actions
      .map((a) => words(a))
      .filter((w) => w[0] === 'd')
      .map((w) => w.join(' '));
  if (dealerLines(phhActions(hand)).join('|') !== dealerLines(phh.actions).join('|')) {
    throw new ExportError(ExportErrorCode.REPLAY_MISMATCH, 'the engine dealt other cards than the file');
  }
  return { hand, phh };
}

function commentary(action: string): string {
  const hash = action.indexOf('#');
  return hash >= 0 ? action.slice(hash + 1).trim() : '';
}

function words(action: string): string[] {
  const hash = action.indexOf('#');
  return (hash >= 0 ? action.slice(0, hash) : action).trim().split(/\s+/).filter(Boolean);
}

function dealtCards(text: string, action: string): Card[] {
  if (text.includes(HIDDEN)) {
    throw new ExportError(ExportErrorCode.UNSUPPORTED, `hidden cards cannot be replayed: ${action}`, { action });
  }
  return parseCards(text);
}

/**
 * The deck the engine would deal these cards from. A run of `d dh` lines is one dealing: round by round
 * from the first player (two down and one up in Stud go out a card at a time), except a draw's
 * replacements (the run after `sd` lines), which each player receives all at once in turn; `d db` adds
 * to the board.
 */
function deckFromActions(actions: readonly string[], n: number, rules: GameRules): Card[] {
  const out: Card[] = [];
  let afterDiscards = false;
  let run: Card[][] = [];
  const endRun = (): void => {
    if (afterDiscards) for (const cards of run) out.push(...cards);
    else {
      const rounds = Math.max(0, ...run.map((c) => c.length));
      for (let r = 0; r < rounds; r++) for (const cards of run) if (cards[r] !== undefined) out.push(cards[r]!);
    }
    run = [];
  };
  for (const a of actions) {
    const w = words(a);
    if (w.length === 0) continue;
    if (w[0] === 'd' && w[1] === 'dh') {
      const i = Number(w[2]?.slice(1)) - 1;
      if (!(i >= 0 && i < n)) throw new ExportError(ExportErrorCode.PARSE, `bad player in ${a}`);
      run.push(dealtCards(w[3] ?? '', a));
      continue;
    }
    if (run.length > 0) endRun();
    if (w[0] === 'd' && w[1] === 'db') out.push(...dealtCards(w[2] ?? '', a));
    afterDiscards = w[1] === 'sd';
  }
  if (run.length > 0) endRun();
  const used = new Set(out);
  if (used.size !== out.length) {
    throw new ExportError(
      ExportErrorCode.UNSUPPORTED,
      'a card is dealt twice: a reshuffled draw hand needs its deck seed to replay',
    );
  }
  for (const c of initialDeck(rules.deck)) if (!used.has(c)) out.push(c);
  return out;
}

function applyActions(hand: Hand, actions: readonly string[], seats: readonly number[]): void {
  let board = 0;
  const mismatch = (action: string, why: string): never => {
    throw new ExportError(ExportErrorCode.REPLAY_MISMATCH, `${action}: ${why}`, { action });
  };
  for (const action of actions) {
    const w = words(action);
    if (w.length === 0) continue;
    if (w[0] === 'd') {
      if (w[1] === 'db') {
        const cards = parseCards(w[2] ?? '');
        const dealt = hand.boardCards.slice(board, board + cards.length);
        if (dealt.join('') !== cards.join('')) mismatch(action, `the engine dealt ${dealt.join('')}`);
        board += cards.length;
      }
      continue;
    }
    const m = /^p(\d+)$/.exec(w[0]!);
    const seat = m === null ? undefined : seats[Number(m[1]) - 1];
    if (seat === undefined) return mismatch(action, 'unknown player');
    const verb = w[1];
    const timeout = commentary(action) === 'timeout';
    if (verb === 'f' || verb === 'cc' || verb === 'cbr' || verb === 'pb' || verb === 'sd') {
      if (hand.actor !== seat) mismatch(action, `the player to act is seat ${hand.actor}`);
      if (verb === 'f') hand.fold(seat, { timeout });
      else if (verb === 'cc' && timeout) hand.check(seat, { timeout });
      else if (verb === 'cc') hand.checkOrCall(seat);
      else if (verb === 'pb') hand.bringIn(seat, { timeout });
      else if (verb === 'sd') hand.discard(seat, w[2] === undefined ? [] : dealtCards(w[2], action), { timeout });
      else hand.betOrRaiseTo(seat, Number(w[2]));
    } else if (verb === 'sm') {
      const shown = w[2];
      const ops = hand.operations.filter((op) => (op.type === 'show' || op.type === 'muck') && op.seat === seat);
      if (shown === undefined) {
        if (!ops.some((op) => op.type === 'muck')) mismatch(action, 'the engine did not muck this hand');
      } else if (ops.some((op) => op.type === 'show' && op.cards.join('') === shown)) {
        // Revealed by the engine's showdown rules.
      } else if (hand.canShow(seat) && shown === hand.holeCards(seat).join('') && shown.match(/../g)!.every(isCard)) {
        hand.show(seat);
      } else mismatch(action, 'the engine did not show these cards');
    } else mismatch(action, 'unsupported action');
  }
}
