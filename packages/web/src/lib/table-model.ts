// Maps the SDK's TableView (the reducer's output: the installed snapshot plus hand-local
// markers) to what the table components draw. Pure: the same view always gives the same model, so
// a resync or a reload that installs the same snapshot draws the same table.
import { currentTurn, type HandMarkers, type TableView, type TurnInfo } from '@felt/client';
import type { HandResult, SeatStatus, SeatView, TableEvent, TableState, VariantView } from '@felt/protocol';
import { t } from '../i18n/i18n.js';
import { dealingModel, voidText, type BlindHeroKnowledge, type DealingModel } from './blind-dealing.js';
import {
  cardsText,
  chips,
  gameFamily,
  GameFamily,
  gameShortTitle,
  gameTitle,
  handNameText,
  isHiLo,
  isMixed,
  stakesText,
  streetName,
} from './format.js';
import { placeSeats, type Point } from './seat-layout.js';

export interface CardSlot {
  /** The card, or null for one this viewer may not see (drawn face down). */
  readonly code: string | null;
  /** Dealt face up (Stud): everyone sees it. */
  readonly up: boolean;
}

export interface SeatModel {
  readonly seat: number;
  readonly empty: boolean;
  readonly name: string | null;
  readonly userId: string | null;
  readonly bot: boolean;
  readonly stack: number;
  readonly bet: number;
  readonly status: SeatStatus;
  /** "Away", "Sitting out", "Disconnected"; null when there is nothing to say. */
  readonly statusLabel: string | null;
  readonly isHero: boolean;
  readonly isActor: boolean;
  readonly isButton: boolean;
  /**
   * The seat's blind role: SB, BB, or (Short Deck) the button's blind, which has no SB/BB badge: Short
   * Deck has no small and big blind, so no seat is badged as if it had.
   */
  readonly blind: 'SB' | 'BB' | 'BUTTON_BLIND' | null;
  readonly inHand: boolean;
  readonly folded: boolean;
  readonly allIn: boolean;
  readonly cards: readonly CardSlot[];
  readonly timeBankMs: number | null;
  readonly plate: Point;
  readonly betAt: Point;
  /** What the seat did last on this street ("Call 20", "Raise to 60"). */
  readonly lastAction: string | null;
  /** Chips this seat won in the finished hand (net of rake), when it won any. */
  readonly won: number | null;
  /** Names of the hand it showed, per side (high, low). */
  readonly handNames: readonly string[];
}

export interface PotModel {
  readonly label: string;
  readonly amount: number;
  readonly eligible: readonly number[];
}

export interface PotResultModel {
  readonly label: string;
  readonly amount: number;
  readonly rake: number;
  readonly winners: readonly {
    readonly seat: number;
    readonly name: string;
    readonly amount: number;
    readonly side: 'high' | 'low' | 'uncontested';
    readonly handName: string | null;
  }[];
  /** A hi-lo pot with no qualifying low: the high hand scoops it. */
  readonly noLow: boolean;
}

export interface ShowdownModel {
  readonly handId: string;
  readonly pots: readonly PotResultModel[];
  readonly shown: readonly {
    readonly seat: number;
    readonly name: string;
    readonly cards: readonly string[];
    readonly handNames: readonly string[];
  }[];
  readonly mucked: readonly number[];
  readonly players: readonly { readonly seat: number; readonly name: string; readonly net: number }[];
  readonly rake: number;
  readonly hiLo: boolean;
}

export interface GameModel {
  /** The room's game ("HORSE" for a mix). */
  readonly room: string;
  /** The current hand's game with its limit. */
  readonly title: string;
  readonly stakes: string;
  readonly family: GameFamily;
  readonly hiLo: boolean;
  /** Mixed games: the current and the next game of the rotation. */
  readonly rotation: {
    readonly current: string;
    readonly next: string;
    /** Hands of the current game left before the switch. */
    readonly handsLeft: number;
  } | null;
  readonly variant: VariantView;
}

