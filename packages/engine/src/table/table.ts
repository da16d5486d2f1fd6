import { bettingStructure, type Stakes } from '../betting/structure.js';
import { SetupError, SetupErrorCode, TableError, TableErrorCode } from '../errors.js';
import { DEFAULT_HANDS_PER_VARIANT, MIXED_FORMATS, isMixedFormat, type RotationEntry } from '../games/mixed.js';
import { getGameRules } from '../games/registry.js';
import type { GameRules } from '../games/types.js';
import { Hand } from '../hand/hand.js';
import { isDecision } from '../hand/operations.js';
import { nextSeat } from '../hand/seats.js';
import {
  ForcedBetKind,
  resolveRake,
  resolveHouseRules,
  verifyBlindGame,
  type ForcedBet,
  type HandSetup,
} from '../hand/setup.js';

import {
  SeatStatus,
  type HandPlan,
  type MixedState,
  type NextHandInput,
  type SeatState,
  type TableConfig,
  type TableJSON,
  type VariantState,
} from './types.js';

export * from './types.js';

function isList(v: unknown): boolean {
  return Array.isArray(v);
}

/** Clockwise interval (from, to] on the ring of seat numbers. */
function passes(seat: number, from: number, to: number): boolean {
  if (from === to) return false;
  return from < to ? seat > from && seat <= to : seat > from || seat <= to;
}

/**
 * The seating layer: seats, stacks between hands, the moving button, who is dealt in (waiting for the
 * big blind or posting), missed blinds owed, sit-out (including after consecutive timeouts). It produces
 * each hand's {@link HandSetup} and takes the finished {@link Hand} back. Plain data; `toJSON` is the state.
 */
export class Table {
  readonly config: TableConfig;
  /** The games in play order: one for a single game, the rotation for a mixed one. */
  private variants: readonly { readonly entry: VariantState; readonly rules: GameRules }[];
  /** Set by setStakes (a tournament's level): the stakes of each game since, kept in the snapshot. */
  private stakesSet = false;
  private readonly rotation: { readonly handsPerVariant: number } | null;
  private variantIndex = 0;
  private handsInVariant = 0;
  private readonly seatMap = new Map<number, SeatState>();
  private button: number | null = null;
  private smallBlindSeat: number | null = null;
  private bigBlindSeat: number | null = null;
  private handsStarted = 0;
  private handInProgress: string | null = null;
  private dealtIn: number[] = [];

  /**
   * @param options.rules plays these rules instead of the registry's for a single game (tests, custom rules)
   */
  constructor(config: TableConfig, options: { rules?: GameRules } = {}) {
    const mixed = config.rotation !== undefined || isMixedFormat(config.game);
    let entries: readonly RotationEntry[];
    if (mixed) {
      entries = config.rotation?.order ?? (isMixedFormat(config.game) ? MIXED_FORMATS[config.game] : []);
      const hpv = config.rotation?.handsPerVariant ?? DEFAULT_HANDS_PER_VARIANT;
      if (entries.length < 1 || !Number.isSafeInteger(hpv) || hpv < 1) {
        throw new TableError(TableErrorCode.INVALID_CONFIG, 'a rotation needs games and a positive handsPerVariant', {
          games: entries.length,
          handsPerVariant: hpv,
        });
      }
      this.rotation = { handsPerVariant: hpv };
    } else {
      entries = [{ game: config.game, limit: config.limit }];
      this.rotation = null;
    }
    this.variants = entries.map((e, index) => {
      const rules = !mixed && options.rules !== undefined ? options.rules : getGameRules(e.game);
      const cap = Math.min(rules.maxSeats, e.maxSeats ?? rules.maxSeats);
      if (!Number.isSafeInteger(config.maxSeats) || config.maxSeats < 2 || config.maxSeats > cap) {
        throw new TableError(TableErrorCode.INVALID_SEAT, `maxSeats must be 2..${cap} (${rules.name})`, {
          maxSeats: config.maxSeats,
          game: rules.id,
        });
      }
      const stakes = e.stakes ?? config.stakes;
      bettingStructure(e.limit, stakes, rules.forcedBets);
      return { entry: { index, game: rules.id, limit: e.limit, stakes, maxSeats: cap }, rules };
    });
    resolveRake(config.rake);
    resolveHouseRules(config.houseRules);
    this.config = config;
  }

