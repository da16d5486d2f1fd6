import { isCard, rankOf, type Card } from '../cards.js';
import {
  bettingStructure,
  initialRaiseSize,
  inWagerRange,
  wagerRange,
  type BettingStructure,
  type WagerRange,
} from '../betting/structure.js';
import {
  ActionError,
  ActionErrorCode,
  SetupError,
  SetupErrorCode,
  SerializationError,
  SerializationErrorCode,
  ShowdownIntegrityCode,
  ShowdownIntegrityError,
} from '../errors.js';
import { getGameRules } from '../games/registry.js';
import type { CardVisibility, GameRules, StreetRules } from '../games/types.js';
import { bringInKey, visibleHighValue, visibleLowValue } from '../games/visible.js';
import type { DealtCard, DeckReshuffle } from '../fairness/index.js';
import { HandDealer } from './deck.js';
import {
  isBlindInput,
  isDecision,
  isVoluntaryShow,
  type BetOperation,
  type DealBoardOperation,
  type MuckOperation,
  type BringInOperation,
  type CallOperation,
  type CheckOperation,
  type DiscardOperation,
  type FoldOperation,
  type Operation,
  type OperationView,
  type RaiseOperation,
  type RevealReason,
  type ShowOperation,
  viewOperation,
} from './operations.js';
import { PotManager, validatePots, type Contribution } from './pots.js';
import { decideRake, deductRake, type GrossShare } from './rake.js';
import { clockwiseRank, nextSeat, orderFromButton } from './seats.js';
import type { JudgedHand, PlayerSettlement, PotSettlement, Settlement } from './settlement.js';
import {
  DEFAULT_SHOWDOWN_OPTIONS,
  ForcedBetKind,
  deckCards,
  isDeadForcedBet,
  resolveRake,
  validateSetup,
  resolveHouseRules,
  type HouseRules,
  type ForcedBet,
  type HandSetup,
  type ResolvedRake,
  type ShowdownOptions,
} from './setup.js';
import { awardPots, decideReveals, type PotAward } from './showdown.js';

export const HandPhase = {
  BETTING: 'betting',
  /** Draw games: players discard and are dealt replacements, one at a time. */
  DRAWING: 'drawing',
  /**
   * Blind dealing: a street's board cards are due ({@link Hand.pendingBoard}) and nobody is to act
   * until the players' decrypted cards come in through {@link Hand.revealBoard}.
   */
  DEALING: 'dealing',
  /** Pots are being judged; a hand left here failed validation (ShowdownIntegrityError). */
  SHOWDOWN: 'showdown',
  COMPLETE: 'complete',
} as const;
export type HandPhase = (typeof HandPhase)[keyof typeof HandPhase];

/** A player's intent, as the table actor receives it. Amounts are "to" totals for the round. */
export type PlayerAction =
  | { readonly type: 'fold' }
  | { readonly type: 'check' }
  | { readonly type: 'call' }
  | { readonly type: 'bet'; readonly to: number }
  | { readonly type: 'raise'; readonly to: number }
  | { readonly type: 'all_in' }
  /** Stud: post the bring-in (completing instead is a `bet` to the completion). */
  | { readonly type: 'bring_in' }
  /** Draw games: throw these cards away for as many new ones; none stands pat. */
  | { readonly type: 'discard'; readonly cards: readonly Card[] }
  /** Blind showdown: give up the claim without showing (showing takes the cards: {@link Hand.showBlind}). */
  | { readonly type: 'muck' };

export type DecisionOperation =
  FoldOperation | CheckOperation | CallOperation | BetOperation | RaiseOperation | BringInOperation | DiscardOperation;

/** Table-side metadata of a decision: set when the clock took it. */
export interface DecisionMeta {
  readonly timeout?: boolean;
}

/** What the actor may do now, for the action buttons and for validation at the edge. */
export interface ValidActions {
  readonly seat: number;
  readonly fold: boolean;
  readonly check: boolean;
  /** Chips a call adds (less than the bet when it puts the player all-in), or null. */
  readonly call: number | null;
  /** Opening bet "to" range, or null. */
  readonly bet: WagerRange | null;
  /** Raise "to" range, or null (no bet to raise, cap reached, or betting not reopened). */
  readonly raise: WagerRange | null;
  /**
   * Stud: the chips the bring-in would post when it is due (then `bet` is the completion and nothing else
   * is allowed), or null.
   */
  readonly bringIn: number | null;
  /** Draw round: the most cards the actor may discard (0 stands pat), or null outside a draw. */
  readonly discard: { readonly max: number } | null;
  /**
   * Blind showdown only: the actor shows this many hole cards ({@link Hand.showBlind}) or mucks; every
   * betting option is then off.
   */
  readonly showdown?: { readonly cards: number };
  /** The player's total for the round if they push everything in. */
  readonly allInTo: number;
  readonly currentBet: number;
  readonly playerBet: number;
  readonly stack: number;
  readonly pot: number;
}

interface PlayerState {
  readonly seat: number;
  readonly id: string;
  readonly name: string | undefined;
  readonly startingStack: number;
  stack: number;
  /** Chips put in during the current round. */
  bet: number;
  live: number;
  dead: number;
  returned: number;
  folded: boolean;
  /** Round in which the stack reached zero (-1: while posting antes). */
  allInRound: number | null;
  acted: boolean;
  /** The round's current bet when the player last acted (for the reopen rule). */
  actedAt: number;
  hole: Card[];
  visibility: CardVisibility[];
  /**
   * Hole cards turned face up so far (the first `shownCount`): all of them at showdown; in Stud an
   * all-in runout shows the cards dealt so far, and the ones dealt after stay down until the showdown.
   */
  shownCount: number;
  mucked: boolean;
}

/** Blind dealing: the board cards a street is waiting for, by deck index. */
export interface PendingBoard {
  readonly street: number;
  readonly count: number;
  readonly indices: readonly number[];
}

/** The serialized hand: its setup and its operation log. */
export interface HandJSON {
  readonly format: 'felt-hand/1';
  readonly setup: HandSetup;
  readonly operations: readonly Operation[];
}

/** Public and private state, for tables and per-viewer views (which redact hole cards). */
export interface HandState {
  readonly handId: string;
  readonly game: string;
  readonly limit: string;
  readonly phase: HandPhase;
  readonly street: number;
  readonly streetName: string;
  /** Fixed-limit unit in force ('big' after an open pair's big bet on Stud's fourth street). */
  readonly betUnit: 'small' | 'big';
  readonly button: number;
  readonly actor: number | null;
  readonly board: readonly Card[];
  readonly currentBet: number;
  readonly pots: readonly { readonly amount: number; readonly eligible: readonly number[] }[];
  readonly players: readonly {
    readonly seat: number;
    readonly id: string;
    readonly stack: number;
    readonly bet: number;
    readonly contributed: number;
    readonly folded: boolean;
    readonly allIn: boolean;
    /** Null when hidden from the viewer. */
    readonly hole: readonly (Card | null)[];
    readonly visibility: readonly CardVisibility[];
    readonly shown: boolean;
    readonly mucked: boolean;
  }[];
}

export interface HandOptions {
  /** Rules to play; by default looked up from `setup.game`. */
  readonly rules?: GameRules;
}

function allShown(p: PlayerState): boolean {
  return p.hole.length > 0 && p.shownCount === p.hole.length;
}

/** Blind dealing: the seat was dealt cards nobody knows yet (`hole` holds them only once shown). */
function hidesCards(p: PlayerState): boolean {
  return p.hole.length < p.visibility.length;
}

/** What the bring-in player may do: post it, or complete (a bet), possibly all-in. */
const BRING_IN_ANSWERS = new Set(['bring_in', 'bet', 'all_in', 'bet_or_raise']);

function freeze<T extends object>(op: T): T {
  return Object.freeze(op);
}

/**
 * One hand of poker as a deterministic state machine. Construct it from a {@link HandSetup}; forced bets
 * and the deal happen at once. Each player action has a `verifyX` (throws {@link ActionError}), `canX`
 * (boolean) and `x` (mutates, returns the frozen operation record). Dealing, returns, reveals and
 * settlement follow automatically, and every step is appended to {@link Hand.operations}.
 */