export interface HeroModel {
  readonly seat: number;
  readonly cards: readonly CardSlot[];
  readonly stack: number;
  readonly status: SeatStatus;
  readonly inHand: boolean;
  readonly folded: boolean;
  readonly sittingOut: boolean;
}

export interface LogLine {
  readonly key: string;
  readonly kind: 'street' | 'action' | 'result';
  readonly text: string;
}

export interface TableModel {
  readonly tableId: string;
  readonly role: 'player' | 'spectator' | null;
  readonly game: GameModel;
  readonly phase: TableState['phase'];
  readonly street: string;
  readonly handId: string | null;
  readonly seats: readonly SeatModel[];
  readonly board: readonly string[];
  readonly pots: readonly PotModel[];
  /** Everything in the middle, this round's bets included. */
  readonly potTotal: number;
  readonly currentBet: number;
  readonly actorSeat: number | null;
  readonly clock: { readonly deadline: number; readonly timeBankMs: number } | null;
  readonly hero: HeroModel | null;
  readonly turn: TurnInfo | null;
  readonly showdown: ShowdownModel | null;
  readonly nextHandAt: number | null;
  readonly seedCommit: string | null;
  readonly stateHash: string;
  readonly closed: boolean;
  /** The current hand as it happened: streets, decisions and results, oldest first. */
  readonly log: readonly LogLine[];
  /** The last hand was voided (hand_voided): its id, for a one-time notice. */
  readonly voidedHandId: string | null;
  /** What the void notice says (an engine-blind failure names the step and the seats it blames). */
  readonly voidedText: string | null;
  /** Engine-blind dealing (lib/blind-dealing.ts): tables of rooms created with it only, else null. */
  readonly dealing: DealingModel | null;
  /** A standing notice about the table (the room is closing, bots cannot be seated), or null. */
  readonly notice: string | null;
}

const BOTS_BLOCKED = {
  bankroll_empty: 'table.notice.bankrollEmpty',
  room_limit: 'table.notice.roomLimit',
  daily_limit: 'table.notice.dailyLimit',
} as const satisfies Readonly<Record<NonNullable<TableState['bots_blocked']>, string>>;

/** The standing notice of a snapshot: the room closing first, then bots the house will not stake. */
function tableNotice(state: TableState): string | null {
  if (state.closing === true) return t('table.notice.closing');
  return state.bots_blocked !== undefined ? t(BOTS_BLOCKED[state.bots_blocked]) : null;
}

/** "Away", "Sitting out", "Disconnected"; null for a seat with nothing to say. */
function statusLabel(status: SeatStatus): string | null {
  return status === 'away' || status === 'sitting_out' || status === 'disconnected' ? t(`seatStatus.${status}`) : null;
}

export function potLabel(index: number): string {
  return index === 0 ? t('log.mainPot') : t('log.sidePot', { n: index });
}

function potLabelLower(index: number): string {
  return index === 0 ? t('log.mainPotLower') : t('log.sidePotLower', { n: index });
}

/** A public action as a short line: "Check", "Call 20", "Raise to 60", "All-in 300". */
export function actionText(e: Extract<TableEvent, { type: 'player_action' }>): string {
  const allIn = e.all_in ? t('action.allInMark') : '';
  switch (e.action) {
    case 'fold':
      return t('action.fold');
    case 'check':
      return t('action.check');
    case 'call':
      return `${t('action.call', { amount: chips(e.amount) })}${allIn}`;
    case 'bet':
      return `${t('action.bet', { amount: chips(e.to ?? e.amount) })}${allIn}`;
    case 'raise':
      return `${t('action.raise', { amount: chips(e.to ?? e.amount) })}${allIn}`;
    case 'bring_in':
      return t('action.bringIn', { amount: chips(e.amount) });
    case 'discard':
      return e.discarded === undefined || e.discarded === 0
        ? t('action.standPat')
        : t('action.draw', { count: e.discarded });
  }
}