  // ---------------------------------------------------------------- reading

  get currentHandId(): string | null {
    return this.handInProgress;
  }

  get buttonSeat(): number | null {
    return this.button;
  }

  /** The rules of the game the next (or current) hand plays; in a mixed game it changes between hands. */
  get rules(): GameRules {
    return this.variants[this.variantIndex]!.rules;
  }

  /** The game being played, with its limit, stakes and seat cap. */
  get currentVariant(): VariantState {
    return this.variants[this.variantIndex]!.entry;
  }

  /** Mixed games: the current and the next game of the rotation; null for a single game. */
  get mixed(): MixedState | null {
    if (this.rotation === null) return null;
    return {
      current: this.currentVariant,
      next: this.variants[(this.variantIndex + 1) % this.variants.length]!.entry,
      handsPlayed: this.handsInVariant,
      handsPerVariant: this.rotation.handsPerVariant,
    };
  }

  seat(seat: number): Readonly<SeatState> | undefined {
    return this.seatMap.get(seat);
  }

  seats(): readonly Readonly<SeatState>[] {
    return [...this.seatMap.values()].sort((a, b) => a.seat - b.seat);
  }

  // ---------------------------------------------------------------- seating

  /**
   * Seats a player. By default they wait for the big blind; with `post`, they post a live big blind and
   * play the next hand they can be dealt into; with `dealIn` (a tournament's draw or move: the player
   * takes the seat's rights and obligations), they are dealt the next hand wherever they sit and post
   * only the blinds that come to their seat.
   */
  sit(
    seat: number,
    playerId: string,
    stack: number,
    opts: { post?: boolean; dealIn?: boolean; name?: string } = {},
  ): void {
    if (!Number.isSafeInteger(seat) || seat < 1 || seat > this.config.maxSeats) {
      throw new TableError(TableErrorCode.INVALID_SEAT, `seat must be 1..${this.config.maxSeats}`, { seat });
    }
    if (this.seatMap.has(seat)) throw new TableError(TableErrorCode.SEAT_TAKEN, 'seat is taken', { seat });
    for (const s of this.seatMap.values()) {
      if (s.playerId === playerId) {
        throw new TableError(TableErrorCode.PLAYER_ALREADY_SEATED, 'player already has a seat', { seat: s.seat });
      }
    }
    if (!Number.isSafeInteger(stack) || stack <= 0) {
      throw new TableError(TableErrorCode.INVALID_AMOUNT, 'a buy-in is a positive integer', { stack });
    }
    this.seatMap.set(seat, {
      seat,
      playerId,
      ...(opts.name !== undefined ? { name: opts.name } : {}),
      stack,
      status: opts.post || opts.dealIn ? SeatStatus.ACTIVE : SeatStatus.WAITING_FOR_BIG_BLIND,
      postToPlay: opts.post === true,
      missedSmallBlind: false,
      missedBigBlind: false,
      consecutiveTimeouts: 0,
      pendingChips: 0,
      sitOutAfterHand: false,
      leaveAfterHand: false,
    });
  }

  /**
   * Frees the seat, at once between hands or when the hand ends if the player is in it (the table
   * actor folds them when their turn comes). Returns the chips cashed out now, or null when deferred.
   */
  leave(seat: number): number | null {
    const s = this.requireSeat(seat);
    if (this.inHand(seat)) {
      s.leaveAfterHand = true;
      return null;
    }
    this.seatMap.delete(seat);
    return s.stack + s.pendingChips;
  }

  sitOut(seat: number): void {
    const s = this.requireSeat(seat);
    if (this.inHand(seat)) s.sitOutAfterHand = true;
    else {
      s.status = SeatStatus.SITTING_OUT;
      s.postToPlay = false;
    }
  }