export class Hand {
  readonly setup: HandSetup;
  readonly rules: GameRules;
  readonly structure: BettingStructure;
  private readonly rake: ResolvedRake | null;
  private readonly showdownOptions: ShowdownOptions;
  /** The room's house rules, defaults filled in. */
  readonly houseRules: HouseRules;
  private readonly players: PlayerState[];
  private readonly bySeat: Map<number, PlayerState>;
  private readonly seats: number[];
  /** Clockwise from the first seat after the button. */
  private readonly order: number[];
  private readonly rank: Map<number, number>;
  private readonly ops: Operation[] = [];
  private readonly pots = new PotManager();
  private readonly board: Card[] = [];
  private readonly dealer: HandDealer;
  /** Dead cards a draw game may reshuffle: earlier discards and folded hands (docs/engine.md). */
  private readonly muck: Card[] = [];
  private street = -1;
  private phaseValue: HandPhase = HandPhase.BETTING;
  private actorSeat: number | null = null;
  private currentBet = 0;
  private lastFullRaise = 0;
  /**
   * The round's bet after its last reopening raise (with `limitHalfBetReopens`, a half-bet all-in counts):
   * a player who acted below it may raise again.
   */
  private reopenedAt = 0;
  private raiseCount = 0;
  private lastAggressor: number | null = null;
  private runoutRevealed = false;
  private settlementValue: Settlement | null = null;
  private bigBlindSeat: number | null = null;
  /** Preflop, the blind everyone must call in full even when it was posted short. */
  private nominalBlind = 0;
  /** Stud third street: the bring-in player has to bring in or complete. */
  private bringInPending = false;
  /** The bet is a bring-in nobody has completed yet: any player may still complete. */
  private completionPending = false;
  private betUnit: 'small' | 'big' = 'small';
  /** Stud fourth street with an open pair: the next wager may add the small or the big bet. */
  private bigBetOption = false;
  /** Live players in drawing order for the current draw round. */
  private drawOrder: number[] = [];
  /** Blind dealing (`setup.dealing === 'blind'`). */
  private readonly blind: boolean;
  private pendingBoardValue: PendingBoard | null = null;
  /** Blind showdown: the seats still to show or muck, the actor first. */
  private showQueue: number[] = [];

  constructor(setup: HandSetup, options: HandOptions = {}) {
    const rules = options.rules ?? getGameRules(setup.game);
    validateSetup(setup, rules);
    this.setup = setup;
    this.rules = rules;
    this.structure = bettingStructure(setup.limit, setup.stakes, rules.forcedBets);
    this.rake = resolveRake(setup.rake);
    this.showdownOptions = { ...DEFAULT_SHOWDOWN_OPTIONS, ...setup.showdown };
    this.houseRules = resolveHouseRules(setup.houseRules);
    this.players = [...setup.players]
      .sort((a, b) => a.seat - b.seat)
      .map((p) => ({
        seat: p.seat,
        id: p.id,
        name: p.name,
        startingStack: p.stack,
        stack: p.stack,
        bet: 0,
        live: 0,
        dead: 0,
        returned: 0,
        folded: false,
        allInRound: null,
        acted: false,
        actedAt: 0,
        hole: [],
        visibility: [],
        shownCount: 0,
        mucked: false,
      }));
    this.blind = setup.dealing === 'blind';
    this.dealer = this.blind ? HandDealer.blind(rules.deck) : new HandDealer(setup.deck, rules.deck, setup.deckSeed);
    this.bySeat = new Map(this.players.map((p) => [p.seat, p]));
    this.seats = this.players.map((p) => p.seat);
    this.order = orderFromButton(this.seats, setup.button);
    this.rank = clockwiseRank(this.seats, setup.button);
    this.start();
  }

  // ---------------------------------------------------------------- reading

  get handId(): string {
    return this.setup.handId;
  }

  get phase(): HandPhase {
    return this.phaseValue;
  }

  get isComplete(): boolean {
    return this.phaseValue === HandPhase.COMPLETE;
  }

  /** The seat to act, or null when nobody is to act (between rounds, at showdown, or when complete). */
  get actor(): number | null {
    return this.actorSeat;
  }

  /** How the cards are dealt (`setup.dealing`, `standard` when absent). */
  get dealing(): 'standard' | 'blind' {
    return this.blind ? 'blind' : 'standard';
  }

  /** Blind dealing: the board cards due now (phase `dealing`), or null. */
  get pendingBoard(): PendingBoard | null {
    return this.pendingBoardValue;
  }

  /** Blind showdown: the seats still to show or muck, in order (the first is the actor). */
  get showdownQueue(): readonly number[] {
    return [...this.showQueue];
  }

  get streetIndex(): number {
    return this.street;
  }

  get operations(): readonly Operation[] {
    return this.ops;
  }

  /** Operations appended since `count` (what a table actor publishes after each command). */
  operationsSince(count: number): readonly Operation[] {
    return this.ops.slice(count);
  }

  /**
   * Operations appended since `count` as `viewer` (a seat, or null for a spectator) may see them: other
   * seats' down cards, discards and reshuffled dead cards are null (see {@link viewOperation}).
   */
  operationsFor(viewer: number | null, count = 0): OperationView[] {
    return this.ops.slice(count).map((op) => viewOperation(op, viewer));
  }

  get settlement(): Settlement | null {
    return this.settlementValue;
  }

  get boardCards(): readonly Card[] {
    return this.board;
  }

  /** Every dealt card with its deck index, in dealing order (docs/fairness.md, derivation step 10). */
  dealtCards(): readonly DealtCard[] {
    return this.dealer.dealt;
  }

  /** Draw games: the reshuffles of the discards, for the reveal record (`toRevealRecord`). */
  reshuffles(): DeckReshuffle[] {
    return this.dealer.reshuffles;
  }

  holeCards(seat: number): readonly Card[] {
    return this.player(seat)?.hole ?? [];
  }

  /** Clockwise from the first seat after the button: the PHH player order. */
  positionOrder(): number[] {
    return [...this.order];
  }

  /** Total chips in the middle: collected pots plus this round's bets. */
  get potTotal(): number {
    let t = this.pots.total;
    for (const p of this.players) t += p.bet;
    return t;
  }

  state(): HandState {
    return this.view(undefined);
  }

  /**
   * The state as one viewer may see it: their own hole cards, up cards, and hands shown at showdown.
   * `undefined` sees everything (the server); `null` is a spectator.
   */
  view(viewer: number | null | undefined): HandState {
    const streetRules = this.rules.streets[Math.max(0, this.street)];
    return {
      handId: this.setup.handId,
      game: this.rules.id,
      limit: this.structure.limit,
      phase: this.phaseValue,
      street: this.street,
      streetName: streetRules?.name ?? '',
      betUnit: this.betUnit,
      button: this.setup.button,
      actor: this.actorSeat,
      board: [...this.board],
      currentBet: this.currentBet,
      pots: this.pots.list().map((p) => ({ amount: p.amount, eligible: [...p.eligible] })),
      players: this.players.map((p) => ({
        seat: p.seat,
        id: p.id,
        stack: p.stack,
        bet: p.bet,
        contributed: p.live + p.dead,
        folded: p.folded,
        allIn: p.allInRound !== null,
        hole: hidesCards(p)
          ? p.visibility.map(() => null)
          : p.hole.map((c, i) =>
              viewer === undefined || viewer === p.seat || i < p.shownCount || p.visibility[i] === 'up' ? c : null,
            ),
        visibility: [...p.visibility],
        shown: allShown(p),
        mucked: p.mucked,
      })),
    };
  }

  // ---------------------------------------------------------------- valid actions

  /** The actor's options; null when nobody is to act. */
  validActions(): ValidActions | null {
    const seat = this.actorSeat;
    if (seat === null) return null;
    const p = this.bySeat.get(seat)!;
    const base = {
      seat,
      fold: false,
      check: false,
      call: null,
      bet: null,
      raise: null,
      bringIn: null,
      discard: null,
      allInTo: p.bet + p.stack,
      currentBet: this.currentBet,
      playerBet: p.bet,
      stack: p.stack,
      pot: this.potTotal,
    };
    if (this.phaseValue === HandPhase.DRAWING) return { ...base, discard: { max: p.hole.length } };
    if (this.blindShowdownOpen()) return { ...base, showdown: { cards: p.visibility.length } };
    if (this.phaseValue !== HandPhase.BETTING) return null;
    if (this.bringInPending) {
      const bringIn = Math.min(this.structure.bringIn, p.stack);
      return { ...base, bringIn, bet: p.stack > bringIn ? this.wagerRangeFor(p) : null };
    }
    const facing = this.currentBet > p.bet;
    const range = this.wagerRangeFor(p);
    return {
      ...base,
      fold: facing,
      check: !facing,
      call: facing ? Math.min(this.currentBet - p.bet, p.stack) : null,
      bet: this.currentBet === 0 ? range : null,
      raise: this.currentBet > 0 && this.mayRaise(p) ? range : null,
    };
  }

  private wagerRangeFor(p: PlayerState): WagerRange | null {
    if (!this.opponentCanAnswer(p)) return null;
    return wagerRange(this.structure, {
      currentBet: this.currentBet,
      lastFullRaise: this.lastFullRaise,
      playerBet: p.bet,
      playerStack: p.stack,
      potTotal: this.potTotal,
      raiseCount: this.raiseCount,
      betUnit: this.betUnit,
      completion: this.completionPending,
      bigBetOption: this.bigBetOption,
    });
  }

  /**
   * The WSOP reopen rule: a player who has acted may raise again only when facing at least a full raise
   * since their last action; all-ins short of a full raise add up, but one alone does not reopen.
   */
  private mayRaise(p: PlayerState): boolean {
    // Until the bring-in is completed nobody has faced a full bet: anyone may still complete.
    return (
      this.completionPending ||
      !p.acted ||
      this.currentBet - p.actedAt >= this.lastFullRaise ||
      this.reopenedAt > p.actedAt
    );
  }

  /**
   * Whether a bet, raise or completion by `p` could be answered: some other player still in the hand can
   * put in more than the current bet (pokerkit's rule). When every other player is all-in, or cannot put
   * in more than the current bet, `p` may only call (or check) or fold.
   */
  private opponentCanAnswer(p: PlayerState): boolean {
    for (const q of this.players) {
      if (q !== p && !q.folded && q.bet + q.stack > this.currentBet) return true;
    }
    return false;
  }