/** The last action of each seat since the current street began. */
function lastActions(hand: HandMarkers | null): Map<number, string> {
  const out = new Map<number, string>();
  if (hand === null) return out;
  for (const e of hand.events) {
    if (e.type === 'street_revealed') out.clear();
    else if (e.type === 'player_action')
      out.set(e.seat, actionText(e) + (e.timeout === true ? t('action.timedOut') : ''));
  }
  return out;
}

/** The hand's public story from its sequenced events, with seat names where known. */
export function handLog(
  hand: HandMarkers | null,
  names: ReadonlyMap<number, string>,
  heroSeat: number | null = null,
): LogLine[] {
  if (hand === null) return [];
  const who = (seat: number): string => names.get(seat) ?? t('common.seat', { seat });
  const out: LogLine[] = [];
  for (const e of hand.events) {
    const key = String(e.table_seq);
    switch (e.type) {
      case 'hand_started':
        for (const f of e.forced_bets) {
          out.push({
            key: `${key}-${f.seat}-${f.kind}`,
            kind: 'action',
            text: t('log.posts', { name: who(f.seat), amount: chips(f.amount) }),
          });
        }
        break;
      case 'seed_commit':
        out.push({ key, kind: 'street', text: t('log.newHand') });
        break;
      case 'street_revealed': {
        const street = streetName(e.street);
        const text = e.board.length > 0 ? t('log.streetCards', { street, cards: cardsText(e.board) }) : street;
        // A draw round announces itself again when its betting starts; one header is enough.
        if (out.at(-1)?.text !== text) out.push({ key, kind: 'street', text });
        break;
      }
      case 'player_action':
        out.push({
          key,
          kind: 'action',
          text: t('log.acted', {
            name: who(e.seat),
            action: `${actionText(e)}${e.timeout === true ? t('action.timedOut') : ''}`,
          }),
        });
        break;
      case 'showdown':
        for (const s of e.shown)
          out.push({
            key: `${key}-${s.seat}`,
            kind: 'action',
            text: t('log.shows', { name: who(s.seat), cards: cardsText(s.cards) }),
          });
        for (const m of e.mucked)
          out.push({ key: `${key}-m${m}`, kind: 'action', text: t('log.mucks', { name: who(m) }) });
        break;
      case 'cards_shown':
        out.push({ key, kind: 'action', text: t('log.shows', { name: who(e.seat), cards: cardsText(e.cards) }) });
        break;
      case 'hand_result':
        for (const p of e.pots) {
          for (const w of p.winners) {
            out.push({
              key: `${key}-${p.index}-${w.seat}-${w.side}`,
              kind: 'result',
              text: t(w.side === 'low' ? 'log.winsLow' : 'log.wins', {
                name: who(w.seat),
                amount: chips(w.amount),
                pot: potLabelLower(p.index),
              }),
            });
          }
        }
        break;
      case 'hand_voided':
        out.push({ key, kind: 'result', text: voidText(e, names, heroSeat) });
        break;
      default:
        break;
    }
  }
  return out;
}

function seatCards(seat: SeatView, shown: ReadonlyMap<number, readonly string[]>): CardSlot[] {
  const cards = seat.cards ?? [];
  const up = seat.up ?? [];
  const revealed = shown.get(seat.seat);
  if (revealed !== undefined && revealed.length !== cards.length && cards.every((c) => c === null)) {
    // A shown hand the snapshot has not caught up with yet: the shown cards are the hand.
    return revealed.map((code) => ({ code, up: false }));
  }
  return cards.map((code, i) => ({
    code: code ?? (revealed !== undefined && revealed.length === cards.length ? (revealed[i] ?? null) : null),
    up: up[i] ?? false,
  }));
}