  /**
   * Back from sitting out. A player who missed blinds either posts them (`post`: a live big blind and
   * a dead small blind) or waits for the big blind.
   */
  sitIn(seat: number, opts: { post?: boolean } = {}): void {
    const s = this.requireSeat(seat);
    s.sitOutAfterHand = false;
    s.consecutiveTimeouts = 0;
    if (s.status !== SeatStatus.SITTING_OUT) return;
    if (s.missedBigBlind || s.missedSmallBlind) {
      if (opts.post) {
        s.status = SeatStatus.ACTIVE;
        s.postToPlay = true;
      } else s.status = SeatStatus.WAITING_FOR_BIG_BLIND;
    } else s.status = SeatStatus.ACTIVE;
  }

  /** Adds chips (a top-up or rebuy); credited after the hand when the seat is in one. */
  addChips(seat: number, amount: number): void {
    const s = this.requireSeat(seat);
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      throw new TableError(TableErrorCode.INVALID_AMOUNT, 'chips are a positive integer', { amount });
    }
    if (this.inHand(seat)) s.pendingChips += amount;
    else s.stack += amount;
  }

  /**
   * New stakes for every game of the table (one per rotation entry; one for a single game), from the
   * next hand on: a tournament's blind level. The hand in progress keeps the stakes it was dealt with.
   * Each is checked as the constructor checks the config's; a refusal changes nothing.
   */
  setStakes(stakes: readonly Stakes[]): void {
    if (stakes.length !== this.variants.length) {
      throw new TableError(
        TableErrorCode.INVALID_CONFIG,
        `stakes for ${this.variants.length} games, not ${stakes.length}`,
      );
    }
    this.variants.forEach((v, i) => bettingStructure(v.entry.limit, stakes[i]!, v.rules.forcedBets));
    this.variants = this.variants.map((v, i) => ({ entry: { ...v.entry, stakes: stakes[i]! }, rules: v.rules }));
    this.stakesSet = true;
  }

  // ---------------------------------------------------------------- hands

  /** The next hand's button, blinds, players and posts, or null when fewer than two can play. */
  planNextHand(): HandPlan | null {
    const ready = (s: SeatState): boolean => s.stack > 0;
    const all = this.seats().filter(ready);
    if (this.rules.forcedBets !== 'blinds') return this.planWithoutBlinds(all);
    let regular = all.filter((s) => s.status === SeatStatus.ACTIVE && !s.postToPlay).map((s) => s.seat);
    let posters = all.filter((s) => s.status === SeatStatus.ACTIVE && s.postToPlay).map((s) => s.seat);
    let waiting = all.filter((s) => s.status === SeatStatus.WAITING_FOR_BIG_BLIND).map((s) => s.seat);
    const restarting = regular.length < 2;
    if (restarting) {
      // No game to wait behind: everyone ready starts without posting.
      regular = [...regular, ...posters, ...waiting].sort((a, b) => a - b);
      posters = [];
      waiting = [];
    }
    if (regular.length < 2) return null;
    const button = this.button === null ? regular[0]! : nextSeat(regular, this.button, () => true)!;
    const firstBlind = nextSeat(regular, button, () => true)!;
    const candidates = [...new Set([...regular, ...waiting, ...posters])].sort((a, b) => a - b);
    const secondBlind = nextSeat(candidates, firstBlind, () => true)!;
    let smallBlind: number | null = firstBlind;
    let bigBlind: number | null = secondBlind;
    const dealt = new Set(regular);
    dealt.add(secondBlind);
    // Posters join only between the blinds and the button, never in the small blind or on the button.
    for (const p of posters) if (passes(p, firstBlind, button) && p !== button) dealt.add(p);
    const dealtIn = [...dealt].sort((a, b) => a - b);
    if (dealtIn.length === 2) {
      // Heads-up: the button posts the small blind and acts first preflop.
      smallBlind = button;
      bigBlind = dealtIn.find((s) => s !== button)!;
    }
    const stakes = this.currentVariant.stakes;
    const forcedBets: ForcedBet[] = [];
    const ante = stakes.ante ?? 0;
    if (ante > 0) for (const seat of dealtIn) forcedBets.push({ seat, kind: ForcedBetKind.ANTE, amount: ante });
    if (stakes.smallBlind > 0)
      forcedBets.push({ seat: smallBlind, kind: ForcedBetKind.SMALL_BLIND, amount: stakes.smallBlind });
    forcedBets.push({ seat: bigBlind, kind: ForcedBetKind.BIG_BLIND, amount: stakes.bigBlind });
    const bba = stakes.bigBlindAnte ?? 0;
    if (bba > 0) forcedBets.push({ seat: bigBlind, kind: ForcedBetKind.BIG_BLIND_ANTE, amount: bba });
    for (const seat of dealtIn) {
      if (seat === bigBlind || seat === smallBlind || restarting) continue;
      const s = this.seatMap.get(seat)!;
      if (!s.postToPlay) continue;
      // A returning player who missed only the small blind still had their big blind this orbit,
      // so they owe just the small one, dead (with a chip to play for); a new player or one who missed the
      // big blind posts it live.
      const smallOnly = s.missedSmallBlind && !s.missedBigBlind && stakes.smallBlind > 0 && s.stack > stakes.smallBlind;
      if (!smallOnly) forcedBets.push({ seat, kind: ForcedBetKind.LIVE_POST, amount: stakes.bigBlind });
      if (s.missedSmallBlind && stakes.smallBlind > 0) {
        forcedBets.push({ seat, kind: ForcedBetKind.DEAD_BLIND, amount: stakes.smallBlind });
      }
    }
    const missed: { seat: number; small: boolean; big: boolean }[] = [];
    for (const s of this.seats()) {
      if (s.status !== SeatStatus.SITTING_OUT) continue;
      const small =
        this.smallBlindSeat !== null && smallBlind !== null && passes(s.seat, this.smallBlindSeat, smallBlind);
      const big = this.bigBlindSeat !== null && bigBlind !== null && passes(s.seat, this.bigBlindSeat, bigBlind);
      if (small || big) missed.push({ seat: s.seat, small: small || big, big });
    }
    return { button, smallBlind, bigBlind, dealtIn, forcedBets, missed };
  }

  /**
   * Games without blinds to wait for (Stud's antes and bring-in, Short Deck's antes and button blind):
   * everyone ready is dealt in, and the button still moves (it fixes the dealing order and the odd chip).
   */
  private planWithoutBlinds(ready: readonly SeatState[]): HandPlan | null {
    const dealtIn = ready.filter((s) => s.status !== SeatStatus.SITTING_OUT).map((s) => s.seat);
    if (dealtIn.length < 2) return null;
    const button = this.button === null ? dealtIn[0]! : nextSeat(dealtIn, this.button, () => true)!;
    const stakes = this.currentVariant.stakes;
    const forcedBets: ForcedBet[] = [];
    const ante = stakes.ante ?? 0;
    if (ante > 0) for (const seat of dealtIn) forcedBets.push({ seat, kind: ForcedBetKind.ANTE, amount: ante });
    let bigBlind: number | null = null;
    if (this.rules.forcedBets === 'button_blind') {
      forcedBets.push({
        seat: button,
        kind: ForcedBetKind.BUTTON_BLIND,
        amount: stakes.buttonBlind ?? stakes.bigBlind,
      });
      bigBlind = button;
    }
    return { button, smallBlind: null, bigBlind, dealtIn, forcedBets, missed: [] };
  }

  /**
   * Starts the next hand: moves the button and blinds, records missed blinds, settles posts, and returns
   * the setup of the hand to construct (see {@link Table.startHand}). The deck is the hand's shuffled deck
   * for the current game's deck kind (`table.rules.deck`); draw games also need its deck seed (hex) to
   * reshuffle the discards verifiably.
   */
  prepareHand(input: NextHandInput): HandSetup {
    if (this.handInProgress !== null) {
      throw new TableError(TableErrorCode.HAND_IN_PROGRESS, 'a hand is in progress', { handId: this.handInProgress });
    }
    // A blind hand has no deck seed. It refuses, before the button moves, a game it cannot play (draws
    // among them), and a mixed table whose rotation holds one.
    if (input.blind === true) for (const v of this.variants) verifyBlindGame(v.rules);
    else if (input.deckSeed === undefined && this.rules.streets.some((st) => st.draw)) {
      throw new SetupError(SetupErrorCode.DECK_SEED_REQUIRED, `${this.rules.name} needs the hand's deck seed`, {
        handId: input.handId,
      });
    }
    const plan = this.planNextHand();
    if (plan === null) throw new TableError(TableErrorCode.NOT_ENOUGH_PLAYERS, 'fewer than two players can play');
    for (const m of plan.missed) {
      const s = this.seatMap.get(m.seat)!;
      if (m.small) s.missedSmallBlind = true;
      if (m.big) s.missedBigBlind = true;
    }
    for (const seat of plan.dealtIn) {
      const s = this.seatMap.get(seat)!;
      s.status = SeatStatus.ACTIVE;
      s.postToPlay = false;
      s.missedSmallBlind = false;
      s.missedBigBlind = false;
    }
    this.button = plan.button;
    this.smallBlindSeat = plan.smallBlind;
    this.bigBlindSeat = plan.bigBlind;
    this.handsStarted++;
    this.handInProgress = input.handId;
    this.dealtIn = [...plan.dealtIn];
    return {
      handId: input.handId,
      game: this.rules.id,
      limit: this.currentVariant.limit,
      stakes: this.currentVariant.stakes,
      button: plan.button,
      players: plan.dealtIn.map((seat) => {
        const s = this.seatMap.get(seat)!;
        return { seat, id: s.playerId, stack: s.stack, ...(s.name !== undefined ? { name: s.name } : {}) };
      }),
      forcedBets: plan.forcedBets,
      ...(input.blind === true
        ? { dealing: 'blind' as const, deck: [] }
        : { deck: input.deck, ...(input.deckSeed !== undefined ? { deckSeed: input.deckSeed } : {}) }),
      rake: this.config.rake ?? null,
      ...(this.config.showdown !== undefined ? { showdown: this.config.showdown } : {}),
      ...(this.config.houseRules !== undefined ? { houseRules: this.config.houseRules } : {}),
      ...(input.startedAt !== undefined ? { startedAt: input.startedAt } : {}),
      ...(this.config.tableName !== undefined ? { tableName: this.config.tableName } : {}),
      tableSize: this.config.maxSeats,
    };
  }

  /** {@link prepareHand} and construct the hand. */
  startHand(input: NextHandInput): Hand {
    return new Hand(this.prepareHand(input), { rules: this.rules });
  }

  /**
   * Takes a finished hand back: stacks from its settlement, consecutive timeouts from its log (three in a
   * row sit the player out), then deferred sit-outs, leaves and top-ups. Returns the seats that left.
   */
  finishHand(hand: Hand): { left: { seat: number; playerId: string; cashOut: number }[] } {
    if (this.handInProgress === null) throw new TableError(TableErrorCode.NO_HAND_IN_PROGRESS, 'no hand in progress');
    if (hand.handId !== this.handInProgress) {
      throw new TableError(TableErrorCode.HAND_MISMATCH, 'that is not the hand in progress', {
        expected: this.handInProgress,
        actual: hand.handId,
      });
    }
    const settlement = hand.settlement;
    if (settlement === null) throw new TableError(TableErrorCode.HAND_IN_PROGRESS, 'the hand is not settled');
    for (const p of settlement.players) {
      const s = this.seatMap.get(p.seat);
      if (s !== undefined) s.stack = p.finalStack;
    }
    const limit = this.config.sitOutAfterTimeouts ?? 3;
    for (const op of hand.operations) {
      // A blind showdown's muck is the seat's decision too: its clock can run out there.
      if (!isDecision(op) && !(op.type === 'muck' && op.reason === 'blind_muck')) continue;
      const s = this.seatMap.get(op.seat);
      if (s === undefined) continue;
      s.consecutiveTimeouts = op.timeout ? s.consecutiveTimeouts + 1 : 0;
    }
    const left: { seat: number; playerId: string; cashOut: number }[] = [];
    for (const s of this.sortedSeats()) {
      s.stack += s.pendingChips;
      s.pendingChips = 0;
      if (s.leaveAfterHand) {
        this.seatMap.delete(s.seat);
        left.push({ seat: s.seat, playerId: s.playerId, cashOut: s.stack });
        continue;
      }
      if (s.sitOutAfterHand || s.consecutiveTimeouts >= limit || s.stack === 0) {
        s.status = SeatStatus.SITTING_OUT;
        s.postToPlay = false;
        s.sitOutAfterHand = false;
      }
    }
    this.handInProgress = null;
    this.dealtIn = [];
    // A mixed game moves on only here, between hands: the hand just finished kept its game throughout.
    if (this.rotation !== null && ++this.handsInVariant >= this.rotation.handsPerVariant) {
      this.handsInVariant = 0;
      this.variantIndex = (this.variantIndex + 1) % this.variants.length;
    }
    return { left };
  }

  /**
   * Voids the hand in progress (a missing or corrupt checkpoint): every stack stays at its hand-start
   * value, because stacks only change in {@link finishHand}.
   */
  voidHand(): void {
    this.handInProgress = null;
    this.dealtIn = [];
  }

  // ---------------------------------------------------------------- serialization

  toJSON(): TableJSON {
    return {
      format: 'felt-table/1',
      config: this.config,
      seats: this.seats().map((s) => ({ ...s })),
      button: this.button,
      smallBlind: this.smallBlindSeat,
      bigBlind: this.bigBlindSeat,
      handsStarted: this.handsStarted,
      handInProgress: this.handInProgress,
      dealtIn: [...this.dealtIn],
      mixed: this.mixed,
      ...(this.stakesSet ? { stakes: this.variants.map((v) => v.entry.stakes) } : {}),
    };
  }

  static fromJSON(json: unknown, options: { rules?: GameRules } = {}): Table {
    const data = json as TableJSON | null;
    if (data === null || typeof data !== 'object' || data.format !== 'felt-table/1' || !isList(data.seats)) {
      throw new TableError(TableErrorCode.INVALID_SNAPSHOT, 'not a felt-table/1 snapshot');
    }
    const table = new Table(data.config, options);
    for (const s of data.seats) table.seatMap.set(s.seat, { ...s });
    table.button = data.button;
    table.smallBlindSeat = data.smallBlind;
    table.bigBlindSeat = data.bigBlind;
    table.handsStarted = data.handsStarted;
    table.handInProgress = data.handInProgress;
    table.dealtIn = [...data.dealtIn];
    if (data.stakes !== undefined) table.setStakes(data.stakes);
    const mixed = data.mixed ?? null;
    if ((mixed === null) !== (table.rotation === null)) {
      throw new TableError(TableErrorCode.INVALID_SNAPSHOT, 'the snapshot and its config disagree on the rotation');
    }
    if (mixed !== null) {
      const variant = table.variants[mixed.current.index];
      const hpv = table.rotation!.handsPerVariant;
      if (
        variant === undefined ||
        variant.entry.game !== mixed.current.game ||
        variant.entry.limit !== mixed.current.limit ||
        !Number.isSafeInteger(mixed.handsPlayed) ||
        mixed.handsPlayed < 0 ||
        mixed.handsPlayed >= hpv
      ) {
        throw new TableError(TableErrorCode.INVALID_SNAPSHOT, 'the rotation state does not fit the rotation', {
          current: mixed.current,
        });
      }
      table.variantIndex = mixed.current.index;
      table.handsInVariant = mixed.handsPlayed;
    }
    return table;
  }

  // ---------------------------------------------------------------- helpers

  private sortedSeats(): SeatState[] {
    return [...this.seatMap.values()].sort((a, b) => a.seat - b.seat);
  }

  private inHand(seat: number): boolean {
    return this.handInProgress !== null && this.dealtIn.includes(seat);
  }

  private requireSeat(seat: number): SeatState {
    const s = this.seatMap.get(seat);
    if (s === undefined) throw new TableError(TableErrorCode.SEAT_EMPTY, 'nobody sits there', { seat });
    return s;
  }
}