  private verifyAnswerable(p: PlayerState, action: 'bet' | 'raise', to: number): void {
    if (this.opponentCanAnswer(p)) return;
    throw new ActionError(
      ActionErrorCode.NO_OPPONENT_CAN_ANSWER,
      'no opponent can put in more than the current bet: only a call or a fold remains',
      { seat: p.seat, action, amount: to },
    );
  }

  /** Records that `p` acted now, for the reopen rule: an uncompleted bring-in is not a bet to reopen over. */
  private markActed(p: PlayerState): void {
    p.acted = true;
    p.actedAt = this.completionPending ? 0 : this.currentBet;
  }

  // ---------------------------------------------------------------- the trio per action

  verifyFold(seat: number): void {
    const p = this.verifyTurn(seat, 'fold');
    if (this.currentBet <= p.bet) {
      throw new ActionError(ActionErrorCode.CANNOT_FOLD, 'checking is free; a fold is not needed', {
        seat,
        action: 'fold',
      });
    }
  }

  canFold(seat: number): boolean {
    return this.can(() => this.verifyFold(seat));
  }

  fold(seat: number, meta: DecisionMeta = {}): FoldOperation {
    this.verifyFold(seat);
    const p = this.bySeat.get(seat)!;
    p.folded = true;
    this.markActed(p);
    this.pots.removeFolded(seat);
    // A folded hand is dead: in a draw game its cards may be reshuffled with the discards.
    if (this.hasDraws()) this.muck.push(...p.hole);
    const op = this.record<FoldOperation>({ type: 'fold', seat, ...(meta.timeout ? { timeout: true as const } : {}) });
    this.afterAction(seat);
    return op;
  }

  verifyCheck(seat: number): void {
    const p = this.verifyTurn(seat, 'check');
    if (this.currentBet > p.bet) {
      throw new ActionError(ActionErrorCode.CANNOT_CHECK, 'there is a bet to call', { seat, action: 'check' });
    }
  }

  canCheck(seat: number): boolean {
    return this.can(() => this.verifyCheck(seat));
  }

  check(seat: number, meta: DecisionMeta = {}): CheckOperation {
    this.verifyCheck(seat);
    const p = this.bySeat.get(seat)!;
    this.markActed(p);
    const op = this.record<CheckOperation>({
      type: 'check',
      seat,
      ...(meta.timeout ? { timeout: true as const } : {}),
    });
    this.afterAction(seat);
    return op;
  }

  verifyCall(seat: number): void {
    const p = this.verifyTurn(seat, 'call');
    if (this.currentBet <= p.bet) {
      throw new ActionError(ActionErrorCode.NOTHING_TO_CALL, 'there is no bet to call', { seat, action: 'call' });
    }
  }

  canCall(seat: number): boolean {
    return this.can(() => this.verifyCall(seat));
  }

  call(seat: number): CallOperation {
    this.verifyCall(seat);
    const p = this.bySeat.get(seat)!;
    const amount = Math.min(this.currentBet - p.bet, p.stack);
    this.commit(p, amount);
    this.markActed(p);
    const op = this.record<CallOperation>({ type: 'call', seat, amount, allIn: p.stack === 0 });
    this.afterAction(seat);
    return op;
  }

  /** Stud: the bring-in player posts the bring-in (the alternative is to complete: a `bet`). */
  verifyBringIn(seat: number): void {
    this.verifyTurn(seat, 'bring_in');
    if (!this.bringInPending) {
      throw new ActionError(ActionErrorCode.CANNOT_BRING_IN, 'no bring-in is due', { seat, action: 'bring_in' });
    }
  }

  canBringIn(seat: number): boolean {
    return this.can(() => this.verifyBringIn(seat));
  }

  bringIn(seat: number, meta: DecisionMeta = {}): BringInOperation {
    this.verifyBringIn(seat);
    const p = this.bySeat.get(seat)!;
    const amount = Math.min(this.structure.bringIn, p.stack);
    this.commit(p, amount);
    this.bringInPending = false;
    // Like a short big blind, a short bring-in is still called in full; the excess comes back uncalled.
    this.currentBet = Math.max(this.currentBet, this.structure.bringIn);
    // A bring-in of the whole small bet is already complete.
    this.completionPending = this.belowCompletion();
    this.markActed(p);
    const op = this.record<BringInOperation>({
      type: 'bring_in',
      seat,
      amount,
      allIn: p.stack === 0,
      ...(meta.timeout ? { timeout: true as const } : {}),
    });
    this.afterAction(seat);
    return op;
  }

  verifyBet(seat: number, to: number): void {
    const p = this.verifyTurn(seat, 'bet');
    if (this.currentBet > 0) {
      throw new ActionError(ActionErrorCode.CANNOT_BET, 'there is already a bet; raise instead', {
        seat,
        action: 'bet',
        amount: to,
      });
    }
    if (this.bringInPending && p.stack <= this.structure.bringIn) {
      throw new ActionError(ActionErrorCode.BRING_IN_DUE, 'the stack only covers the bring-in', {
        seat,
        action: 'bet',
        amount: to,
      });
    }
    this.verifyAnswerable(p, 'bet', to);
    this.verifyAmount(p, to, 'bet');
  }

  canBet(seat: number, to: number): boolean {
    return this.can(() => this.verifyBet(seat, to));
  }

  bet(seat: number, to: number): BetOperation {
    this.verifyBet(seat, to);
    const p = this.bySeat.get(seat)!;
    const amount = to - p.bet;
    // The round's first wager: full when it reaches the street's opening size (lastFullRaise until now).
    const reopening = to >= this.lastFullRaise || this.halfBetAllIn(to, amount === p.stack);
    this.commit(p, amount);
    this.bringInPending = false;
    if (this.structure.limit !== 'fl') {
      if (to >= this.structure.minBet) this.lastFullRaise = to;
    } else this.takeBigBet(to);
    if (reopening) this.reopenedAt = to;
    this.currentBet = to;
    this.completionPending = this.belowCompletion();
    this.raiseCount++;
    this.lastAggressor = seat;
    p.acted = true;
    p.actedAt = to;
    const op = this.record<BetOperation>({ type: 'bet', seat, to, amount, allIn: p.stack === 0 });
    this.afterAction(seat);
    return op;
  }

  verifyRaise(seat: number, to: number): void {
    const p = this.verifyTurn(seat, 'raise');
    if (this.currentBet === 0) {
      throw new ActionError(ActionErrorCode.CANNOT_RAISE, 'there is no bet to raise; bet instead', {
        seat,
        action: 'raise',
        amount: to,
      });
    }
    if (!this.mayRaise(p)) {
      throw new ActionError(
        ActionErrorCode.RAISE_NOT_REOPENED,
        'an all-in short of a full raise does not reopen the betting',
        { seat, action: 'raise', amount: to },
      );
    }
    if (this.structure.raiseCap !== null && this.raiseCount >= this.structure.raiseCap) {
      throw new ActionError(ActionErrorCode.RAISE_CAP_REACHED, 'the betting is capped', {
        seat,
        action: 'raise',
        amount: to,
      });
    }
    this.verifyAnswerable(p, 'raise', to);
    this.verifyAmount(p, to, 'raise');
  }

  canRaise(seat: number, to: number): boolean {
    return this.can(() => this.verifyRaise(seat, to));
  }

  raise(seat: number, to: number): RaiseOperation {
    this.verifyRaise(seat, to);
    const p = this.bySeat.get(seat)!;
    const amount = to - p.bet;
    const increment = to - this.currentBet;
    const completing = this.completionPending;
    // Completing a bring-in is the round's first full bet, whatever it adds over the bring-in.
    const full = completing ? to >= this.completionSize() : increment >= this.lastFullRaise;
    this.commit(p, amount);
    if (this.structure.limit !== 'fl') {
      if (full) this.lastFullRaise = completing ? to : increment;
    } else this.takeBigBet(increment);
    if (full || (!completing && this.halfBetAllIn(increment, p.stack === 0))) this.reopenedAt = to;
    this.currentBet = to;
    this.completionPending = this.belowCompletion();
    this.raiseCount++;
    this.lastAggressor = seat;
    p.acted = true;
    p.actedAt = to;
    const op = this.record<RaiseOperation>({ type: 'raise', seat, to, amount, allIn: p.stack === 0, full });
    this.afterAction(seat);
    return op;
  }