/** The blind a seat posts this hand; Short Deck's only blind is the button's. */
function blindRole(state: TableState, seat: number): SeatModel['blind'] {
  if (state.variant.game === 'shortdeck') return state.big_blind === seat ? 'BUTTON_BLIND' : null;
  return state.small_blind === seat ? 'SB' : state.big_blind === seat ? 'BB' : null;
}

function gameModel(state: TableState): GameModel {
  const v = state.variant;
  const rotation = state.rotation;
  return {
    room: isMixed(state.game) ? gameTitle(state.game, v.limit) : gameTitle(v.game, v.limit),
    title: gameTitle(v.game, v.limit),
    stakes: stakesText(v),
    family: gameFamily(v.game),
    hiLo: isHiLo(v.game),
    rotation:
      rotation === undefined
        ? null
        : {
            current: gameShortTitle(v.game, v.limit),
            next: gameShortTitle(rotation.next.game, rotation.next.limit),
            handsLeft: Math.max(0, rotation.hands_per_variant - rotation.hands_played),
          },
    variant: v,
  };
}

function showdownModel(
  hand: HandMarkers,
  result: HandResult,
  names: ReadonlyMap<number, string>,
  hiLo: boolean,
): ShowdownModel {
  const nameOf = (seat: number): string => names.get(seat) ?? t('common.seat', { seat });
  const handNames = new Map(result.hands.map((h) => [h.seat, h.names]));
  const shownBySeat = new Map<number, readonly string[]>();
  for (const s of hand.shown) shownBySeat.set(s.seat, s.cards);
  return {
    handId: result.hand_id,
    pots: result.pots.map((p) => ({
      label: potLabel(p.index),
      amount: p.amount,
      rake: p.rake,
      noLow: hiLo && p.winners.length > 0 && p.winners.every((w) => w.side === 'high'),
      winners: p.winners.map((w) => {
        const names = handNames.get(w.seat) ?? [];
        const raw = w.side === 'low' ? (names[1] ?? null) : w.side === 'high' ? (names[0] ?? null) : null;
        const handName = raw === null ? null : handNameText(raw);
        return { seat: w.seat, name: nameOf(w.seat), amount: w.amount, side: w.side, handName };
      }),
    })),
    shown: [...shownBySeat.entries()].map(([seat, cards]) => ({
      seat,
      name: nameOf(seat),
      cards,
      handNames: (handNames.get(seat) ?? []).filter((n): n is string => n !== null).map(handNameText),
    })),
    mucked: hand.showdown?.mucked ?? [],
    players: result.players.map((p) => ({ seat: p.seat, name: nameOf(p.seat), net: p.net })),
    rake: result.rake,
    hiLo,
  };
}

/**
 * The table model of a view, or null before the first snapshot. `blind`: what the player's own device
 * knows of an engine-blind hand (state/blind-seat.ts): its hole cards are drawn where the hero's cards
 * go, since no snapshot carries them.
 */