  /** Draw games: throw away `cards` (none to stand pat) and be dealt as many new ones. */
  verifyDiscard(seat: number, cards: readonly Card[]): void {
    if (this.phaseValue === HandPhase.COMPLETE) {
      throw new ActionError(ActionErrorCode.HAND_COMPLETE, 'the hand is over', { seat, action: 'discard' });
    }
    if (this.phaseValue !== HandPhase.DRAWING || this.actorSeat === null) {
      throw new ActionError(ActionErrorCode.NOT_DRAWING, 'no draw round is open', { seat, action: 'discard' });
    }
    const p = this.bySeat.get(seat);
    if (p === undefined || p.folded) {
      throw new ActionError(ActionErrorCode.NOT_IN_HAND, 'seat is not in this hand', { seat, action: 'discard' });
    }
    if (seat !== this.actorSeat) {
      throw new ActionError(ActionErrorCode.NOT_YOUR_TURN, 'it is not this seat’s turn', {
        seat,
        action: 'discard',
        actor: this.actorSeat,
      });
    }
    const list: unknown = cards;
    const valid =
      Array.isArray(list) &&
      list.every((c) => isCard(c) && p.hole.includes(c)) &&
      new Set(list).size === list.length &&
      list.length <= p.hole.length;
    if (!valid) {
      throw new ActionError(ActionErrorCode.INVALID_DISCARD, 'discard distinct cards from your own hand', {
        seat,
        action: 'discard',
        cards: Array.isArray(list) ? list.map(String) : [],
      });
    }
    if (cards.length > this.dealer.remaining + this.muck.length) {
      // Six seats always leave enough dead cards; a custom game with more seats might not.
      throw new SetupError(SetupErrorCode.INVALID_DECK, 'the stub and the muck cannot cover this draw', {
        handId: this.setup.handId,
      });
    }
    if (cards.length > this.dealer.remaining && !this.dealer.canReshuffle) {
      throw new SetupError(
        SetupErrorCode.DECK_SEED_REQUIRED,
        'this draw needs a reshuffle and the setup has no deckSeed',
        {
          handId: this.setup.handId,
        },
      );
    }
  }

  canDiscard(seat: number, cards: readonly Card[]): boolean {
    return this.can(() => this.verifyDiscard(seat, cards));
  }

  discard(seat: number, cards: readonly Card[], meta: DecisionMeta = {}): DiscardOperation {
    this.verifyDiscard(seat, cards);
    const p = this.bySeat.get(seat)!;
    const op = this.record<DiscardOperation>({
      type: 'discard',
      seat,
      cards: [...cards],
      ...(meta.timeout ? { timeout: true as const } : {}),
    });
    for (const card of cards) {
      const i = p.hole.indexOf(card);
      p.hole.splice(i, 1);
      p.visibility.splice(i, 1);
    }
    if (cards.length > 0) {
      const fresh: Card[] = [];
      const indices: number[] = [];
      for (let k = 0; k < cards.length; k++) {
        // The stub is dealt out first; then the discards so far (not this player's) become the new stub.
        if (this.dealer.remaining === 0) this.reshuffleMuck();
        const { card, index } = this.dealer.deal();
        fresh.push(card);
        indices.push(index);
      }
      p.hole.push(...fresh);
      p.visibility.push(...fresh.map(() => 'down' as const));
      this.record({
        type: 'deal_hole',
        street: this.street,
        seat,
        cards: fresh,
        visibility: fresh.map(() => 'down' as const),
        indices,
        draw: true,
      });
    }
    this.muck.push(...cards);
    this.afterDiscard(seat);
    return op;
  }

  /** Stands pat: a discard of nothing. */
  standPat(seat: number, meta: DecisionMeta = {}): DiscardOperation {
    return this.discard(seat, [], meta);
  }

  /** pokerkit's `check_or_call` (PHH `cc`). */
  checkOrCall(seat: number): CheckOperation | CallOperation {
    const p = this.verifyTurn(seat, 'check_or_call');
    return this.currentBet > p.bet ? this.call(seat) : this.check(seat);
  }

  /** pokerkit's `complete_bet_or_raise_to` (PHH `cbr`). */
  betOrRaiseTo(seat: number, to: number): BetOperation | RaiseOperation {
    this.verifyTurn(seat, 'bet_or_raise');
    return this.currentBet === 0 ? this.bet(seat, to) : this.raise(seat, to);
  }

  /** The concrete action `all_in` stands for: the bring-in, a bet, a call or a raise of the whole stack. */
  private allInAction(seat: number): PlayerAction {
    const p = this.bySeat.get(seat);
    if (p === undefined) return { type: 'call' };
    const to = p.bet + p.stack;
    if (this.bringInPending && p.stack <= this.structure.bringIn) return { type: 'bring_in' };
    if (this.currentBet === 0) return { type: 'bet', to };
    if (to <= this.currentBet) return { type: 'call' };
    return { type: 'raise', to };
  }

  /** Dispatches a player's intent; `all_in` becomes the bet, raise or call that puts the stack in. */
  verifyAction(seat: number, action: PlayerAction): void {
    switch (action.type) {
      case 'fold':
        return this.verifyFold(seat);
      case 'check':
        return this.verifyCheck(seat);
      case 'call':
        return this.verifyCall(seat);
      case 'bet':
        return this.verifyBet(seat, action.to);
      case 'raise':
        return this.verifyRaise(seat, action.to);
      case 'bring_in':
        return this.verifyBringIn(seat);
      case 'discard':
        return this.verifyDiscard(seat, action.cards);
      case 'muck':
        return this.verifyMuckBlind(seat);
      case 'all_in': {
        this.verifyTurn(seat, 'all_in');
        return this.verifyAction(seat, this.allInAction(seat));
      }
      default:
        throw new ActionError(ActionErrorCode.UNKNOWN_ACTION, 'unknown action', {
          seat,
          action: String((action as { type: unknown }).type),
        });
    }
  }

  canAct(seat: number, action: PlayerAction): boolean {
    return this.can(() => this.verifyAction(seat, action));
  }

  act(seat: number, action: PlayerAction, meta: DecisionMeta = {}): DecisionOperation | MuckOperation {
    this.verifyAction(seat, action);
    switch (action.type) {
      case 'fold':
        return this.fold(seat, meta);
      case 'check':
        return this.check(seat, meta);
      case 'call':
        return this.call(seat);
      case 'bet':
        return this.bet(seat, action.to);
      case 'raise':
        return this.raise(seat, action.to);
      case 'bring_in':
        return this.bringIn(seat, meta);
      case 'discard':
        return this.discard(seat, action.cards, meta);
      case 'muck':
        return this.muckBlind(seat, meta);
      case 'all_in':
        return this.act(seat, this.allInAction(seat), meta);
    }
  }

  /**
   * The table's decision when the actor's clock runs out: check if it is free, otherwise fold; a due
   * bring-in is posted (it cannot be folded), a draw stands pat, and at a blind showdown the hand is
   * mucked (the table cannot show cards it does not know).
   */
  timeoutDecision(): PlayerAction | null {
    const seat = this.actorSeat;
    if (seat === null) return null;
    if (this.phaseValue === HandPhase.DRAWING) return { type: 'discard', cards: [] };
    if (this.blindShowdownOpen()) return { type: 'muck' };
    if (this.phaseValue !== HandPhase.BETTING) return null;
    if (this.bringInPending) return { type: 'bring_in' };
    return this.currentBet > this.bySeat.get(seat)!.bet ? { type: 'fold' } : { type: 'check' };
  }

  /** Applies {@link timeoutDecision} to the actor; the record carries `timeout: true`. */
  applyTimeout(): FoldOperation | CheckOperation | BringInOperation | DiscardOperation | MuckOperation {
    const decision = this.timeoutDecision();
    if (decision === null) {
      throw new ActionError(ActionErrorCode.NOT_BETTING, 'nobody is to act', { actor: this.actorSeat });
    }
    const seat = this.actorSeat!;
    const meta = { timeout: true };
    switch (decision.type) {
      case 'discard':
        return this.discard(seat, [], meta);
      case 'bring_in':
        return this.bringIn(seat, meta);
      case 'muck':
        return this.muckBlind(seat, meta);
      case 'fold':
        return this.fold(seat, meta);
      default:
        return this.check(seat, meta);
    }
  }

  /**
   * Any dealt-in player may show their hole cards once the hand is over, including the
   * winner of an uncontested pot and players who folded or mucked.
   */
  verifyShow(seat: number): void {
    const p = this.bySeat.get(seat);
    if (p === undefined) {
      throw new ActionError(ActionErrorCode.NOT_IN_HAND, 'seat is not in this hand', { seat, action: 'show' });
    }
    if (this.phaseValue !== HandPhase.COMPLETE) {
      throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'cards can be shown once the hand is over', {
        seat,
        action: 'show',
      });
    }
    if (allShown(p)) throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'already shown', { seat, action: 'show' });
    if (this.blind) {
      throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'the engine does not know the cards: use showBlind', {
        seat,
        action: 'show',
      });
    }
  }

  canShow(seat: number): boolean {
    return this.can(() => this.verifyShow(seat));
  }

  show(seat: number): ShowOperation {
    this.verifyShow(seat);
    return this.reveal(this.bySeat.get(seat)!, 'voluntary');
  }

  // ---------------------------------------------------------------- blind dealing inputs

  /**
   * Blind dealing: the board cards the players decrypted for the street that is due
   * ({@link pendingBoard}): the right count, cards of the game's deck, none repeated, on the board or
   * in a shown hand.
   */
  verifyRevealBoard(cards: readonly Card[]): void {
    if (this.phaseValue === HandPhase.COMPLETE) {
      throw new ActionError(ActionErrorCode.HAND_COMPLETE, 'the hand is over', { action: 'reveal_board' });
    }
    const pending = this.pendingBoardValue;
    if (this.phaseValue !== HandPhase.DEALING || pending === null) {
      throw new ActionError(ActionErrorCode.NOT_DEALING, 'no board cards are due', { action: 'reveal_board' });
    }
    this.verifyInputCards(cards, pending.count, null, 'reveal_board');
  }

  canRevealBoard(cards: readonly Card[]): boolean {
    return this.can(() => this.verifyRevealBoard(cards));
  }

  /** Deals the due board cards (the usual `deal_board` record) and resumes the hand. */
  revealBoard(cards: readonly Card[]): DealBoardOperation {
    this.verifyRevealBoard(cards);
    const pending = this.pendingBoardValue!;
    this.pendingBoardValue = null;
    this.phaseValue = HandPhase.BETTING;
    this.board.push(...cards);
    const op = this.record<DealBoardOperation>({
      type: 'deal_board',
      street: pending.street,
      cards: [...cards],
      indices: [...pending.indices],
    });
    this.continueAfterStreet(pending.street);
    return op;
  }

  /**
   * Blind dealing: `seat` shows the hole cards it decrypted, at the showdown when it is its turn (the
   * show decides what it can win) or, once the hand is over, voluntarily. The count must be the seat's
   * hole cards and none may be on the board or in another shown hand; the engine cannot check more
   * (the transcript of the blind protocol proves the cards).
   */
  verifyShowBlind(seat: number, cards: readonly Card[]): void {
    const p = this.bySeat.get(seat);
    if (p === undefined) {
      throw new ActionError(ActionErrorCode.NOT_IN_HAND, 'seat is not in this hand', { seat, action: 'show' });
    }
    if (!this.blind) {
      throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'the engine knows the cards: use show', {
        seat,
        action: 'show',
      });
    }
    if (this.phaseValue !== HandPhase.COMPLETE) {
      this.verifyShowdownTurn(seat, 'show');
    } else if (allShown(p)) {
      throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'already shown', { seat, action: 'show' });
    }
    this.verifyInputCards(cards, p.visibility.length, seat, 'show');
  }

  canShowBlind(seat: number, cards: readonly Card[]): boolean {
    return this.can(() => this.verifyShowBlind(seat, cards));
  }

  showBlind(seat: number, cards: readonly Card[]): ShowOperation {
    this.verifyShowBlind(seat, cards);
    const p = this.bySeat.get(seat)!;
    const atShowdown = this.phaseValue !== HandPhase.COMPLETE;
    p.hole = [...cards];
    const op = this.reveal(p, atShowdown ? 'blind_show' : 'voluntary');
    if (atShowdown) {
      this.showQueue.shift();
      this.nextToShow();
    }
    return op;
  }

  /** Blind showdown: the actor gives up its claim on every pot another contender still contests. */
  verifyMuckBlind(seat: number): void {
    this.verifyShowdownTurn(seat, 'muck');
  }

  canMuckBlind(seat: number): boolean {
    return this.can(() => this.verifyMuckBlind(seat));
  }

  muckBlind(seat: number, meta: DecisionMeta = {}): MuckOperation {
    this.verifyMuckBlind(seat);
    const p = this.bySeat.get(seat)!;
    p.mucked = true;
    this.pots.removeMucked(seat);
    const op = this.record<MuckOperation>({
      type: 'muck',
      seat,
      reason: 'blind_muck',
      ...(meta.timeout ? { timeout: true as const } : {}),
    });
    this.showQueue.shift();
    this.nextToShow();
    return op;
  }

  private blindShowdownOpen(): boolean {
    return this.blind && this.phaseValue === HandPhase.SHOWDOWN && this.actorSeat !== null;
  }

  private verifyShowdownTurn(seat: number, action: string): void {
    if (this.phaseValue === HandPhase.COMPLETE) {
      throw new ActionError(ActionErrorCode.HAND_COMPLETE, 'the hand is over', { seat, action });
    }
    if (!this.blindShowdownOpen()) {
      throw new ActionError(ActionErrorCode.CANNOT_SHOW, 'no blind showdown is open', { seat, action });
    }
    if (seat !== this.actorSeat) {
      throw new ActionError(ActionErrorCode.NOT_YOUR_TURN, 'it is not this seat’s turn', {
        seat,
        action,
        actor: this.actorSeat,
      });
    }
  }

  /** Cards given as input: `count` distinct cards of the game's deck, none on the board or shown. */
  private verifyInputCards(cards: readonly Card[], count: number, seat: number | null, action: string): void {
    const list: unknown = cards;
    const texts = Array.isArray(list) ? list.map(String) : [];
    const fail = (message: string): never => {
      throw new ActionError(ActionErrorCode.INVALID_CARDS, message, { seat, action, cards: texts });
    };
    if (!Array.isArray(list) || list.length !== count) fail(`${count} cards are due`);
    const deck = deckCards(this.rules.deck);
    if (!texts.every((c) => isCard(c) && deck.has(c))) fail(`not cards of the ${this.rules.deck} deck`);
    if (new Set(texts).size !== texts.length) fail('a card is repeated');
    const known = new Set<string>(this.board);
    for (const p of this.players) for (const c of p.hole) known.add(c);
    if (texts.some((c) => known.has(c))) fail('a card is already on the board or in a shown hand');
  }

  // ---------------------------------------------------------------- serialization

  toJSON(): HandJSON {
    return { format: 'felt-hand/1', setup: this.setup, operations: this.ops };
  }

  /**
   * Restores a hand by replaying its decisions against its setup; every regenerated operation must equal
   * the logged one, so a corrupt or foreign snapshot is refused rather than continued.
   */
  static fromJSON(json: unknown, options: HandOptions = {}): Hand {
    const data = json as Partial<HandJSON> | null;
    if (
      data === null ||
      typeof data !== 'object' ||
      data.format !== 'felt-hand/1' ||
      typeof data.setup !== 'object' ||
      !Array.isArray(data.operations)
    ) {
      throw new SerializationError(SerializationErrorCode.INVALID_FORMAT, 'not a felt-hand/1 snapshot');
    }
    return Hand.replay(data.setup, data.operations, options);
  }

  /** Rebuilds a hand from its setup and operation log (see {@link Hand.fromJSON}). */
  static replay(setup: HandSetup, operations: readonly Operation[], options: HandOptions = {}): Hand {
    let hand: Hand;
    try {
      hand = new Hand(structuredCloneJSON(setup), options);
      for (const op of operations) {
        if (isDecision(op)) hand.applyDecision(op);
        else if (isBlindInput(op, setup)) hand.applyBlindInput(op);
        else if (isVoluntaryShow(op)) hand.show(op.seat);
      }
    } catch (cause) {
      if (cause instanceof SerializationError) throw cause;
      throw new SerializationError(
        SerializationErrorCode.REPLAY_FAILED,
        'the operation log does not replay',
        {},
        { cause },
      );
    }
    const expected = JSON.stringify(operations);
    const actual = JSON.stringify(hand.ops);
    if (expected !== actual) {
      throw new SerializationError(SerializationErrorCode.LOG_MISMATCH, 'replayed operations differ from the log', {
        handId: setup.handId,
        logged: operations.length,
        replayed: hand.ops.length,
      });
    }
    return hand;
  }

  private applyBlindInput(op: Operation): void {
    switch (op.type) {
      case 'deal_board':
        this.revealBoard(op.cards);
        return;
      case 'show':
        this.showBlind(op.seat, op.cards);
        return;
      case 'muck':
        this.muckBlind(op.seat, op.timeout ? { timeout: true } : {});
        return;
      default:
        throw new SerializationError(SerializationErrorCode.REPLAY_FAILED, `${op.type} is no blind input`);
    }
  }

  private applyDecision(op: DecisionOperation): void {
    const meta = op.timeout ? { timeout: true } : {};
    switch (op.type) {
      case 'fold':
        this.fold(op.seat, meta);
        return;
      case 'check':
        this.check(op.seat, meta);
        return;
      case 'call':
        this.call(op.seat);
        return;
      case 'bet':
        this.bet(op.seat, op.to);
        return;
      case 'raise':
        this.raise(op.seat, op.to);
        return;
      case 'bring_in':
        this.bringIn(op.seat, meta);
        return;
      case 'discard':
        this.discard(op.seat, op.cards, meta);
        return;
    }
  }

  // ---------------------------------------------------------------- internals: flow

  private start(): void {
    // Antes form their own round: a short ante caps the main pot at what it covers.
    const anteBets = new Map<number, number>();
    for (const fb of this.setup.forcedBets) this.post(fb, anteBets);
    if (anteBets.size > 0) {
      this.returnUncalledAnte(anteBets);
      const allIn = new Set<number>();
      for (const p of this.players) if (p.allInRound === -1) allIn.add(p.seat);
      this.pots.collect(anteBets, allIn, this.liveSeats());
    }
    for (const fb of this.setup.forcedBets) {
      if (fb.kind === ForcedBetKind.BIG_BLIND || fb.kind === ForcedBetKind.BUTTON_BLIND) {
        this.bigBlindSeat ??= fb.seat;
        // With the `posted` house rule a short all-in blind sets the bet at what it covered.
        const posted = this.houseRules.shortAllInBlind === 'posted';
        this.nominalBlind = Math.max(this.nominalBlind, posted ? this.bySeat.get(fb.seat)!.bet : fb.amount);
      }
    }
    this.dealStreet(0);
    if (this.pendingBoardValue !== null) return;
    this.openRound(0);
    if (this.actorSeat === null) this.advance();
  }

  /**
   * The ante round's uncalled excess goes back like any other round's: when every other player is
   * all-in for a smaller ante, the chips above the second-largest ante are nobody's to win, so they
   * must not form a pot (which would be raked).
   */
  private returnUncalledAnte(anteBets: Map<number, number>): void {
    let top: number | null = null;
    let topAmount = 0;
    let second = 0;
    for (const [seat, amount] of anteBets) {
      if (amount > topAmount) {
        second = topAmount;
        top = seat;
        topAmount = amount;
      } else second = Math.max(second, amount);
    }
    if (top === null || topAmount <= second) return;
    const p = this.bySeat.get(top)!;
    const amount = topAmount - second;
    p.live -= amount;
    p.returned += amount;
    p.stack += amount;
    p.allInRound = null;
    anteBets.set(top, second);
    this.record({ type: 'return', seat: top, amount });
  }

  private post(fb: ForcedBet, anteBets: Map<number, number>): void {
    const p = this.bySeat.get(fb.seat)!;
    const amount = Math.min(fb.amount, p.stack);
    if (amount === 0) return;
    p.stack -= amount;
    const allIn = p.stack === 0;
    if (isDeadForcedBet(fb.kind)) {
      p.dead += amount;
      this.pots.addDead(amount, this.seats);
      if (allIn) p.allInRound = 0;
    } else if (fb.kind === ForcedBetKind.ANTE) {
      p.live += amount;
      anteBets.set(p.seat, (anteBets.get(p.seat) ?? 0) + amount);
      if (allIn) p.allInRound = -1;
    } else {
      p.live += amount;
      p.bet += amount;
      if (allIn) p.allInRound = 0;
    }
    this.record({ type: 'post', seat: p.seat, kind: fb.kind, amount, allIn });
  }

  private dealStreet(index: number): void {
    const rules = this.rules.streets[index]!;
    this.street = index;
    if (rules.hole.length > 0) {
      const order = this.positionOrder().filter((s) => !this.bySeat.get(s)!.folded);
      if (this.dealer.remaining < order.length * rules.hole.length) {
        // The community-card rule (Stud): when the stub cannot give every live player their card, one card
        // is dealt face up in the middle and plays in everyone's hand.
        this.dealBoard(index, rules.hole.length);
      } else {
        const got = new Map<number, { cards: Card[]; indices: number[] }>();
        for (const seat of order) got.set(seat, { cards: [], indices: [] });
        // One card at a time round the table, starting left of the button.
        for (let round = 0; round < rules.hole.length; round++) {
          for (const seat of order) {
            const g = got.get(seat)!;
            if (this.blind) {
              g.indices.push(this.dealer.dealIndex());
              continue;
            }
            const { card, index: deckIndex } = this.dealer.deal();
            g.cards.push(card);
            g.indices.push(deckIndex);
          }
        }
        for (const seat of order) {
          const p = this.bySeat.get(seat)!;
          const g = got.get(seat)!;
          p.hole.push(...g.cards);
          p.visibility.push(...rules.hole);
          this.record({
            type: 'deal_hole',
            street: index,
            seat,
            cards: g.cards,
            visibility: [...rules.hole],
            indices: g.indices,
            ...(this.blind ? { unknown: true as const } : {}),
          });
        }
      }
    }
    if (rules.board > 0) this.dealBoard(index, rules.board);
  }

  private dealBoard(street: number, count: number): void {
    if (this.blind) {
      // Nobody knows the cards: the hand waits for the players to decrypt them (revealBoard).
      const indices: number[] = [];
      for (let i = 0; i < count; i++) indices.push(this.dealer.dealIndex());
      this.pendingBoardValue = { street, count, indices };
      this.phaseValue = HandPhase.DEALING;
      this.actorSeat = null;
      return;
    }
    const cards: Card[] = [];
    const indices: number[] = [];
    for (let i = 0; i < count; i++) {
      const { card, index } = this.dealer.deal();
      cards.push(card);
      indices.push(index);
    }
    this.board.push(...cards);
    this.record({ type: 'deal_board', street, cards, indices });
  }

  private hasDraws(): boolean {
    return this.rules.streets.some((s) => s.draw);
  }

  /** Draws the muck into a new stub (docs/fairness.md) and records it. */
  private reshuffleMuck(): void {
    const r = this.dealer.reshuffle(this.muck);
    this.muck.length = 0;
    this.record({ type: 'reshuffle', atIndex: r.atIndex, discards: [...r.discards] });
  }

  /** Opens draw round `index`: every live player, all-in or not, discards or stands pat in position order. */
  private openDraw(index: number): void {
    this.phaseValue = HandPhase.DRAWING;
    this.drawOrder = this.positionOrder().filter((s) => !this.bySeat.get(s)!.folded);
    this.actorSeat = this.drawOrder[0]!;
    this.record({ type: 'draw_round', street: index, name: this.rules.streets[index]!.name, actor: this.actorSeat });
  }

  private afterDiscard(seat: number): void {
    const next = this.drawOrder[this.drawOrder.indexOf(seat) + 1];
    if (next !== undefined) {
      this.actorSeat = next;
      return;
    }
    this.phaseValue = HandPhase.BETTING;
    this.actorSeat = null;
    const actors = this.players.filter((p) => this.canActPlayer(p)).length;
    if (actors >= 2) {
      this.openRound(this.street);
      if (this.actorSeat !== null) return;
    }
    this.advance();
  }

  /** Opens betting round `index` if anyone can act in it; otherwise closes it at once. */
  private openRound(index: number): void {
    const streetRules = this.rules.streets[index]!;
    for (const p of this.players) {
      if (index > 0) p.bet = 0;
      p.acted = false;
      p.actedAt = 0;
    }
    this.raiseCount = 0;
    this.lastAggressor = null;
    this.betUnit = streetRules.betUnit;
    this.bigBetOption =
      this.structure.limit === 'fl' &&
      streetRules.openPairBigBet === true &&
      this.houseRules.studOpenPairBigBet &&
      this.openPairShowing();
    this.lastFullRaise = initialRaiseSize(this.structure, streetRules.betUnit);
    this.reopenedAt = 0;
    this.bringInPending = false;
    this.completionPending = false;
    let max = 0;
    for (const p of this.players) max = Math.max(max, p.bet);
    this.currentBet = index === 0 && this.nominalBlind > 0 ? Math.max(max, this.nominalBlind) : max;
    if (this.roundComplete()) {
      this.actorSeat = null;
      this.closeRound();
      return;
    }
    this.actorSeat = this.firstToAct(streetRules);
    if (streetRules.firstToAct === 'bring_in' && this.currentBet === 0 && this.structure.bringIn > 0) {
      this.bringInPending = true;
    }
    this.record({ type: 'street', street: index, name: streetRules.name, actor: this.actorSeat });
  }

  /** The first player to act in a betting round, by the street's rule; players who cannot act are passed. */
  private firstToAct(streetRules: StreetRules): number | null {
    const needs = (s: number): boolean => this.needsAction(this.bySeat.get(s)!);
    switch (streetRules.firstToAct) {
      case 'after_big_blind':
        return nextSeat(this.seats, this.bigBlindSeat ?? this.setup.button, needs);
      case 'after_button':
        return nextSeat(this.seats, this.setup.button, needs);
      case 'bring_in':
        return nextSeat(this.seats, this.seatBefore(this.bringInSeat()), needs);
      case 'best_visible_high':
      case 'best_visible_low':
        return nextSeat(this.seats, this.seatBefore(this.bestVisibleSeat(streetRules.firstToAct)), needs);
    }
  }

  private seatBefore(seat: number): number {
    const i = this.seats.indexOf(seat);
    return this.seats[(i - 1 + this.seats.length) % this.seats.length]!;
  }

  private upCards(p: PlayerState): Card[] {
    return p.hole.filter((_, i) => p.visibility[i] === 'up');
  }

  /**
   * Stud: the live player whose door card brings in (lowest in Stud, highest in Razz, suits breaking ties),
   * all-in players included as pokerkit has it; the bring-in then falls to the first who can act from there.
   */
  private bringInSeat(): number {
    const rule = this.rules.bringIn ?? 'lowest';
    let best: { seat: number; key: number } | null = null;
    for (const p of this.players) {
      const door = p.folded ? undefined : this.upCards(p)[0];
      if (door === undefined) continue;
      const key = bringInKey(door, rule);
      if (best === null || key < best.key) best = { seat: p.seat, key };
    }
    return best?.seat ?? this.order[0]!;
  }

  /** The live player with the best up cards; equal hands go to the first seat clockwise from the button. */
  private bestVisibleSeat(rule: 'best_visible_high' | 'best_visible_low'): number {
    const value = rule === 'best_visible_high' ? visibleHighValue : visibleLowValue;
    let best: { seat: number; value: number } | null = null;
    for (const seat of this.order) {
      const p = this.bySeat.get(seat)!;
      if (p.folded) continue;
      const v = value(this.upCards(p));
      if (best === null || v > best.value) best = { seat, value: v };
    }
    return best?.seat ?? this.order[0]!;
  }

  private openPairShowing(): boolean {
    for (const p of this.players) {
      if (p.folded) continue;
      const ranks = this.upCards(p).map(rankOf);
      if (new Set(ranks).size < ranks.length) return true;
    }
    return false;
  }

  /** The completion: the small bet in fixed limit, the minimum bet otherwise (Stud's third street). */
  private completionSize(): number {
    return this.structure.limit === 'fl' ? this.structure.smallBet : this.structure.minBet;
  }

  /** Whether the current bet on Stud's third street is still below the completion. */
  private belowCompletion(): boolean {
    return (
      this.street === 0 &&
      this.rules.streets[0]!.firstToAct === 'bring_in' &&
      this.currentBet > 0 &&
      this.currentBet < this.completionSize()
    );
  }

  /**
   * The `limitHalfBetReopens` house rule: in fixed limit, an all-in that adds at least half the street's
   * unit over the current bet counts as a full bet or raise for reopening the betting.
   */
  private halfBetAllIn(increment: number, allIn: boolean): boolean {
    if (!allIn || this.structure.limit !== 'fl' || !this.houseRules.limitHalfBetReopens) return false;
    const unit = this.betUnit === 'big' ? this.structure.bigBet : this.structure.smallBet;
    return increment * 2 >= unit;
  }

  /** Fixed limit with the open-pair option: a big-bet increment makes the big bet the street's unit. */
  private takeBigBet(increment: number): void {
    if (this.bigBetOption && increment >= this.structure.bigBet) {
      this.bigBetOption = false;
      this.betUnit = 'big';
      this.lastFullRaise = this.structure.bigBet;
    }
  }

  private canActPlayer(p: PlayerState): boolean {
    return !p.folded && p.stack > 0;
  }

  private needsAction(p: PlayerState): boolean {
    return this.canActPlayer(p) && (!p.acted || p.bet < this.currentBet);
  }

  private roundComplete(): boolean {
    let live = 0;
    const actors: PlayerState[] = [];
    for (const p of this.players) {
      if (p.folded) continue;
      live++;
      if (p.stack > 0) actors.push(p);
    }
    if (live <= 1 || actors.length === 0) return true;
    if (actors.length === 1) {
      // Nobody left to bet against: done unless there is an all-in bet to call.
      const only = actors[0]!;
      let maxOther = 0;
      for (const p of this.players) if (p !== only && !p.folded) maxOther = Math.max(maxOther, p.bet);
      return only.bet >= maxOther;
    }
    return actors.every((p) => p.acted && p.bet === this.currentBet);
  }

  private afterAction(seat: number): void {
    if (this.liveCount() === 1) {
      this.actorSeat = null;
      this.closeRound();
      this.finishByFold();
      return;
    }
    if (this.roundComplete()) {
      this.actorSeat = null;
      this.closeRound();
      this.advance();
      return;
    }
    this.actorSeat = nextSeat(this.seats, seat, (s) => this.needsAction(this.bySeat.get(s)!));
  }

  /** Ends the betting round: the uncalled excess goes back, then the bets form pots. */
  private closeRound(): void {
    let top: PlayerState | null = null;
    let second = 0;
    for (const p of this.players) {
      if (top === null || p.bet > top.bet) {
        if (top !== null) second = Math.max(second, top.bet);
        top = p;
      } else second = Math.max(second, p.bet);
    }
    if (top !== null && top.bet > second) {
      const amount = top.bet - second;
      top.bet -= amount;
      top.live -= amount;
      top.returned += amount;
      top.stack += amount;
      if (top.allInRound === this.street) top.allInRound = null;
      this.record({ type: 'return', seat: top.seat, amount });
    }
    const bets = new Map<number, number>();
    const allIn = new Set<number>();
    for (const p of this.players) {
      bets.set(p.seat, p.bet);
      if (p.allInRound === this.street) allIn.add(p.seat);
      p.bet = 0;
    }
    this.pots.collect(bets, allIn, this.liveSeats());
    this.currentBet = 0;
  }

  /** Deals the next street and goes on until someone must act, the board is due, or the showdown. */
  private advance(): void {
    const next = this.street + 1;
    if (next >= this.rules.streets.length) {
      this.runShowdown();
      return;
    }
    if (this.rules.streets[next]!.draw) {
      // Every live player draws, even when nobody can bet any more.
      this.dealStreet(next);
      this.openDraw(next);
      return;
    }
    const actors = this.players.filter((p) => this.canActPlayer(p)).length;
    // All-in runout: every live hand is turned up before the remaining cards come (not while draws
    // remain: players still decide their draws, and hands are shown at the showdown). A blind hand
    // cannot: nobody knows the cards, and every hand waits for the showdown.
    if (actors <= 1 && !this.blind) {
      const drawsLeft = this.rules.streets.slice(next).some((s) => s.draw);
      if (!this.runoutRevealed && !drawsLeft) {
        this.runoutRevealed = true;
        for (const seat of this.showOrder()) {
          const p = this.bySeat.get(seat)!;
          if (!allShown(p)) this.reveal(p, 'all_in_runout');
        }
      }
    }
    this.dealStreet(next);
    // Blind dealing: the street resumes once its board is revealed (revealBoard).
    if (this.pendingBoardValue !== null) return;
    this.continueAfterStreet(next);
  }

  /**
   * Street `index` is dealt: its betting round opens if two players can bet; otherwise (an all-in
   * runout, or a round nobody needs to act in) the hand goes on to the next street.
   */
  private continueAfterStreet(index: number): void {
    const actors = this.players.filter((p) => this.canActPlayer(p)).length;
    if (actors >= 2) {
      this.openRound(index);
      if (this.actorSeat !== null) return;
    }
    this.advance();
  }

  private liveCount(): number {
    let n = 0;
    for (const p of this.players) if (!p.folded) n++;
    return n;
  }

  private liveSeats(): Set<number> {
    const s = new Set<number>();
    for (const p of this.players) if (!p.folded) s.add(p.seat);
    return s;
  }

  private showOrder(): number[] {
    const order = this.positionOrder().filter((s) => !this.bySeat.get(s)!.folded);
    const agg = this.lastAggressor;
    if (agg !== null && this.showdownOptions.lastAggressorShowsFirst && order.includes(agg)) {
      const i = order.indexOf(agg);
      return [...order.slice(i), ...order.slice(0, i)];
    }
    return order;
  }

  private reveal(p: PlayerState, reason: RevealReason): ShowOperation {
    p.shownCount = p.hole.length;
    return this.record<ShowOperation>({ type: 'show', seat: p.seat, cards: [...p.hole], reason });
  }

  // ---------------------------------------------------------------- internals: settlement

  private contributions(): Contribution[] {
    return this.players.map((p) => ({
      seat: p.seat,
      live: p.live,
      dead: p.dead,
      folded: p.folded,
      allIn: p.stack === 0,
    }));
  }

  private finishByFold(): void {
    this.phaseValue = HandPhase.SHOWDOWN;
    validatePots(this.setup.handId, this.pots.list(), this.contributions());
    const awards = awardPots(this.pots.list(), null, this.clockwise());
    this.pay(awards, [], false);
  }

  private runShowdown(): void {
    if (this.blind) {
      this.openBlindShowdown();
      return;
    }
    this.phaseValue = HandPhase.SHOWDOWN;
    this.actorSeat = null;
    const pots = this.pots.list();
    validatePots(this.setup.handId, pots, this.contributions());
    const live = this.players.filter((p) => !p.folded);
    const { awards, judged } = this.judge(pots, live);
    const contestedWinners = new Set<number>();
    for (const a of awards) if (a.contested) for (const s of a.shares) contestedWinners.add(s.seat);
    const allIn = new Set(live.filter((p) => p.stack === 0).map((p) => p.seat));
    // A Stud hand shown before the runout that was dealt more cards since is judged for showing again.
    const shown = new Set(live.filter((p) => allShown(p)).map((p) => p.seat));
    const order = this.positionOrder().filter((s) => !this.bySeat.get(s)!.folded);
    for (const d of decideReveals(this.showdownOptions, order, this.lastAggressor, allIn, contestedWinners, shown)) {
      const p = this.bySeat.get(d.seat)!;
      if (d.decision === 'show') this.reveal(p, d.reason);
      else if (d.decision === 'muck') {
        p.mucked = true;
        this.record({ type: 'muck', seat: p.seat, reason: d.reason });
      }
    }
    this.pay(awards, judged, true);
  }

  /**
   * Blind showdown: nobody knows the cards, so the reveals come first and only shown hands are scored.
   * The live seats show or muck one at a time in the reveal order (the last aggressor first, else the
   * first seat after the button). The table's showdown options other than `lastAggressorShowsFirst`
   * (allowMuck, showAllHands, autoMuck, allInMustShow, contestedWinnerMustShow) are ignored: the
   * engine cannot show cards it does not know, and a player who will not decrypt has mucked.
   */
  private openBlindShowdown(): void {
    this.phaseValue = HandPhase.SHOWDOWN;
    this.actorSeat = null;
    // Validated before any muck changes who contests what.
    validatePots(this.setup.handId, this.pots.list(), this.contributions());
    this.showQueue = this.showOrder();
    this.nextToShow();
  }

  /**
   * The next seat to show or muck. A seat that is the last contender of every pot it is in wins them
   * without showing, so it is not asked; when nobody is left, the shown hands are scored.
   */
  private nextToShow(): void {
    while (this.showQueue.length > 0 && this.pots.uncontestedFor(this.showQueue[0]!)) this.showQueue.shift();
    const head = this.showQueue[0];
    if (head !== undefined) {
      this.actorSeat = head;
      return;
    }
    this.actorSeat = null;
    // Every pot with two contenders or more holds only shown hands (the others mucked out of it).
    const shown = this.players.filter((p) => !p.folded && !p.mucked && allShown(p));
    const { awards, judged } = this.judge(this.pots.list(), shown);
    this.pay(awards, judged, true);
  }

  /** Scores `hands` (their hole cards known) on the board and splits `pots` among them. */
  private judge(
    pots: ReturnType<PotManager['list']>,
    hands: readonly PlayerState[],
  ): { awards: ReturnType<typeof awardPots>; judged: JudgedHand[] } {
    const values = new Map<number, (number | null)[]>();
    const judged: JudgedHand[] = [];
    for (const p of hands) {
      const v = this.rules.showdown.map((side) => side.evaluate(p.hole, this.board));
      values.set(p.seat, v);
      const d = this.rules.showdown.map((side) => side.describe(p.hole, this.board));
      judged.push({
        seat: p.seat,
        values: v,
        names: d.map((x) => x?.name ?? null),
        best: d.map((x) => (x === null ? null : [...x.best])),
      });
    }
    const kind = this.rules.showdown[0]?.kind ?? 'high';
    return { awards: awardPots(pots, values, this.clockwise(), kind, this.houseRules.oddChips), judged };
  }

  private clockwise(): Map<number, number> {
    return this.rank;
  }

  private pay(awards: readonly PotAward[], judged: JudgedHand[], showdown: boolean): void {
    const pots = this.pots.list();
    let contested = 0;
    for (const a of awards) contested += a.amount;
    const sawFlop = this.street >= this.rules.rakeFromStreet;
    const rake = decideRake(this.rake, contested, this.liveCount(), sawFlop);
    const shares: GrossShare[] = [];
    for (const a of awards) for (const s of a.shares) shares.push({ pot: a.pot, seat: s.seat, gross: s.gross });
    const nets = deductRake(shares, rake.amount, this.clockwise());
    let k = 0;
    const potResults: PotSettlement[] = awards.map((a) => {
      const pot = pots[a.pot]!;
      const winners = a.shares.map((s) => ({ seat: s.seat, side: s.side, gross: s.gross, net: nets[k++]! }));
      let potRake = 0;
      for (const w of winners) potRake += w.gross - w.net;
      return {
        index: a.pot,
        amount: a.amount,
        from: pot.from,
        to: pot.to,
        eligible: [...pot.eligible],
        contested: a.contested,
        rake: potRake,
        winners,
      };
    });
    // Money moves only after every pot validated and was judged.
    const won = new Map<number, number>();
    const rakePaid = new Map<number, number>();
    for (const r of potResults) {
      for (const w of r.winners) {
        won.set(w.seat, (won.get(w.seat) ?? 0) + w.net);
        rakePaid.set(w.seat, (rakePaid.get(w.seat) ?? 0) + w.gross - w.net);
      }
    }
    let paid = 0;
    for (const r of potResults) {
      for (const w of r.winners) {
        // The rake comes out of each share, never more than the share: no pot or player pays below zero.
        if (!Number.isSafeInteger(w.net) || w.net < 0 || w.net > w.gross) {
          throw new ShowdownIntegrityError(
            ShowdownIntegrityCode.CHIPS_NOT_CONSERVED,
            'a share pays rake out of bounds',
            {
              handId: this.setup.handId,
              pot: r.index,
              seats: [w.seat],
              expected: `0..${w.gross}`,
              actual: w.net,
            },
          );
        }
        paid += w.net;
      }
    }
    if (paid + rake.amount !== contested) {
      throw new ShowdownIntegrityError(ShowdownIntegrityCode.CHIPS_NOT_CONSERVED, 'awards do not add up to the pots', {
        handId: this.setup.handId,
        expected: contested,
        actual: paid + rake.amount,
      });
    }
    for (const r of potResults) {
      this.record({
        type: 'award',
        pot: r.index,
        amount: r.amount,
        rake: r.rake,
        winners: r.winners.map((w) => ({ seat: w.seat, side: w.side, amount: w.net })),
      });
    }
    for (const p of this.players) p.stack += won.get(p.seat) ?? 0;
    const players: PlayerSettlement[] = this.players.map((p) => ({
      seat: p.seat,
      id: p.id,
      startingStack: p.startingStack,
      contributed: p.live + p.dead,
      returned: p.returned,
      won: won.get(p.seat) ?? 0,
      rakePaid: rakePaid.get(p.seat) ?? 0,
      finalStack: p.stack,
      net: p.stack - p.startingStack,
      folded: p.folded,
    }));
    const uncalled: { seat: number; amount: number }[] = [];
    for (const op of this.ops) if (op.type === 'return') uncalled.push({ seat: op.seat, amount: op.amount });
    this.settlementValue = {
      handId: this.setup.handId,
      showdown,
      pots: potResults,
      uncalled,
      rake: { amount: rake.amount, rule: rake.rule, bps: rake.bps, contested: rake.contested, capped: rake.capped },
      players,
      hands: judged,
    };
    this.phaseValue = HandPhase.COMPLETE;
    this.actorSeat = null;
    this.record({
      type: 'hand_end',
      rake: rake.amount,
      stacks: this.players.map((p) => ({ seat: p.seat, stack: p.stack })),
    });
  }

  // ---------------------------------------------------------------- internals: helpers

  private player(seat: number): PlayerState | undefined {
    return this.bySeat.get(seat);
  }

  private verifyTurn(seat: number, action: string): PlayerState {
    if (this.phaseValue === HandPhase.COMPLETE) {
      throw new ActionError(ActionErrorCode.HAND_COMPLETE, 'the hand is over', { seat, action });
    }
    if (this.phaseValue !== HandPhase.BETTING || this.actorSeat === null) {
      throw new ActionError(
        ActionErrorCode.NOT_BETTING,
        this.phaseValue === HandPhase.DRAWING
          ? 'a draw round is open: discard or stand pat'
          : 'no betting round is open',
        { seat, action },
      );
    }
    const p = this.bySeat.get(seat);
    if (p === undefined || p.folded) {
      throw new ActionError(ActionErrorCode.NOT_IN_HAND, 'seat is not in this hand', { seat, action });
    }
    if (seat !== this.actorSeat) {
      throw new ActionError(ActionErrorCode.NOT_YOUR_TURN, 'it is not this seat’s turn', {
        seat,
        action,
        actor: this.actorSeat,
      });
    }
    if (this.bringInPending && !BRING_IN_ANSWERS.has(action)) {
      throw new ActionError(ActionErrorCode.BRING_IN_DUE, 'bring in or complete first', { seat, action });
    }
    return p;
  }

  private verifyAmount(p: PlayerState, to: number, action: 'bet' | 'raise'): void {
    if (!Number.isSafeInteger(to)) {
      throw new ActionError(ActionErrorCode.AMOUNT_INVALID, 'amounts are whole chips', {
        seat: p.seat,
        action,
        amount: to,
      });
    }
    const range = this.wagerRangeFor(p);
    if (range === null) {
      throw new ActionError(
        action === 'bet' ? ActionErrorCode.CANNOT_BET : ActionErrorCode.CANNOT_RAISE,
        'no wager is possible',
        {
          seat: p.seat,
          action,
          amount: to,
        },
      );
    }
    if (to < range.min) {
      throw new ActionError(ActionErrorCode.AMOUNT_TOO_SMALL, `${action} must be to at least ${range.min}`, {
        seat: p.seat,
        action,
        amount: to,
        min: range.min,
        max: range.max,
      });
    }
    if (to > range.max) {
      throw new ActionError(ActionErrorCode.AMOUNT_TOO_LARGE, `${action} may be to at most ${range.max}`, {
        seat: p.seat,
        action,
        amount: to,
        min: range.min,
        max: range.max,
      });
    }
    if (!inWagerRange(range, to)) {
      throw new ActionError(
        ActionErrorCode.AMOUNT_INVALID,
        `${action} must be to one of ${(range.choices ?? []).join(', ')}`,
        { seat: p.seat, action, amount: to, min: range.min, max: range.max },
      );
    }
  }

  private commit(p: PlayerState, amount: number): void {
    p.stack -= amount;
    p.bet += amount;
    p.live += amount;
    if (p.stack === 0) p.allInRound = this.street;
  }

  private can(verify: () => void): boolean {
    try {
      verify();
      return true;
    } catch (e) {
      if (e instanceof ActionError) return false;
      throw e;
    }
  }

  private record<T extends Operation>(op: T): T {
    const frozen = freeze(op);
    this.ops.push(frozen);
    return frozen;
  }
}

function structuredCloneJSON<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