export function toTableModel(view: TableView, blind: BlindHeroKnowledge | null = null): TableModel | null {
  const state = view.state;
  if (state === null) return null;
  const hand = view.hand !== null && view.hand.handId === state.hand_id ? view.hand : null;
  const game = gameModel(state);
  const heroSeat = state.hero?.seat ?? null;
  const placements = new Map(
    placeSeats(
      state.seats.map((s) => s.seat),
      heroSeat,
    ).map((p) => [p.seat, p]),
  );
  const shown = new Map<number, readonly string[]>();
  for (const s of hand?.shown ?? []) shown.set(s.seat, s.cards);
  const actions = lastActions(hand);
  const result = hand?.result ?? null;
  const won = new Map<number, number>();
  for (const p of result?.pots ?? []) for (const w of p.winners) won.set(w.seat, (won.get(w.seat) ?? 0) + w.amount);
  const handNames = new Map(
    (result?.hands ?? []).map((h) => [h.seat, h.names.filter((n): n is string => n !== null).map(handNameText)]),
  );
  const names = new Map<number, string>();
  // The hero's engine-blind hole cards, for the hand on the table only (dealt blind, and this one).
  const blindHand = state.dealing?.blind?.hand_id;
  const blindCards =
    blind !== null && blindHand !== undefined && blindHand === state.hand_id && blind.handId === blindHand
      ? blind.holeCards
      : [];

  const seats: SeatModel[] = state.seats.map((s) => {
    const place = placements.get(s.seat)!;
    if (s.name !== null) names.set(s.seat, s.name);
    const isHero = heroSeat === s.seat;
    let cards = seatCards(s, shown);
    if (isHero && state.hero !== undefined && cards.every((c) => c.code === null) && state.hero.cards.length > 0) {
      // A snapshot that lists the hero's cards only under `hero` still shows them on the hero's seat.
      cards = state.hero.cards.map((code, i) => ({ code, up: s.up?.[i] ?? false }));
    } else if (isHero && s.in_hand && cards.every((c) => c.code === null) && blindCards.length > 0) {
      // An engine-blind hand: the server never knew these cards; the player's device opened them.
      cards = Array.from({ length: Math.max(cards.length, blindCards.length) }, (_, i) => ({
        code: blindCards[i] ?? null,
        up: false,
      }));
    }
    return {
      seat: s.seat,
      empty: s.status === 'empty',
      name: s.name,
      userId: s.user_id,
      bot: s.bot === true,
      stack: s.stack,
      bet: s.bet,
      status: s.status,
      statusLabel: statusLabel(s.status),
      isHero,
      isActor: state.actor === s.seat,
      isButton: state.button === s.seat,
      blind: blindRole(state, s.seat),
      inHand: s.in_hand,
      folded: s.in_hand && s.folded === true,
      allIn: s.in_hand && s.all_in === true,
      cards,
      timeBankMs: s.time_bank_ms ?? null,
      plate: place.plate,
      betAt: place.bet,
      lastAction: actions.get(s.seat) ?? null,
      won: won.get(s.seat) ?? null,
      handNames: handNames.get(s.seat) ?? [],
    };
  });

  const heroView = state.hero;
  const heroSeatModel = seats.find((s) => s.isHero);
  const hero: HeroModel | null =
    heroView === undefined || heroSeatModel === undefined
      ? null
      : {
          seat: heroView.seat,
          cards: heroSeatModel.cards,
          stack: heroSeatModel.stack,
          status: heroSeatModel.status,
          inHand: heroSeatModel.inHand,
          folded: heroSeatModel.folded,
          sittingOut: heroSeatModel.status === 'sitting_out',
        };

  return {
    tableId: state.table_id,
    role: view.role,
    game,
    phase: state.phase,
    street: streetName(state.street),
    handId: state.hand_id ?? null,
    seats,
    board: game.family === GameFamily.BOARD ? state.board : [],
    pots: state.pots.map((p, i) => ({ label: potLabel(i), amount: p.amount, eligible: p.eligible })),
    potTotal: state.pot_total,
    currentBet: state.current_bet,
    actorSeat: state.actor,
    clock:
      state.actor !== null && state.deadline !== null
        ? { deadline: state.deadline, timeBankMs: state.time_bank_ms ?? 0 }
        : null,
    hero,
    turn: currentTurn(view),
    showdown: hand !== null && result !== null ? showdownModel(hand, result, names, game.hiLo) : null,
    nextHandAt: state.next_hand_at ?? null,
    seedCommit: state.seed_commit ?? null,
    stateHash: state.state_hash,
    closed: view.closed,
    notice: tableNotice(state),
    log: handLog(hand, names, heroSeat),
    voidedHandId: hand?.voided != null ? hand.handId : null,
    voidedText: hand?.voided != null ? voidText(hand.voided, names, heroSeat) : null,
    dealing: dealingModel(state, names, blind),
  };
}
